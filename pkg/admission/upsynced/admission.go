package upsynced

import (
	"context"
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/loopback"
)

var (
	pods                = corev1.Resource("pods")
	nodes               = corev1.Resource("nodes")
	replicaSets         = appsv1.Resource("replicasets")
	controllerRevisions = appsv1.Resource("controllerrevisions")
	statusReports       = workloadv1alpha1.Resource("statusreports")
)

// Plugin refuses writes of upsynced pods by anyone but their syncer, of
// nodes by anyone but the syncer that copied them up, and of the hub's
// revision records by anyone but system:masters.
type Plugin struct {
	*admission.Handler
	// replicaSets reads the ReplicaSet a write of its scale is for, as
	// a Scale carries no labels.
	replicaSets rest.Getter
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin, which reads ReplicaSets from replicaSets.
func New(replicaSets rest.Getter) *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update, admission.Delete), replicaSets: replicaSets}
}

// Validate refuses a write of a pod, or of its status, that carries the
// upsynced label before or after it, unless the requester is the syncer
// of every target the label names or is in system:masters. A delete,
// one by one or of a collection, is validated by the registry with the
// pod being deleted as the old object.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if err := validateReports(a); err != nil {
		return err
	}
	if gr := a.GetResource().GroupResource(); gr == replicaSets || gr == controllerRevisions {
		return p.validateRecord(ctx, a)
	}
	if a.GetResource().GroupResource() == nodes {
		return validateNode(a)
	}
	if a.GetResource().GroupResource() == statusReports {
		return validateStatusReport(a)
	}
	if a.GetResource().GroupResource() != pods || (a.GetSubresource() != "" && a.GetSubresource() != "status") {
		return nil
	}
	keys := sets.New[string]()
	for _, obj := range []runtime.Object{a.GetOldObject(), a.GetObject()} {
		if key, ok := upsyncedKey(obj); ok {
			keys.Insert(key)
		}
	}
	if keys.Len() == 0 {
		return nil
	}
	u := a.GetUserInfo()
	if privileged(u) {
		return nil
	}
	for _, key := range sets.List(keys) {
		if u == nil || u.GetName() != workloadv1alpha1.SyncerUser(key) {
			return admission.NewForbidden(a, fmt.Errorf(
				"the pod is a read-only copy of a pod running in a physical cluster, managed by the syncer of target %s; change its workload instead", key))
		}
	}
	return nil
}

// privileged reports whether u may write what the hub keeps: system:masters
// may, and so may the hub's controllers, whose garbage collector deletes
// the revision records and pod copies whose owners are gone.
func privileged(u user.Info) bool {
	return u != nil && slices.Contains(u.GetGroups(), user.SystemPrivilegedGroup) || loopback.IsController(u)
}

// upsyncedKey is the value of obj's upsynced label, if it has one.
func upsyncedKey(obj runtime.Object) (string, bool) {
	if obj == nil {
		return "", false
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", false
	}
	key, ok := m.GetLabels()[workloadv1alpha1.UpsyncedLabel]
	return key, ok
}

