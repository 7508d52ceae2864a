package podproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion/queryparams"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/tunnel"
)

// Log is the storage of pods/log: the log of an upsynced pod's container,
// read from its physical cluster through its syncer's tunnel.
type Log struct{ pods *Pods }

// Log returns the storage of pods/log.
func (p *Pods) Log() *Log { return &Log{pods: p} }

var (
	_ rest.GetterWithOptions = &Log{}
	_ rest.StorageMetadata   = &Log{}
)

func (r *Log) New() runtime.Object { return &corev1.Pod{} }
func (r *Log) Destroy()            {}

// ProducesMIMETypes and ProducesObject are what kube-apiserver's pods/log
// tells discovery and OpenAPI.
func (r *Log) ProducesMIMETypes(string) []string {
	return []string{"text/plain"}
}
func (r *Log) ProducesObject(string) any { return "" }

func (r *Log) NewGetOptions() (runtime.Object, bool, string) {
	return &corev1.PodLogOptions{}, false, ""
}

func (r *Log) Get(ctx context.Context, name string, options runtime.Object) (runtime.Object, error) {
	opts, ok := options.(*corev1.PodLogOptions)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("invalid options object: %#v", options))
	}
	pod, t, err := r.pods.Locate(ctx, name)
	if err != nil {
		return nil, err
	}
	query, err := queryparams.Convert(opts)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	return &stream{
		dialer: r.pods.tunnels,
		target: t,
		url:    &url.URL{Scheme: "http", Host: "syncer", Path: tunnel.PodPath(cluster, pod.Namespace, pod.Name, "log"), RawQuery: query.Encode()},
		follow: opts.Follow,
		pod:    fmt.Sprintf("pod %s/%s", pod.Namespace, pod.Name),
	}, nil
}

// stream is the response of one pods/log request, streamed from the
// syncer.
type stream struct {
	dialer tunnel.Dialer
	target tunnel.Target
	url    *url.URL
	follow bool
	pod    string
}

var _ rest.ResourceStreamer = &stream{}

// GetObjectKind and DeepCopyObject make a stream the runtime.Object that
// a GetterWithOptions returns, as genericrest.LocationStreamer is.
func (s *stream) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }
func (s *stream) DeepCopyObject() runtime.Object {
	c := *s
	return &c
}

// maxStatus bounds how much of an error answer is read to find its
// Status.
const maxStatus = 64 << 10

func (s *stream) InputStream(ctx context.Context, _, _ string) (io.ReadCloser, bool, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url.String(), nil)
	if err != nil {
		return nil, false, "", err
	}
	resp, err := tunnel.RoundTripper(s.dialer, s.target).RoundTrip(req)
	if err != nil {
		var status apierrors.APIStatus
		if errors.As(err, &status) {
			return nil, false, "", status.(error)
		}
		return nil, false, "", apierrors.NewServiceUnavailable(fmt.Sprintf("reaching the syncer of SyncTarget %s for the log of %s: %v", s.target, s.pod, err))
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		return nil, false, "", statusOf(resp, fmt.Sprintf("the syncer of SyncTarget %s, asked for the log of %s", s.target, s.pod))
	}
	return &abortOnError{body: resp.Body, what: s}, s.follow, "text/plain", nil
}

// statusOf is the error of an answer other than 200: the Status it holds,
// from the syncer or the physical cluster's API server, or one saying
// what came instead.
func statusOf(resp *http.Response, who string) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxStatus))
	status := &metav1.Status{}
	if err := json.Unmarshal(body, status); err == nil && status.Kind == "Status" && status.Code != 0 {
		return &apierrors.StatusError{ErrStatus: *status}
	}
	return apierrors.NewGenericServerResponse(resp.StatusCode, "get", corev1.Resource("pods"), "", fmt.Sprintf("%s answered %s: %q", who, resp.Status, body), 0, false)
}

// abortOnError ends the response abnormally when the stream from the
// syncer breaks, as when its tunnel closes: the API server's streaming
// ignores a read error and would end the response as if the log were
// complete. Panicking with http.ErrAbortHandler is how net/http, and
// kube-apiserver's own filters, abort a response: the client sees its
// connection reset, or its HTTP/2 stream, and kubectl exits with an
// error.
type abortOnError struct {
	body io.ReadCloser
	what *stream
}

func (a *abortOnError) Read(b []byte) (int, error) {
	n, err := a.body.Read(b)
	if err != nil && err != io.EOF {
		klog.V(2).InfoS("The log stream from the syncer broke", "syncTarget", a.what.target.String(), "pod", a.what.pod, "err", err)
		panic(http.ErrAbortHandler)
	}
	return n, err
}

func (a *abortOnError) Close() error { return a.body.Close() }
