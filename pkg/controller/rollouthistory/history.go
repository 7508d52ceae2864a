package rollouthistory

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// RevisionAnnotation is the revision of a Deployment's template a
// ReplicaSet records, as kube's deployment controller writes it.
const RevisionAnnotation = "deployment.kubernetes.io/revision"

// annotationsToSkip are the Deployment's annotations a ReplicaSet does
// not copy, as in k8s.io/kubernetes@v1.37.1
// pkg/controller/deployment/util/deployment_util.go, which kubectl
// rollout undo does not copy back either.
var annotationsToSkip = map[string]bool{
	corev1.LastAppliedConfigAnnotation:          true,
	RevisionAnnotation:                          true,
	"deployment.kubernetes.io/revision-history": true,
	"deployment.kubernetes.io/desired-replicas": true,
	"deployment.kubernetes.io/max-replicas":     true,
	"deprecated.deployment.rollback.to":         true,
}

// defaultHistoryLimit is the revisionHistoryLimit of a Deployment that
// has none, as the registry defaults it.
const defaultHistoryLimit = 10

// Reconcile returns the hub ReplicaSets Deployment d should have, given
// those it owns (owned), and those of owned to delete. The ReplicaSet of
// d's template is the one of owned whose template equals it but for the
// pod-template-hash label, as kubectl finds it, or else a new one named
// d's name and hash; it has the highest revision and d's replicas, the
// others none. Only the one of d's template has no UID.
func Reconcile(d *appsv1.Deployment, owned []*appsv1.ReplicaSet, hash string) (want, stale []*appsv1.ReplicaSet) {
	var current *appsv1.ReplicaSet
	var old []*appsv1.ReplicaSet
	for _, rs := range owned {
		if current == nil && EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			current = rs.DeepCopy()
			continue
		}
		old = append(old, rs.DeepCopy())
	}
	slices.SortStableFunc(old, func(a, b *appsv1.ReplicaSet) int { return int(Revision(a) - Revision(b)) })
	next := int64(1)
	if len(old) > 0 {
		next = Revision(old[len(old)-1]) + 1
	}
	if current == nil {
		current = newReplicaSet(d, hash)
	}
	// A template that comes back, as after kubectl rollout undo, is the
	// newest revision again, as kube's controller numbers it.
	if Revision(current) < next {
		setAnnotation(current, RevisionAnnotation, strconv.FormatInt(next, 10))
	}
	current.Spec.Replicas = ptr.To(ptr.Deref(d.Spec.Replicas, 1))
	copyAnnotations(d, current)
	var previous *appsv1.ReplicaSet
	if len(old) > 0 {
		previous = old[len(old)-1]
	}
	splitStatus(d, current, previous)
	for _, rs := range old {
		rs.Spec.Replicas = ptr.To[int32](0)
		if rs != previous {
			rs.Status = appsv1.ReplicaSetStatus{ObservedGeneration: rs.Status.ObservedGeneration}
		}
		keepCanopyAnnotations(d, rs)
	}
	// The oldest revisions beyond d's revisionHistoryLimit go, once they
	// run nothing, as kube's controller cleans them up.
	limit := int(ptr.Deref(d.Spec.RevisionHistoryLimit, defaultHistoryLimit))
	for i, rs := range old {
		if len(old)-i > limit && rs.Status.Replicas == 0 {
			stale = append(stale, rs)
			continue
		}
		want = append(want, rs)
	}
	return append(want, current), stale
}

// newReplicaSet is the ReplicaSet of d's template, with hash as its
// pod-template-hash, owned by d as its controller.
func newReplicaSet(d *appsv1.Deployment, hash string) *appsv1.ReplicaSet {
	template := d.Spec.Template.DeepCopy()
	template.Labels = withLabel(template.Labels, appsv1.DefaultDeploymentUniqueLabelKey, hash)
	selector := d.Spec.Selector.DeepCopy()
	if selector == nil {
		selector = &metav1.LabelSelector{}
	}
	selector.MatchLabels = withLabel(selector.MatchLabels, appsv1.DefaultDeploymentUniqueLabelKey, hash)
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{
			Name:            d.Name + "-" + hash,
			Namespace:       d.Namespace,
			Labels:          withLabel(template.Labels, workloadv1alpha1.RevisionRecordLabel, "true"),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))},
		},
		Spec: appsv1.ReplicaSetSpec{
			Selector:        selector,
			Template:        *template,
			MinReadySeconds: d.Spec.MinReadySeconds,
		},
	}
}

