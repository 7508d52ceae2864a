package authorization

import (
	"context"
	"fmt"
	"slices"

	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// RuleResolver lists the RBAC rules that apply to a user in a namespace
// of a logical cluster, with the errors met reading them, and those every
// logical cluster grants a user whatever its bindings say.
type RuleResolver interface {
	RulesFor(ctx context.Context, cluster logicalcluster.Name, u user.Info, namespace string) ([]rbacv1.PolicyRule, error)
	RulesForEveryone(u user.Info) []rbacv1.PolicyRule
}

// SelfSubjectRulesReviews lists what the requester may do in a namespace
// of the logical cluster the review is posted to: what kubectl auth can-i
// --list asks.
type SelfSubjectRulesReviews struct {
	rules RuleResolver
}

// NewSelfSubjectRulesReviews lists the rules resolver finds.
func NewSelfSubjectRulesReviews(resolver RuleResolver) *SelfSubjectRulesReviews {
	return &SelfSubjectRulesReviews{rules: resolver}
}

var (
	_ rest.Creater              = &SelfSubjectRulesReviews{}
	_ rest.Scoper               = &SelfSubjectRulesReviews{}
	_ rest.SingularNameProvider = &SelfSubjectRulesReviews{}
)

func (*SelfSubjectRulesReviews) New() runtime.Object {
	return &authorizationv1.SelfSubjectRulesReview{}
}
func (*SelfSubjectRulesReviews) Destroy()                {}
func (*SelfSubjectRulesReviews) NamespaceScoped() bool   { return false }
func (*SelfSubjectRulesReviews) GetSingularName() string { return "selfsubjectrulesreview" }

// privilegedRules are what kube's privileged-groups authorizer reports
// for system:masters, before the rules RBAC grants it.
var privilegedRules = []rbacv1.PolicyRule{
	{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}},
	{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}},
}

// Create answers as kube's selfsubjectrulesreview REST does
// (k8s.io/kubernetes@v1.37.1 pkg/registry/authorization/selfsubjectrulesreview/rest.go):
// a new review holding only the status.
func (r *SelfSubjectRulesReviews) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, _ *metav1.CreateOptions) (runtime.Object, error) {
	review, ok := obj.(*authorizationv1.SelfSubjectRulesReview)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("not a SelfSubjectRulesReview: %T", obj))
	}
	u, ok := genericapirequest.UserFrom(ctx)
	if !ok {
		return nil, apierrors.NewBadRequest("no user present on request")
	}
	namespace := review.Spec.Namespace
	if namespace == "" {
		return nil, apierrors.NewBadRequest("no namespace on request")
	}
	if createValidation != nil {
		if err := createValidation(ctx, obj.DeepCopyObject()); err != nil {
			return nil, err
		}
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return nil, apierrors.NewBadRequest("no logical cluster in the request")
	}
	var rules []rbacv1.PolicyRule
	if slices.Contains(u.GetGroups(), user.SystemPrivilegedGroup) {
		rules = append(rules, privilegedRules...)
	}
	// What everyone is granted comes first, and the bindings that grant
	// it add nothing: so a user without a role in the logical cluster is
	// answered the same whether it exists, and stores those bindings, or
	// not.
	rules = append(rules, r.rules.RulesForEveryone(u)...)
	granted, err := r.rules.RulesFor(ctx, cluster, u, namespace)
	for _, rule := range granted {
		if !slices.ContainsFunc(rules, func(have rbacv1.PolicyRule) bool { return equality.Semantic.DeepEqual(have, rule) }) {
			rules = append(rules, rule)
		}
	}
	out := &authorizationv1.SelfSubjectRulesReview{}
	for _, rule := range rules {
		if len(rule.NonResourceURLs) > 0 {
			out.Status.NonResourceRules = append(out.Status.NonResourceRules, authorizationv1.NonResourceRule{
				Verbs: rule.Verbs, NonResourceURLs: rule.NonResourceURLs,
			})
			continue
		}
		out.Status.ResourceRules = append(out.Status.ResourceRules, authorizationv1.ResourceRule{
			Verbs: rule.Verbs, APIGroups: rule.APIGroups, Resources: rule.Resources, ResourceNames: rule.ResourceNames,
		})
	}
	if err != nil {
		// Some bindings or roles could not be read: what is listed is
		// true, but not all.
		out.Status.Incomplete = true
		out.Status.EvaluationError = err.Error()
	}
	return out, nil
}
