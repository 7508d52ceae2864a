package syncerscope

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/podspec"
)

var (
	pods        = corev1.Resource("pods")
	events      = corev1.Resource("events")
	nodes       = corev1.Resource("nodes")
	syncTargets = workloadv1alpha1.Resource("synctargets")
	// statusReports are the syncers' reports of the status of objects at
	// their targets (pkg/statusreport).
	statusReports = workloadv1alpha1.Resource("statusreports")
	// selfReviews tell the requester who it is and what it may do.
	selfReviews = []schema.GroupResource{{Group: "authentication.k8s.io", Resource: "selfsubjectreviews"}, {Group: "authorization.k8s.io", Resource: "selfsubjectaccessreviews"}}
	// dependencies are the kinds a pod template refers to, which follow
	// a workload downstream.
	dependencies = func() []schema.GroupResource {
		var grs []schema.GroupResource
		for _, r := range podspec.ReferencedResources {
			grs = append(grs, corev1.Resource(r))
		}
		return grs
	}()
)

// Authorizer decides every request of a syncer as the package
// documentation says, and passes every other request to the authorizer it
// wraps.
type Authorizer struct {
	next    authorizer.Authorizer
	objects Objects
}

// New wraps next, reading the objects decisions depend on from objects.
func New(next authorizer.Authorizer, objects Objects) *Authorizer {
	return &Authorizer{next: next, objects: objects}
}

var _ authorizer.Authorizer = &Authorizer{}

func (a *Authorizer) Authorize(ctx context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	t, ok, err := targetOf(attrs.GetUser())
	if !ok {
		return a.next.Authorize(ctx, attrs)
	}
	if err != nil {
		return authorizer.DecisionDeny, err.Error(), nil
	}
	st, err := syncTarget(ctx, a.objects, t)
	if err != nil {
		return authorizer.DecisionNoOpinion, "", err
	}
	if reason := t.revoked(st); reason != "" {
		return authorizer.DecisionDeny, reason, nil
	}
	reason, err := a.deny(ctx, t, accepted(st), attrs)
	switch {
	case err != nil:
		return authorizer.DecisionNoOpinion, "", err
	case reason != "":
		return authorizer.DecisionDeny, fmt.Sprintf("the syncer of SyncTarget %s may not: %s", t, reason), nil
	}
	return authorizer.DecisionAllow, "", nil
}

func (a *Authorizer) ConditionsAwareAuthorize(ctx context.Context, attrs authorizer.Attributes) authorizer.ConditionsAwareDecision {
	if _, ok, _ := targetOf(attrs.GetUser()); !ok {
		return a.next.ConditionsAwareAuthorize(ctx, attrs)
	}
	return authorizer.ConditionsAwareDecisionFromParts(a.Authorize(ctx, attrs))
}

func (a *Authorizer) EvaluateConditions(ctx context.Context, decision authorizer.ConditionsAwareDecision, data authorizer.ConditionsData) (authorizer.Decision, string, error) {
	return a.next.EvaluateConditions(ctx, decision, data)
}

// discovery are the paths, or prefixes ending in "/", of the non-resource
// requests a syncer may get.
var discovery = []string{"/api", "/api/", "/apis", "/apis/", "/openapi/", "/version", "/healthz", "/livez", "/readyz"}

// deny is why t's syncer, whose SyncTarget accepts accepted, may not make
// the request of attrs; empty if it may. An error is one reading what the
// decision depends on.
func (a *Authorizer) deny(ctx context.Context, t target, accepted map[schema.GroupResource]bool, attrs authorizer.Attributes) (string, error) {
	verb := attrs.GetVerb()
	if !attrs.IsResourceRequest() {
		path := attrs.GetPath()
		if verb == "get" && slices.ContainsFunc(discovery, func(p string) bool {
			return path == p || strings.HasSuffix(p, "/") && strings.HasPrefix(path, p)
		}) {
			return "", nil
		}
		return fmt.Sprintf("%s %s, which is no discovery", verb, attrs.GetPath()), nil
	}
	gr := schema.GroupResource{Group: attrs.GetAPIGroup(), Resource: attrs.GetResource()}
	sub := attrs.GetSubresource()
	what := fmt.Sprintf("%s %s", verb, gr)
	if sub != "" {
		what += "/" + sub
	}
	if attrs.GetName() != "" {
		what += " " + attrs.GetName()
	}
	switch verb {
	case "list", "watch":
		return denyList(t, accepted, attrs, gr, what)
	case "get", "update", "patch", "delete", "create":
	default:
		return what + ": a syncer gets, lists, watches and writes single objects only", nil
	}
	if verb == "create" && slices.Contains(selfReviews, gr) {
		return "", nil
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return what + " across logical clusters: it only lists and watches there", nil
	}
	if gr == syncTargets {
		// tunnel is the subresource at which it opens its tunnel
		// (pkg/tunnel).
		if cluster == t.cluster && attrs.GetName() == t.name && (verb == "get" && (sub == "" || sub == "tunnel") || sub == "status" && verb != "delete" && verb != "create") {
			return "", nil
		}
		return what + ": it reads, reports the status of and opens the tunnel of its own SyncTarget only", nil
	}
	if sub != "" && sub != "status" {
		return what + ": of subresources it writes only status", nil
	}
	if verb == "create" {
		if copies(gr) && sub == "" {
			// Admission checks that what is created is labelled as its.
			return "", nil
		}
		return what + ": it creates only the pods, nodes and Events it copies up or reports, and its StatusReports", nil
	}
	obj, err := a.objects.Get(ctx, gr, attrs.GetNamespace(), attrs.GetName())
	if apierrors.IsNotFound(err) {
		return what + " in logical cluster " + string(cluster) + ": it is not assigned to the SyncTarget", nil
	}
	if err != nil {
		return "", err
	}
	if copies(gr) && t.copied(obj) {
		return "", nil
	}
	if accepted[gr] && (t.assigned(obj) || t.holds(obj)) {
		if verb != "delete" {
			// Of the object itself, admission narrows this to its
			// finalizer and its report of the status. An object it still
			// holds is its own until it releases it, when it clears what
			// it set on the status.
			return "", nil
		}
		return what + " in logical cluster " + string(cluster) + ": of the objects assigned to it, it writes only their status and its finalizer", nil
	}
	if verb == "get" && sub == "" && slices.Contains(dependencies, gr) {
		referenced, err := a.referenced(ctx, t, accepted, attrs.GetNamespace(), gr, attrs.GetName())
		if err != nil || referenced {
			return "", err
		}
	}
	return fmt.Sprintf("%s in logical cluster %s: it is not assigned to the SyncTarget (label %s=%s)", what, cluster,
		workloadv1alpha1.StateLabel(t.key), workloadv1alpha1.StateSync), nil
}