// validateRecord refuses a write of a ReplicaSet or ControllerRevision,
// or of any of its subresources, that carries the revision record label
// before or after it, unless the requester is in system:masters: the hub
// keeps it as the record of a revision of a Deployment, StatefulSet or
// DaemonSet.
func (p *Plugin) validateRecord(ctx context.Context, a admission.Attributes) error {
	objs := []runtime.Object{a.GetOldObject(), a.GetObject()}
	if a.GetSubresource() == "scale" && a.GetOperation() == admission.Update {
		rs, err := p.replicaSets.Get(genericapirequest.WithNamespace(ctx, a.GetNamespace()), a.GetName(), &metav1.GetOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		objs = append(objs, rs)
	}
	recorded, kind, owner := false, "ReplicaSet", "Deployment"
	if a.GetResource().GroupResource() == controllerRevisions {
		kind, owner = "ControllerRevision", "StatefulSet or DaemonSet"
	}
	for _, obj := range objs {
		if m, err := meta.Accessor(obj); obj != nil && err == nil && m.GetLabels()[workloadv1alpha1.RevisionRecordLabel] != "" {
			recorded = true
			if ref := metav1.GetControllerOf(m); ref != nil && a.GetResource().GroupResource() == controllerRevisions {
				owner = ref.Kind
			}
		}
	}
	if !recorded || privileged(a.GetUserInfo()) {
		return nil
	}
	return admission.NewForbidden(a, fmt.Errorf(
		"the %s is the hub's read-only record of a revision of its %s; change the %s instead (kubectl rollout undo rolls it back to a revision)",
		kind, owner, owner))
}

// validateNode refuses every write of a node, or of its status, but its
// syncer's: a logical cluster's nodes are the physical nodes its pods run
// on, which the syncer of their SyncTarget copies up, labelled with its
// key, and keeps as they are downstream. The hub's controllers, and
// system:masters, may delete a copy, which its syncer makes again while
// the node still runs pods of the logical cluster.
func validateNode(a admission.Attributes) error {
	keys := sets.New[string]()
	for _, obj := range []runtime.Object{a.GetOldObject(), a.GetObject()} {
		if obj == nil {
			continue
		}
		key, _ := upsyncedKey(obj)
		keys.Insert(key)
	}
	u := a.GetUserInfo()
	if a.GetOperation() == admission.Delete && privileged(u) {
		return nil
	}
	if u != nil && keys.Len() == 1 && !keys.Has("") && u.GetName() == workloadv1alpha1.SyncerUser(sets.List(keys)[0]) {
		return nil
	}
	return admission.NewForbidden(a, fmt.Errorf(
		"the nodes of a logical cluster are read-only copies of the physical nodes its pods run on, kept by the syncers of their SyncTargets; "+
			"cordon or change a node in its physical cluster instead"))
}

// validateReports refuses a create or update, of any resource, that adds
// or changes the status annotation of a target
// (workloadv1alpha1.StatusAnnotation) unless the requester is that
// target's syncer or one of the hub's controllers. The annotation is the
// target's report of the object's status there, which placement's
// health gates and the aggregated status believe: written by anyone
// else, it would push a rollout past a wave that is not healthy. Not
// even system:masters may forge it, as it may not forge placement's
// record; removing one is allowed to all, as a replace from a manifest
// does, since the syncer then reports again.
func validateReports(a admission.Attributes) error {
	if a.GetOperation() == admission.Delete || a.GetSubresource() != "" && a.GetSubresource() != "status" {
		return nil
	}
	u := a.GetUserInfo()
	if loopback.IsController(u) {
		return nil
	}
	for _, key := range reportChanges(a.GetOldObject(), a.GetObject()) {
		if u == nil || u.GetName() != workloadv1alpha1.SyncerUser(key) {
			return admission.NewForbidden(a, fmt.Errorf(
				"annotation %s is the report of the syncer of the SyncTarget of key %s of the object's status there, which only that syncer writes; "+
					"leave it out of manifests copied from another object, or remove it and let the syncer report again",
				workloadv1alpha1.StatusAnnotation(key), key))
		}
	}
	return nil
}

// reportChanges are the keys of the targets whose status annotation obj
// adds to old's, nil on create, or gives another value, sorted.
func reportChanges(old, obj runtime.Object) []string {
	m, err := meta.Accessor(obj)
	if obj == nil || err != nil {
		return nil
	}
	var had map[string]string
	if o, err := meta.Accessor(old); old != nil && err == nil {
		had = o.GetAnnotations()
	}
	var keys []string
	for name, value := range m.GetAnnotations() {
		key, ok := strings.CutPrefix(name, workloadv1alpha1.StatusAnnotationPrefix)
		if was, kept := had[name]; ok && (!kept || was != value) {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// validateStatusReport refuses every write of a StatusReport but that of
// the syncer of the target its label workloadv1alpha1.ReportedByLabel
// names, before and after the write: the report is that target's word on
// the status of an object there, which placement's health gates believe.
// The hub's controllers may write it too, as its garbage collector
// deletes the reports of objects gone and the losttarget controller
// those of a lost target, and system:masters may delete one, which its
// syncer writes again.
func validateStatusReport(a admission.Attributes) error {
	u := a.GetUserInfo()
	if loopback.IsController(u) || a.GetOperation() == admission.Delete && privileged(u) {
		return nil
	}
	keys := sets.New[string]()
	for _, obj := range []runtime.Object{a.GetOldObject(), a.GetObject()} {
		if m, err := meta.Accessor(obj); obj != nil && err == nil {
			keys.Insert(m.GetLabels()[workloadv1alpha1.ReportedByLabel])
		}
	}
	if u != nil && keys.Len() == 1 && !keys.Has("") && u.GetName() == workloadv1alpha1.SyncerUser(sets.List(keys)[0]) {
		return nil
	}
	return admission.NewForbidden(a, fmt.Errorf(
		"a StatusReport is the report, by the syncer of the SyncTarget whose key its label %s names, of the status of an object at that target, which only that syncer writes; "+
			"read it, and change the object it reports on instead", workloadv1alpha1.ReportedByLabel))
}
