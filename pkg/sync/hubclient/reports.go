package hubclient

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/tools/cache"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// StatusReports is the resource of the targets' reports.
var StatusReports = workloadv1alpha1.SchemeGroupVersion.WithResource("statusreports")

// Reports reads and writes the reports of one target, of the status at
// the target of the hub objects it shares with others: a StatusReport per
// namespaced object (pkg/statusreport), and the object's status
// annotation for one that is not namespaced.
type Reports struct {
	clients *Clients
	key     string
	// held is the syncer's informer store of its StatusReports, keyed
	// "<cluster>/<namespace>/<name>".
	held cache.Store
}

// NewReports returns the reports of the target of key, written with
// clients and read from held.
func NewReports(clients *Clients, key string, held cache.Store) *Reports {
	return &Reports{clients: clients, key: key, held: held}
}

// Held is the report, as JSON, of hub object h, of resource gr, in
// cluster, as the hub has it, and false if it has none.
func (r *Reports) Held(cluster string, gr schema.GroupResource, h *unstructured.Unstructured) ([]byte, bool) {
	if h.GetNamespace() == "" {
		raw, ok := h.GetAnnotations()[workloadv1alpha1.StatusAnnotation(r.key)]
		return []byte(raw), ok
	}
	content, ok := r.stored(cluster, gr, h)
	if !ok {
		return nil, false
	}
	status, _, _ := unstructured.NestedFieldNoCopy(content, "spec", "status")
	raw, err := json.Marshal(status)
	return raw, err == nil
}

// stored is the StatusReport of h held, if there is one owned by h.
func (r *Reports) stored(cluster string, gr schema.GroupResource, h *unstructured.Unstructured) (map[string]any, bool) {
	obj, ok, err := r.held.GetByKey(cluster + "/" + h.GetNamespace() + "/" + workloadv1alpha1.StatusReportName(gr.String(), h.GetName(), r.key))
	u, isUnstructured := obj.(runtime.Unstructured)
	if err != nil || !ok || !isUnstructured {
		return nil, false
	}
	content := u.UnstructuredContent()
	owners, _, _ := unstructured.NestedSlice(content, "metadata", "ownerReferences")
	for _, o := range owners {
		if owner, _ := o.(map[string]any); owner != nil && owner["uid"] == string(h.GetUID()) {
			return content, true
		}
	}
	return nil, false
}

// Write makes report, as JSON, the target's report of hub object h, of
// gvr, in cluster, or removes it for nil. A StatusReport is created, or
// its spec replaced by a JSON patch without a resourceVersion: only this
// syncer writes it, so its last word is the right one.
func (r *Reports) Write(ctx context.Context, gvr schema.GroupVersionResource, cluster string, h *unstructured.Unstructured, report []byte) error {
	if h.GetNamespace() == "" {
		return r.clients.PatchReport(ctx, gvr, r.key, cluster, "", h.GetName(), report)
	}
	hub, err := r.clients.In(cluster)
	if err != nil {
		return err
	}
	reports := hub.Resource(StatusReports).Namespace(h.GetNamespace())
	name := workloadv1alpha1.StatusReportName(gvr.GroupResource().String(), h.GetName(), r.key)
	if report == nil {
		if err := reports.Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting the target's StatusReport %s: %w", name, err)
		}
		return nil
	}
	want, err := r.report(gvr.GroupResource(), h, report)
	if err != nil {
		return err
	}
	_, held := r.stored(cluster, gvr.GroupResource(), h)
	if !held {
		_, err = reports.Create(ctx, want, metav1.CreateOptions{FieldManager: FieldManager})
		if !apierrors.IsAlreadyExists(err) {
			return reportError(name, err)
		}
	}
	p, err := json.Marshal([]map[string]any{
		{"op": "replace", "path": "/metadata/ownerReferences", "value": want.Object["metadata"].(map[string]any)["ownerReferences"]},
		{"op": "replace", "path": "/spec", "value": want.Object["spec"]},
	})
	if err != nil {
		return err
	}
	_, err = reports.Patch(ctx, name, types.JSONPatchType, p, metav1.PatchOptions{FieldManager: FieldManager})
	if apierrors.IsNotFound(err) {
		// Deleted since the informer saw it.
		_, err = reports.Create(ctx, want, metav1.CreateOptions{FieldManager: FieldManager})
	}
	return reportError(name, err)
}

// report is the StatusReport of the target on hub object h, of gr,
// holding report: owned by h, so that the hub's garbage collector
// deletes it with h, and labelled with the target's key.
func (r *Reports) report(gr schema.GroupResource, h *unstructured.Unstructured, report []byte) (*unstructured.Unstructured, error) {
	// As the hub decodes it: whole numbers as int64.
	var status any
	if err := utiljson.Unmarshal(report, &status); err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": workloadv1alpha1.SchemeGroupVersion.String(),
		"kind":       "StatusReport",
		"metadata": map[string]any{
			"name":      workloadv1alpha1.StatusReportName(gr.String(), h.GetName(), r.key),
			"namespace": h.GetNamespace(),
			"labels":    map[string]any{workloadv1alpha1.ReportedByLabel: r.key},
			"ownerReferences": []any{map[string]any{
				"apiVersion": h.GetAPIVersion(), "kind": h.GetKind(), "name": h.GetName(), "uid": string(h.GetUID()),
			}},
		},
		"spec": map[string]any{"resource": gr.String(), "name": h.GetName(), "target": r.key, "status": status},
	}}, nil
}

// reportError is err, from writing StatusReport name, saying so; nil for
// none.
func reportError(name string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("writing the target's StatusReport %s at the hub: %w", name, err)
}