func withLabel(l map[string]string, key, value string) map[string]string {
	out := maps.Clone(l)
	if out == nil {
		out = map[string]string{}
	}
	out[key] = value
	return out
}

// EqualIgnoreHash tells whether two pod templates are equal but for
// their pod-template-hash label, as kubectl and Helm compare a
// ReplicaSet's with its Deployment's (k8s.io/kubectl
// pkg/util/deployment).
func EqualIgnoreHash(a, b *corev1.PodTemplateSpec) bool {
	a, b = a.DeepCopy(), b.DeepCopy()
	delete(a.Labels, appsv1.DefaultDeploymentUniqueLabelKey)
	delete(b.Labels, appsv1.DefaultDeploymentUniqueLabelKey)
	if len(a.Labels) == 0 {
		a.Labels = nil
	}
	if len(b.Labels) == 0 {
		b.Labels = nil
	}
	return apiequality.Semantic.DeepEqual(a, b)
}

// Revision is rs's RevisionAnnotation, 0 without one.
func Revision(rs *appsv1.ReplicaSet) int64 {
	n, err := strconv.ParseInt(rs.Annotations[RevisionAnnotation], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func setAnnotation(rs *appsv1.ReplicaSet, key, value string) {
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	rs.Annotations[key] = value
}

// copyAnnotations copies d's annotations to the ReplicaSet of its
// template, as kube's controller does, so that kubectl rollout undo to
// it brings them back (a change-cause, say).
func copyAnnotations(d *appsv1.Deployment, rs *appsv1.ReplicaSet) {
	for k, v := range d.Annotations {
		if !annotationsToSkip[k] && !canopys(k) {
			setAnnotation(rs, k, v)
		}
	}
	keepCanopyAnnotations(d, rs)
}

// keepCanopyAnnotations gives rs the hub's own annotations of d as they
// are now, placement's record of where d runs, but for the status each
// target reports. kubectl rollout undo replaces the Deployment's
// annotations with those of the ReplicaSet it rolls back to: with them
// current on every revision, an undo leaves the hub's bookkeeping as it
// was. The status reports are left out because they change with every
// report, and each target's syncer writes its own again as the undo
// rolls out there.
func keepCanopyAnnotations(d *appsv1.Deployment, rs *appsv1.ReplicaSet) {
	for k := range rs.Annotations {
		if canopys(k) {
			delete(rs.Annotations, k)
		}
	}
	for k, v := range d.Annotations {
		if canopys(k) && !strings.HasPrefix(k, workloadv1alpha1.StatusAnnotationPrefix) {
			setAnnotation(rs, k, v)
		}
	}
}

// canopys tells whether annotation key is in a canopy.dev domain.
func canopys(key string) bool {
	domain, _, ok := strings.Cut(key, "/")
	return ok && (domain == "canopy.dev" || strings.HasSuffix(domain, ".canopy.dev"))
}

// splitStatus divides the replicas d's status counts between the
// ReplicaSet of its template (current) and that of the revision before
// (previous, nil if none). The hub has no pods of its own to count: d's
// status, which the syncers report and the hub sums over targets, says
// how many run the template it observed (updatedReplicas). Until the
// syncers observed d's latest generation, all run the revision before.
func splitStatus(d *appsv1.Deployment, current, previous *appsv1.ReplicaSet) {
	s := d.Status
	var updated int32
	if s.ObservedGeneration >= d.Generation {
		updated = s.UpdatedReplicas
	}
	ready, available := min(s.ReadyReplicas, updated), min(s.AvailableReplicas, updated)
	current.Status = appsv1.ReplicaSetStatus{
		Replicas: updated, FullyLabeledReplicas: updated, ReadyReplicas: ready, AvailableReplicas: available,
		ObservedGeneration: current.Status.ObservedGeneration,
	}
	if previous == nil {
		return
	}
	rest := max(s.Replicas-updated, 0)
	previous.Status = appsv1.ReplicaSetStatus{
		Replicas: rest, FullyLabeledReplicas: rest,
		ReadyReplicas:      min(max(s.ReadyReplicas-ready, 0), rest),
		AvailableReplicas:  min(max(s.AvailableReplicas-available, 0), rest),
		ObservedGeneration: previous.Status.ObservedGeneration,
	}
}