// copies tells whether the syncer writes the objects of gr that it
// labels as its own: the pods and nodes it copies up, the Events it
// copies up or reports, and its StatusReports.
func copies(gr schema.GroupResource) bool {
	return gr == pods || gr == events || gr == nodes || gr == statusReports
}

// copyLabel is the label, with the target's key as value, that a
// syncer's list or watch of gr, one of those it copies, must require.
func copyLabel(gr schema.GroupResource) string {
	if gr == statusReports {
		return workloadv1alpha1.ReportedByLabel
	}
	return workloadv1alpha1.UpsyncedLabel
}

// denyList is why t's syncer may not list or watch gr as attrs ask, in
// one logical cluster or across all.
func denyList(t target, accepted map[schema.GroupResource]bool, attrs authorizer.Attributes, gr schema.GroupResource, what string) (string, error) {
	if attrs.GetSubresource() != "" {
		return what + ": it lists and watches no subresource", nil
	}
	requirements, err := attrs.GetLabelSelector()
	if err != nil {
		return what + ": the label selector is invalid: " + err.Error(), nil
	}
	if copies(gr) && requires(requirements, copyLabel(gr), t.key) {
		return "", nil
	}
	if !accepted[gr] {
		return what + ": the SyncTarget does not accept " + gr.String(), nil
	}
	if requires(requirements, workloadv1alpha1.StateLabel(t.key), workloadv1alpha1.StateSync) {
		return "", nil
	}
	return fmt.Sprintf("%s without requiring the label %s=%s: it sees only the objects assigned to it", what,
		workloadv1alpha1.StateLabel(t.key), workloadv1alpha1.StateSync), nil
}

// requires tells whether requirements admit only objects whose label key
// is value.
func requires(requirements labels.Requirements, key, value string) bool {
	return slices.ContainsFunc(requirements, func(r labels.Requirement) bool {
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals, selection.In:
			return r.Key() == key && r.Values().Len() == 1 && r.Values().Has(value)
		}
		return false
	})
}

// accepted are the resources SyncTarget st accepts.
func accepted(st *workloadv1alpha1.SyncTarget) map[schema.GroupResource]bool {
	accepted := map[schema.GroupResource]bool{}
	for _, r := range st.Spec.Resources {
		accepted[schema.GroupResource{Group: r.Group, Resource: r.Resource}] = true
	}
	return accepted
}

// referenced tells whether the pod template of an object assigned to t,
// not being deleted, in namespace refers to dependency gr name.
func (a *Authorizer) referenced(ctx context.Context, t target, accepted map[schema.GroupResource]bool, namespace string, gr schema.GroupResource, name string) (bool, error) {
	selector := labels.SelectorFromSet(labels.Set{workloadv1alpha1.StateLabel(t.key): workloadv1alpha1.StateSync})
	want := podspec.Reference{Resource: gr.Resource, Name: name}
	for r := range accepted {
		if slices.Contains(dependencies, r) {
			continue
		}
		objs, err := a.objects.List(ctx, r, namespace, selector)
		if err != nil {
			return false, fmt.Errorf("listing %s assigned to SyncTarget %s: %w", r, t, err)
		}
		if slices.ContainsFunc(objs, func(o Object) bool {
			spec, ok := podspec.Of(o)
			return ok && o.GetDeletionTimestamp() == nil && slices.Contains(podspec.References(spec), want)
		}) {
			return true, nil
		}
	}
	return false, nil
}
