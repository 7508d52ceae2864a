package syncerscope

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Admission checks the objects a syncer writes, which its Authorizer
// cannot see: what it creates is labelled as its copy or report, in a
// namespace where its target has work, a pod as the pod of an object
// assigned to it; its copies stay labelled so, and of the objects
// assigned to it, it changes only its finalizer and its report of their
// status. It also stamps, on each status write of a SyncTarget, the issue
// time of the newest credential its syncer has used.
type Admission struct {
	*admission.Handler
	objects Objects
}

var (
	_ admission.ValidationInterface = &Admission{}
	_ admission.MutationInterface   = &Admission{}
)

// NewAdmission returns the plugin, reading the objects its decisions
// depend on from objects.
func NewAdmission(objects Objects) *Admission {
	return &Admission{Handler: admission.NewHandler(admission.Create, admission.Update), objects: objects}
}

// Admit sets status.credentialNotBefore of a SyncTarget whose status is
// written: the issue time of the credential of its syncer that writes it,
// if newer than what it held. Whatever the request says is ignored, so
// that only the hub moves it, and only forward.
func (p *Admission) Admit(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != syncTargets || a.GetSubresource() != "status" || a.GetOperation() != admission.Update {
		return nil
	}
	st, ok := a.GetObject().(*workloadv1alpha1.SyncTarget)
	old, oldOK := a.GetOldObject().(*workloadv1alpha1.SyncTarget)
	if !ok || !oldOK {
		return nil
	}
	st.Status.CredentialNotBefore = old.Status.CredentialNotBefore
	t, ok, err := targetOf(a.GetUserInfo())
	if !ok || err != nil || t.issued.IsZero() {
		return nil
	}
	if cluster, _ := logicalcluster.ClusterFrom(ctx); cluster == t.cluster && a.GetName() == t.name && t.issued.After(old.Status.CredentialNotBefore.Time) {
		st.Status.CredentialNotBefore = metav1.NewTime(t.issued)
	}
	return nil
}

func (p *Admission) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	t, ok, err := targetOf(a.GetUserInfo())
	if !ok {
		return nil
	}
	if err != nil {
		return admission.NewForbidden(a, err)
	}
	gr := a.GetResource().GroupResource()
	obj, err := meta.Accessor(a.GetObject())
	if err != nil {
		return admission.NewForbidden(a, err)
	}
	if copies(gr) {
		if !t.copied(obj) || gr != pods && gr != events && obj.GetLabels()[copyLabel(gr)] != t.key {
			return admission.NewForbidden(a, fmt.Errorf("the syncer of SyncTarget %s writes only the pods, nodes and Events labelled %s=%s, and Events and StatusReports labelled %s=%s",
				t, workloadv1alpha1.UpsyncedLabel, t.key, workloadv1alpha1.ReportedByLabel, t.key))
		}
		reason, err := p.denyCopy(ctx, t, gr, obj)
		if err != nil {
			return apierrors.NewInternalError(err)
		}
		if reason != "" {
			return admission.NewForbidden(a, errors.New(reason))
		}
		return nil
	}
	if a.GetOperation() != admission.Update || a.GetSubresource() != "" {
		// The Authorizer allowed no other create, and a status update
		// changes nothing but the status.
		return nil
	}
	old, err := meta.Accessor(a.GetOldObject())
	if err != nil {
		return admission.NewForbidden(a, err)
	}
	added := !t.holds(old) && t.holds(obj)
	if added && !t.assigned(old) {
		return admission.NewForbidden(a, fmt.Errorf("the syncer of SyncTarget %s may add its finalizer %s only to objects assigned to it", t, t.finalizer()))
	}
	changed, err := changedButOwn(a.GetOldObject(), a.GetObject(), t.key)
	if err != nil {
		return admission.NewForbidden(a, err)
	}
	if len(changed) > 0 {
		return admission.NewForbidden(a, fmt.Errorf("the syncer of SyncTarget %s may change, of an object assigned to it, only its status, its finalizer %s and its annotation %s, not %s",
			t, t.finalizer(), workloadv1alpha1.StatusAnnotation(t.key), strings.Join(changed, ", ")))
	}
	return nil
}

