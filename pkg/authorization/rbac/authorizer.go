package rbac

import (
	"context"
	"errors"
	"fmt"
	"slices"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Source reads the RBAC objects of one logical cluster. A missing role is
// (nil, nil).
type Source interface {
	ClusterRoleBindings(ctx context.Context, cluster logicalcluster.Name) ([]*rbacv1.ClusterRoleBinding, error)
	RoleBindings(ctx context.Context, cluster logicalcluster.Name, namespace string) ([]*rbacv1.RoleBinding, error)
	ClusterRole(ctx context.Context, cluster logicalcluster.Name, name string) (*rbacv1.ClusterRole, error)
	Role(ctx context.Context, cluster logicalcluster.Name, namespace, name string) (*rbacv1.Role, error)
}

// Authorizer allows what the RBAC objects of the request's logical
// cluster grant the requester, and has no opinion on anything else, so
// that other authorizers in a union still decide.
type Authorizer struct {
	source Source
}

// New returns an Authorizer reading RBAC objects from source.
func New(source Source) *Authorizer { return &Authorizer{source: source} }

var _ authorizer.Authorizer = &Authorizer{}

// errAllowed stops the walk over the bindings at the first rule that
// allows the request.
var errAllowed = errors.New("allowed")

func (a *Authorizer) Authorize(ctx context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return authorizer.DecisionNoOpinion, "", fmt.Errorf("no logical cluster in the request")
	}
	u := attrs.GetUser()
	if u == nil {
		return authorizer.DecisionNoOpinion, "", nil
	}
	if reason := allowedToEveryone(attrs); reason != "" {
		return authorizer.DecisionAllow, reason, nil
	}
	var reason string
	err := a.visitRules(ctx, cluster, u, attrs.GetNamespace(), func(source string, rule *rbacv1.PolicyRule) error {
		if RuleAllows(attrs, rule) {
			reason = "RBAC: allowed by " + source
			return errAllowed
		}
		return nil
	})
	if errors.Is(err, errAllowed) {
		return authorizer.DecisionAllow, reason, nil
	}
	if err == nil {
		// Asking the wrong logical cluster is a usual mistake, and its
		// refusal should say so.
		member, err := a.IsMember(ctx, cluster, u)
		if err == nil && !member {
			reason = fmt.Sprintf("%q has no role in logical cluster %s: an admin there grants one with a RoleBinding or ClusterRoleBinding", u.GetName(), cluster)
		}
	}
	// Errors reading some bindings make no denial: a rule read fine may
	// still allow, and an authorizer after this one may too.
	return authorizer.DecisionNoOpinion, reason, err
}

// IsMember reports whether u is one of cluster's users: in system:masters,
// a ServiceAccount, which authenticates only in its own logical cluster,
// or named, by name or group, by a binding of cluster in any namespace
// other than the ones every logical cluster has for everyone. A hub
// credential is valid in every logical cluster; what one holds beyond the
// hub's own APIs, such as its custom resources' definitions, it shows
// only to its members.
func (a *Authorizer) IsMember(ctx context.Context, cluster logicalcluster.Name, u user.Info) (bool, error) {
	if slices.Contains(u.GetGroups(), user.SystemPrivilegedGroup) {
		return true, nil
	}
	if _, _, err := serviceaccount.SplitUsername(u.GetName()); err == nil {
		return true, nil
	}
	crbs, err := a.source.ClusterRoleBindings(ctx, cluster)
	if err != nil {
		return false, err
	}
	for _, b := range crbs {
		if _, ok := appliesTo(u, b.Subjects, ""); ok && !forEveryone(b.Name) {
			return true, nil
		}
	}
	rbs, err := a.source.RoleBindings(ctx, cluster, metav1.NamespaceAll)
	if err != nil {
		return false, err
	}
	for _, b := range rbs {
		if _, ok := appliesTo(u, b.Subjects, b.Namespace); ok {
			return true, nil
		}
	}
	return false, nil
}

// ConditionsAwareAuthorize: RBAC has no conditions, so this is Authorize.
func (a *Authorizer) ConditionsAwareAuthorize(ctx context.Context, attrs authorizer.Attributes) authorizer.ConditionsAwareDecision {
	return authorizer.ConditionsAwareDecisionFromParts(a.Authorize(ctx, attrs))
}

// EvaluateConditions fails closed, as the interface asks of authorizers
// without conditions.
func (a *Authorizer) EvaluateConditions(context.Context, authorizer.ConditionsAwareDecision, authorizer.ConditionsData) (authorizer.Decision, string, error) {
	return authorizer.DecisionDeny, "", authorizer.ErrorConditionEvaluationNotSupported
}

