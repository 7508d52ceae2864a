package hubclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/sync/patch"
)

// FieldManager is the field manager of the syncer's writes, at the hub
// and downstream.
const FieldManager = "canopy-syncer"

// Clients reach every logical cluster of the hub over one set of
// connections.
type Clients struct {
	base string
	http *http.Client
	rest *rest.Config
}

// New is the Clients of the hub that c reaches; whichever logical
// cluster its host names, the clients address the hub's /clusters/
// paths themselves.
func New(c *rest.Config) (*Clients, error) {
	httpClient, err := rest.HTTPClientFor(c)
	if err != nil {
		return nil, err
	}
	base, _, _ := strings.Cut(strings.TrimSuffix(c.Host, "/"), logicalcluster.PathPrefix)
	return &Clients{base: base, http: httpClient, rest: rest.CopyConfig(c)}, nil
}

// Config is the hub's client configuration at path, as
// "/clusters/root:a" or "/clusters/*".
func (c *Clients) Config(path string) *rest.Config {
	cfg := rest.CopyConfig(c.rest)
	cfg.Host = c.base + logicalcluster.PathPrefix + path
	return cfg
}

// HTTP is the connections the clients share.
func (c *Clients) HTTP() *http.Client { return c.http }

// In is a client of logical cluster cluster, sharing the connections
// of all others: making one costs no request and keeps no state.
func (c *Clients) In(cluster string) (dynamic.Interface, error) {
	return dynamic.NewForConfigAndClient(c.Config(cluster), c.http)
}

// Kube is a typed client of logical cluster cluster, sharing the
// connections of all others.
func (c *Clients) Kube(cluster string) (kubernetes.Interface, error) {
	return kubernetes.NewForConfigAndClient(c.Config(cluster), c.http)
}

// PatchStatus sends merge patch p to the status of hub object
// namespace/name of gvr in logical cluster cluster.
func (c *Clients) PatchStatus(ctx context.Context, gvr schema.GroupVersionResource, cluster, namespace, name string, p []byte) (*unstructured.Unstructured, error) {
	hub, err := c.In(cluster)
	if err != nil {
		return nil, err
	}
	return hub.Resource(gvr).Namespace(namespace).Patch(ctx, name, types.MergePatchType, p, metav1.PatchOptions{FieldManager: FieldManager}, "status")
}

// WriteStatus makes the status of hub object from, of gvr in logical
// cluster cluster, that of to, and makes to the object as the hub has it
// then. It is a merge patch without a resourceVersion (pkg/sync/patch),
// which no other write of the object makes conflict: the status it
// writes is the syncer's. Since others' writes of the object's other
// fields may land in between, to takes the whole object the hub answers,
// not only its resourceVersion, so that an update made from it later
// undoes none of them. Nothing is written where both are equal.
func (c *Clients) WriteStatus(ctx context.Context, gvr schema.GroupVersionResource, cluster string, from, to *unstructured.Unstructured) error {
	have, _, _ := unstructured.NestedMap(from.Object, "status")
	want, _, _ := unstructured.NestedMap(to.Object, "status")
	p, err := patch.Status(have, want)
	if err != nil || p == nil {
		return err
	}
	updated, err := c.PatchStatus(ctx, gvr, cluster, to.GetNamespace(), to.GetName(), p)
	if err != nil {
		return err
	}
	updated.SetManagedFields(nil)
	to.Object = updated.Object
	return nil
}

// PatchReport sets the annotation reporting the status at the target of
// key of hub object namespace/name of gvr in logical cluster cluster to
// report, or removes it for nil, with a merge patch of that annotation
// alone, which no other target's report conflicts with.
func (c *Clients) PatchReport(ctx context.Context, gvr schema.GroupVersionResource, key, cluster, namespace, name string, report []byte) error {
	value := any(nil)
	if report != nil {
		value = string(report)
	}
	p, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{workloadv1alpha1.StatusAnnotation(key): value}}})
	if err != nil {
		return err
	}
	hub, err := c.In(cluster)
	if err != nil {
		return err
	}
	// A hub object that is gone has no status to report on.
	if _, err = hub.Resource(gvr).Namespace(namespace).Patch(ctx, name, types.MergePatchType, p, metav1.PatchOptions{FieldManager: FieldManager}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("reporting the status at the target to the hub object: %w", err)
	}
	return nil
}