// denyCopy is why t's syncer may not write pod or Event obj, of gr, in the
// logical cluster of ctx; empty if it may. It writes a pod only as that of
// an object that its target runs, named by the pod's
// workloadv1alpha1.OwnerAnnotation, and an Event only in a namespace
// where its target runs something: elsewhere the logical cluster's own
// users would find objects they cannot change, written by a syncer with
// no business there.
func (p *Admission) denyCopy(ctx context.Context, t target, gr schema.GroupResource, obj metav1.Object) (string, error) {
	st, err := syncTarget(ctx, p.objects, t)
	if err != nil || st == nil {
		// The Authorizer has just found the SyncTarget; it is gone since.
		return t.revoked(st), err
	}
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	if gr == nodes {
		return p.denyNode(ctx, t, cluster, obj.GetName())
	}
	where := fmt.Sprintf("namespace %s of logical cluster %s", obj.GetNamespace(), cluster)
	accepted := accepted(st)
	if gr == statusReports {
		return p.denyReport(ctx, t, accepted, obj, where)
	}
	if gr == pods {
		owner := obj.GetAnnotations()[workloadv1alpha1.OwnerAnnotation]
		resource, name, ok := workloadv1alpha1.OwnerOf(owner)
		if !ok {
			return fmt.Sprintf("the syncer of SyncTarget %s writes only the pods of objects assigned to it, which its annotation %s names as <resource>.<group>/<name>, not %q",
				t, workloadv1alpha1.OwnerAnnotation, owner), nil
		}
		gr := schema.GroupResource{Group: resource.Group, Resource: resource.Resource}
		if accepted[gr] {
			o, err := p.objects.Get(ctx, gr, obj.GetNamespace(), name)
			if err != nil && !apierrors.IsNotFound(err) {
				return "", err
			}
			if err == nil && (t.assigned(o) || t.holds(o)) {
				return "", nil
			}
		}
		return fmt.Sprintf("the syncer of SyncTarget %s writes only the pods of objects assigned to it, and %s (annotation %s) in %s is not",
			t, owner, workloadv1alpha1.OwnerAnnotation, where), nil
	}
	working, err := p.works(ctx, t, accepted, obj.GetNamespace())
	if err != nil || working {
		return "", err
	}
	return fmt.Sprintf("the syncer of SyncTarget %s writes Events only where objects are assigned to it, and none is in %s", t, where), nil
}

// denyReport is why t's syncer may not write StatusReport obj; empty if
// it may. It reports only on an object assigned to its target or holding
// its finalizer, in the report's namespace, which owns the report alone:
// a report on anything else would tell the hub of a status no target
// has.
func (p *Admission) denyReport(ctx context.Context, t target, accepted map[schema.GroupResource]bool, obj metav1.Object, where string) (string, error) {
	report, ok := obj.(*workloadv1alpha1.StatusReport)
	if !ok {
		return fmt.Sprintf("the syncer of SyncTarget %s writes StatusReports only as workload.canopy.dev/v1alpha1 objects", t), nil
	}
	gr := schema.ParseGroupResource(report.Spec.Resource)
	if accepted[gr] {
		o, err := p.objects.Get(ctx, gr, obj.GetNamespace(), report.Spec.Name)
		if err != nil && !apierrors.IsNotFound(err) {
			return "", err
		}
		owners := obj.GetOwnerReferences()
		if err == nil && (t.assigned(o) || t.holds(o)) && len(owners) == 1 && owners[0].UID == o.GetUID() {
			return "", nil
		}
	}
	return fmt.Sprintf("the syncer of SyncTarget %s reports only on objects assigned to it, owned by the object alone, and %s %s in %s is not",
		t, gr, report.Spec.Name, where), nil
}

