package agent

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/canopy-dev/canopy/pkg/tunnel"
)

// TestMetricsError checks what the hub is told for each way a physical
// cluster fails to answer a pod's metrics, as kube-apiserver and
// metrics-server answer them.
func TestMetricsError(t *testing.T) {
	target := tunnel.Target{Cluster: "root", Name: "pc1"}
	for _, c := range []struct {
		name string
		err  error
		code int32
		want string
	}{
		// metrics-server's own answer for a pod it has no sample of.
		{"no sample yet", apierrors.NewNotFound(schema.GroupResource{Group: "metrics.k8s.io", Resource: "pods"}, "web-1"), http.StatusNotFound, `pods.metrics.k8s.io "web-1" not found`},
		// kube-apiserver's for a group nobody serves, as client-go makes
		// it of a 404 page.
		{"no metrics API", apierrors.NewGenericServerResponse(http.StatusNotFound, "get", schema.GroupResource{}, "", "404 page not found", 0, true), http.StatusServiceUnavailable, "SyncTarget root:pc1 serves no metrics API"},
		{"metrics-server down", apierrors.NewServiceUnavailable("the server is currently unable to handle the request"), http.StatusServiceUnavailable, "could not answer the metrics of its pods: the server is currently unable"},
		{"connection refused", errors.New("dial tcp 127.0.0.1:1: connect: connection refused"), http.StatusServiceUnavailable, "connection refused"},
	} {
		got := metricsError(target, "web-1", c.err).Status()
		if got.Code != c.code || !strings.Contains(got.Message, c.want) {
			t.Errorf("%s: %d %q, want %d with %q", c.name, got.Code, got.Message, c.code, c.want)
		}
	}
}