// RulesFor returns every rule that applies to u in namespace of cluster
// (cluster-wide rules only when namespace is empty), with the errors met
// reading them. Escalation checks compare a role's rules with these.
func (a *Authorizer) RulesFor(ctx context.Context, cluster logicalcluster.Name, u user.Info, namespace string) ([]rbacv1.PolicyRule, error) {
	var rules []rbacv1.PolicyRule
	err := a.visitRules(ctx, cluster, u, namespace, func(_ string, rule *rbacv1.PolicyRule) error {
		rules = append(rules, *rule)
		return nil
	})
	return rules, err
}

// RoleRefRules returns the rules of the role a binding in namespace
// (empty for a ClusterRoleBinding) refers to, or a NotFound error if that
// role does not exist.
func (a *Authorizer) RoleRefRules(ctx context.Context, cluster logicalcluster.Name, ref rbacv1.RoleRef, namespace string) ([]rbacv1.PolicyRule, error) {
	switch ref.Kind {
	case "ClusterRole":
		r, err := a.source.ClusterRole(ctx, cluster, ref.Name)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, apierrors.NewNotFound(rbacv1.Resource("clusterroles"), ref.Name)
		}
		return r.Rules, nil
	case "Role":
		r, err := a.source.Role(ctx, cluster, namespace, ref.Name)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, apierrors.NewNotFound(rbacv1.Resource("roles"), ref.Name)
		}
		return r.Rules, nil
	}
	return nil, fmt.Errorf("unknown role kind %q", ref.Kind)
}

// visitRules calls visit with each rule bound to u in cluster: those of
// its ClusterRoleBindings, then those of the RoleBindings of namespace.
// It stops at the first error visit returns, and otherwise carries on past
// errors reading objects, returning them all at the end.
func (a *Authorizer) visitRules(ctx context.Context, cluster logicalcluster.Name, u user.Info, namespace string,
	visit func(source string, rule *rbacv1.PolicyRule) error,
) error {
	var errs []error
	each := func(source string, rules []rbacv1.PolicyRule) error {
		for i := range rules {
			if err := visit(source, &rules[i]); err != nil {
				return err
			}
		}
		return nil
	}

	crbs, err := a.source.ClusterRoleBindings(ctx, cluster)
	if err != nil {
		errs = append(errs, err)
	}
	for _, b := range crbs {
		i, ok := appliesTo(u, b.Subjects, "")
		if !ok {
			continue
		}
		rules, err := a.RoleRefRules(ctx, cluster, b.RoleRef, "")
		if err != nil {
			errs = appendUnlessNotFound(errs, err)
			continue
		}
		source := describeClusterRoleBinding(b, i)
		if err := each(source, rules); err != nil {
			return err
		}
	}

	if namespace != "" {
		rbs, err := a.source.RoleBindings(ctx, cluster, namespace)
		if err != nil {
			errs = append(errs, err)
		}
		for _, b := range rbs {
			i, ok := appliesTo(u, b.Subjects, namespace)
			if !ok {
				continue
			}
			rules, err := a.RoleRefRules(ctx, cluster, b.RoleRef, namespace)
			if err != nil {
				errs = appendUnlessNotFound(errs, err)
				continue
			}
			source := describeRoleBinding(b, i)
			if err := each(source, rules); err != nil {
				return err
			}
		}
	}
	return utilerrors.NewAggregate(errs)
}

// describeClusterRoleBinding and describeRoleBinding name a binding and
// the subject i of it that applies, in the words of Kubernetes' RBAC
// authorizer (k8s.io/kubernetes@v1.37.1 pkg/registry/rbac/validation),
// so that a SubjectAccessReview's reason reads as kube-apiserver's: the
// logical cluster is the one the review was posted to.
func describeClusterRoleBinding(b *rbacv1.ClusterRoleBinding, i int) string {
	return fmt.Sprintf("ClusterRoleBinding %q of %s %q to %s", b.Name, b.RoleRef.Kind, b.RoleRef.Name, describeSubject(&b.Subjects[i], ""))
}

func describeRoleBinding(b *rbacv1.RoleBinding, i int) string {
	return fmt.Sprintf("RoleBinding %q of %s %q to %s", b.Name+"/"+b.Namespace, b.RoleRef.Kind, b.RoleRef.Name, describeSubject(&b.Subjects[i], b.Namespace))
}

// describeSubject names a ServiceAccount with its namespace, the
// binding's when the subject names none.
func describeSubject(s *rbacv1.Subject, bindingNamespace string) string {
	if s.Kind != rbacv1.ServiceAccountKind {
		return fmt.Sprintf("%s %q", s.Kind, s.Name)
	}
	ns := s.Namespace
	if ns == "" {
		ns = bindingNamespace
	}
	return fmt.Sprintf("%s %q", s.Kind, s.Name+"/"+ns)
}

// appendUnlessNotFound drops a missing role's error: a binding may name a
// role before it exists or after it is gone, and then grants nothing.
func appendUnlessNotFound(errs []error, err error) []error {
	if apierrors.IsNotFound(err) {
		return errs
	}
	return append(errs, err)
}