// denyNode is why t's syncer may not write node name in cluster; empty
// if it may. It writes only the nodes that the pods it copied up there
// run on, so that a logical cluster sees no node that runs none of its
// pods.
func (p *Admission) denyNode(ctx context.Context, t target, cluster logicalcluster.Name, name string) (string, error) {
	copied, err := p.objects.List(ctx, pods, "", labels.SelectorFromSet(labels.Set{workloadv1alpha1.UpsyncedLabel: t.key}))
	if err != nil {
		return "", fmt.Errorf("listing the pods copied up by the syncer of SyncTarget %s: %w", t, err)
	}
	if slices.ContainsFunc(copied, func(o Object) bool {
		pod, ok := o.(*corev1.Pod)
		return ok && pod.Spec.NodeName == name
	}) {
		return "", nil
	}
	return fmt.Sprintf("the syncer of SyncTarget %s writes only the nodes that the pods it copied up run on, and none of its pods in logical cluster %s runs on node %s",
		t, cluster, name), nil
}

// works tells whether an object of a resource in accepted is assigned to
// t, or held by its syncer, in namespace of the logical cluster of ctx.
// Those assigned are found by their label first, which is the usual case
// and reads only them.
func (p *Admission) works(ctx context.Context, t target, accepted map[schema.GroupResource]bool, namespace string) (bool, error) {
	for _, selector := range []labels.Selector{
		labels.SelectorFromSet(labels.Set{workloadv1alpha1.StateLabel(t.key): workloadv1alpha1.StateSync}),
		labels.Everything(),
	} {
		for gr := range accepted {
			objs, err := p.objects.List(ctx, gr, namespace, selector)
			if err != nil {
				return false, fmt.Errorf("listing %s in namespace %s: %w", gr, namespace, err)
			}
			if slices.ContainsFunc(objs, func(o Object) bool { return t.assigned(o) || t.holds(o) }) {
				return true, nil
			}
		}
	}
	return false, nil
}

// changedButOwn are the fields in which old and obj differ, but for the
// finalizer and status annotation of the syncer of key, and what the
// server sets on every write.
func changedButOwn(old, obj runtime.Object, key string) ([]string, error) {
	finalizer := workloadv1alpha1.FinalizerPrefix + key
	var maps [2]map[string]any
	for i, o := range []runtime.Object{old, obj} {
		u, err := toUnstructured(o.DeepCopyObject())
		if err != nil {
			return nil, err
		}
		others := slices.DeleteFunc(u.GetFinalizers(), func(f string) bool { return f == finalizer })
		if len(others) == 0 {
			others = nil
		}
		u.SetFinalizers(others)
		// Its report of the object's status at its target, where the
		// object is assigned to several (pkg/controller/statusaggregation).
		annotations := u.GetAnnotations()
		delete(annotations, workloadv1alpha1.StatusAnnotation(key))
		u.SetAnnotations(annotations)
		u.SetManagedFields(nil)
		u.SetResourceVersion("")
		// The request's path, not its body, says what the object is.
		delete(u.Object, "apiVersion")
		delete(u.Object, "kind")
		maps[i] = u.Object
	}
	return changed("", maps[0], maps[1]), nil
}

// changed are the paths of the fields that differ between a and b.
func changed(path string, a, b map[string]any) []string {
	var paths []string
	for k := range a {
		if _, ok := b[k]; !ok {
			paths = append(paths, path+"."+k)
		}
	}
	for k, bv := range b {
		av, ok := a[k]
		am, aIsMap := av.(map[string]any)
		bm, bIsMap := bv.(map[string]any)
		switch {
		case !ok:
			paths = append(paths, path+"."+k)
		case aIsMap && bIsMap:
			paths = append(paths, changed(path+"."+k, am, bm)...)
		case !equality.Semantic.DeepEqual(av, bv):
			paths = append(paths, path+"."+k)
		}
	}
	slices.Sort(paths)
	return paths
}

func toUnstructured(obj runtime.Object) (*unstructured.Unstructured, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: m}, nil
}
