package podproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/tunnel"
	"github.com/canopy-dev/canopy/pkg/tunnel/agent"
)

// Metrics is the storage of metrics.k8s.io/v1beta1's pods: the PodMetrics
// of the upsynced pods of a logical cluster, each read from the physical
// cluster that runs it through its syncer's tunnel, as metrics-server
// answers them in that cluster.
type Metrics struct {
	pods  *Pods
	table rest.TableConvertor
}

// Metrics returns the storage of metrics.k8s.io's pods.
func (p *Pods) Metrics() *Metrics {
	return &Metrics{pods: p, table: rest.NewDefaultTableConvertor(metricsv1beta1.Resource("pods"))}
}

var (
	_ rest.Getter               = &Metrics{}
	_ rest.Lister               = &Metrics{}
	_ rest.Scoper               = &Metrics{}
	_ rest.SingularNameProvider = &Metrics{}
)

func (r *Metrics) New() runtime.Object     { return &metricsv1beta1.PodMetrics{} }
func (r *Metrics) NewList() runtime.Object { return &metricsv1beta1.PodMetricsList{} }
func (r *Metrics) Destroy()                {}
func (r *Metrics) NamespaceScoped() bool   { return true }
func (r *Metrics) GetSingularName() string { return "pod" }
func (r *Metrics) ConvertToTable(ctx context.Context, obj runtime.Object, opts runtime.Object) (*metav1.Table, error) {
	return r.table.ConvertToTable(ctx, obj, opts)
}

// Get is the PodMetrics of one pod: a 404 if the hub has no such pod or
// its physical cluster no sample of it yet, and a Status saying why when
// its physical cluster serves no metrics or cannot be reached.
func (r *Metrics) Get(ctx context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	pod, t, err := r.pods.Locate(ctx, name)
	if err != nil {
		return nil, err
	}
	return r.fetch(ctx, pod, t)
}

// maxInFlight bounds the tunnel requests one list has open at a time.
const maxInFlight = 8

// List is the PodMetrics of the upsynced pods the options select, as
// metrics-server lists those it has samples of. A pod whose physical
// cluster could not answer is left out with a warning saying why; if
// that leaves nothing although pods were selected, the list is that
// error instead, so that kubectl top says what to fix.
func (r *Metrics) List(ctx context.Context, options *metainternalversion.ListOptions) (runtime.Object, error) {
	opts := &metainternalversion.ListOptions{}
	if options != nil {
		opts.LabelSelector, opts.FieldSelector = options.LabelSelector, options.FieldSelector
	}
	obj, err := r.pods.pods.(rest.Lister).List(ctx, opts)
	if err != nil {
		return nil, err
	}
	pods := obj.(*corev1.PodList).Items
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	var (
		mu      sync.Mutex
		out     = &metricsv1beta1.PodMetricsList{}
		failed  []error
		targets = map[string]tunnel.Target{}
		wg      sync.WaitGroup
		slots   = make(chan struct{}, maxInFlight)
	)
	for i := range pods {
		pod := &pods[i]
		key := pod.Labels[workloadv1alpha1.UpsyncedLabel]
		if key == "" {
			// Not running in a physical cluster: no usage to report.
			continue
		}
		t, ok := targets[key]
		if !ok {
			if t, err = r.pods.target(ctx, cluster, key); err != nil {
				failed = append(failed, err)
				continue
			}
			targets[key] = t
		}
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			m, err := r.fetch(ctx, pod, t)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				out.Items = append(out.Items, *m)
			case !apierrors.IsNotFound(err):
				// A pod without a sample yet is left out silently, as
				// metrics-server leaves it out.
				failed = append(failed, err)
			}
		}()
	}
	wg.Wait()
	sort.Slice(out.Items, func(i, j int) bool {
		a, b := out.Items[i], out.Items[j]
		return a.Namespace < b.Namespace || a.Namespace == b.Namespace && a.Name < b.Name
	})
	if len(failed) > 0 && len(out.Items) == 0 {
		return nil, failed[0]
	}
	for _, err := range failed {
		warning.AddWarning(ctx, "", fmt.Sprintf("metrics of some pods are missing: %v", err))
	}
	return out, nil
}

// fetch asks the syncer of t for the PodMetrics of pod and names them as
// the hub names the pod.
func (r *Metrics) fetch(ctx context.Context, pod *corev1.Pod, t tunnel.Target) (*metricsv1beta1.PodMetrics, error) {
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	what := fmt.Sprintf("the metrics of pod %s/%s", pod.Namespace, pod.Name)
	u := url.URL{Scheme: "http", Host: "syncer", Path: tunnel.PodPath(cluster, pod.Namespace, pod.Name, agent.Metrics)}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := tunnel.RoundTripper(r.pods.tunnels, t).RoundTrip(req)
	if err != nil {
		var status apierrors.APIStatus
		if errors.As(err, &status) {
			return nil, status.(error)
		}
		return nil, apierrors.NewServiceUnavailable(fmt.Sprintf("reaching the syncer of SyncTarget %s for %s: %v", t, what, err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, statusOf(resp, fmt.Sprintf("the syncer of SyncTarget %s, asked for %s", t, what))
	}
	down := &metricsv1beta1.PodMetrics{}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxMetrics)).Decode(down); err != nil {
		return nil, apierrors.NewServiceUnavailable(fmt.Sprintf("the syncer of SyncTarget %s answered %s that do not decode: %v", t, what, err))
	}
	// Only the usage comes from downstream: the names, labels and
	// namespace are the hub's, so nothing of the physical cluster's
	// naming shows.
	return &metricsv1beta1.PodMetrics{
		ObjectMeta: metav1.ObjectMeta{
			Name:              pod.Name,
			Namespace:         pod.Namespace,
			Labels:            pod.Labels,
			CreationTimestamp: metav1.Now(),
		},
		Timestamp:  down.Timestamp,
		Window:     down.Window,
		Containers: down.Containers,
	}, nil
}

// maxMetrics bounds the PodMetrics read of one pod: a few hundred bytes
// a container.
const maxMetrics = 1 << 20
