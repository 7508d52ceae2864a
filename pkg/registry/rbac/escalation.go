package rbac

import (
	"context"
	"fmt"
	"slices"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	rbacvalidation "k8s.io/component-helpers/auth/rbac/validation"

	rbacauthz "github.com/canopy-dev/canopy/pkg/authorization/rbac"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// guarded is a store whose creates and updates first pass check, which
// refuses writes that would grant more than the requester has.
type guarded struct {
	*genericregistry.Store
	check check
}

// check returns nil if the request in ctx may write obj, replacing old
// (nil on create). Writes that change no grant need no check.
type check func(ctx context.Context, obj, old runtime.Object) error

func (g *guarded) Create(ctx context.Context, obj runtime.Object, createValidation rest.ValidateObjectFunc, options *metav1.CreateOptions) (runtime.Object, error) {
	if err := g.check(ctx, obj, nil); err != nil {
		return nil, err
	}
	return g.Store.Create(ctx, obj, createValidation, options)
}

// Update checks the object the update produces, whether from a replace, a
// patch or an apply, before it is stored.
func (g *guarded) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc,
	updateValidation rest.ValidateObjectUpdateFunc, forceAllowCreate bool, options *metav1.UpdateOptions,
) (runtime.Object, bool, error) {
	checked := rest.WrapUpdatedObjectInfo(registry.ClientUpdate(objInfo), func(ctx context.Context, obj, old runtime.Object) (runtime.Object, error) {
		return obj, g.check(ctx, obj, old)
	})
	return g.Store.Update(ctx, name, checked, createValidation, updateValidation, forceAllowCreate, options)
}

// requester returns the user and logical cluster of a request.
func requester(ctx context.Context) (user.Info, logicalcluster.Name, error) {
	u, ok := genericapirequest.UserFrom(ctx)
	if !ok {
		return nil, "", apierrors.NewInternalError(fmt.Errorf("no user in the request"))
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return nil, "", apierrors.NewInternalError(fmt.Errorf("no logical cluster in the request"))
	}
	return u, cluster, nil
}

// privileged is system:masters, which Kubernetes lets escalate without
// asking the authorizer, as it is allowed everything anyway.
func privileged(u user.Info) bool {
	return slices.Contains(u.GetGroups(), user.SystemPrivilegedGroup)
}

// roleCheck refuses a Role or ClusterRole with rules the requester does
// not hold where it applies (the role's namespace, or the whole logical
// cluster), unless the requester may "escalate" roles.
func roleCheck(a *rbacauthz.Authorizer) check {
	return func(ctx context.Context, obj, old runtime.Object) error {
		rules, namespace := roleRules(obj)
		if old != nil {
			if oldRules, _ := roleRules(old); equality.Semantic.DeepEqual(rules, oldRules) {
				return nil
			}
		}
		u, cluster, err := requester(ctx)
		if err != nil {
			return err
		}
		if privileged(u) || allowed(ctx, a, u, "escalate", resourceOf(obj), namespace, nameOf(obj)) {
			return nil
		}
		// An aggregated role takes in the rules of roles made later, by
		// anyone, so only who holds every permission may make one.
		if r, ok := obj.(*rbacv1.ClusterRole); ok && r.AggregationRule != nil {
			if err := confirmNoEscalation(ctx, a, u, cluster, namespace, clusterAdminRules); err != nil {
				return apierrors.NewForbidden(rbacv1.Resource("clusterroles"), r.Name,
					fmt.Errorf("must have cluster-admin privileges to use the aggregationRule"))
			}
		}
		return confirmNoEscalation(ctx, a, u, cluster, namespace, rules)
	}
}

// bindingCheck refuses a RoleBinding or ClusterRoleBinding of a role whose
// rules the requester does not hold where the binding applies, unless the
// requester may "bind" that role.
func bindingCheck(a *rbacauthz.Authorizer) check {
	return func(ctx context.Context, obj, old runtime.Object) error {
		ref, subjects, namespace := bindingOf(obj)
		if old != nil {
			if oldRef, oldSubjects, _ := bindingOf(old); ref == oldRef && equality.Semantic.DeepEqual(subjects, oldSubjects) {
				return nil
			}
		}
		u, cluster, err := requester(ctx)
		if err != nil {
			return err
		}
		roleResource := "clusterroles"
		if ref.Kind == "Role" {
			roleResource = "roles"
		}
		if privileged(u) || allowed(ctx, a, u, "bind", roleResource, namespace, ref.Name) {
			return nil
		}
		// A role that does not exist yet cannot be bound: whoever creates
		// it later would grant its rules to these subjects unchecked.
		rules, err := a.RoleRefRules(ctx, cluster, ref, namespace)
		if err != nil {
			return apierrors.NewForbidden(rbacv1.Resource(resourceOf(obj)), nameOf(obj), err)
		}
		return confirmNoEscalation(ctx, a, u, cluster, namespace, rules)
	}
}

// allowed asks a whether u may verb the RBAC resource, as Kubernetes does
// for "escalate" and "bind".
func allowed(ctx context.Context, a authorizer.Authorizer, u user.Info, verb, resource, namespace, name string) bool {
	d, _, err := a.Authorize(ctx, authorizer.AttributesRecord{
		User: u, Verb: verb, APIGroup: rbacv1.GroupName, APIVersion: "*",
		Resource: resource, Namespace: namespace, Name: name, ResourceRequest: true,
	})
	return err == nil && d == authorizer.DecisionAllow
}

// confirmNoEscalation returns a Forbidden error unless the rules u holds in
// namespace of cluster cover rules.
func confirmNoEscalation(ctx context.Context, a *rbacauthz.Authorizer, u user.Info, cluster logicalcluster.Name, namespace string, rules []rbacv1.PolicyRule) error {
	owned, resolveErr := a.RulesFor(ctx, cluster, u, namespace)
	covered, missing := rbacvalidation.Covers(owned, rules)
	if covered {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "user %q (groups=%q) is attempting to grant RBAC permissions not currently held in logical cluster %s:", u.GetName(), u.GetGroups(), cluster)
	for _, r := range missing {
		fmt.Fprintf(&b, "\n%s", describeRule(r))
	}
	if resolveErr != nil {
		fmt.Fprintf(&b, "\n; resolving the requester's rules failed, so it may hold more: %v", resolveErr)
	}
	return apierrors.NewForbidden(rbacv1.Resource("rules"), "", fmt.Errorf("%s", b.String()))
}

func describeRule(r rbacv1.PolicyRule) string {
	var parts []string
	add := func(name string, v []string) {
		if len(v) > 0 {
			parts = append(parts, fmt.Sprintf("%s:%q", name, v))
		}
	}
	add("APIGroups", r.APIGroups)
	add("Resources", r.Resources)
	add("ResourceNames", r.ResourceNames)
	add("NonResourceURLs", r.NonResourceURLs)
	add("Verbs", r.Verbs)
	return "{" + strings.Join(parts, ", ") + "}"
}

func roleRules(obj runtime.Object) ([]rbacv1.PolicyRule, string) {
	switch o := obj.(type) {
	case *rbacv1.Role:
		return o.Rules, o.Namespace
	case *rbacv1.ClusterRole:
		return o.Rules, ""
	}
	panic(fmt.Sprintf("not a role: %T", obj))
}

func bindingOf(obj runtime.Object) (rbacv1.RoleRef, []rbacv1.Subject, string) {
	switch o := obj.(type) {
	case *rbacv1.RoleBinding:
		return o.RoleRef, o.Subjects, o.Namespace
	case *rbacv1.ClusterRoleBinding:
		return o.RoleRef, o.Subjects, ""
	}
	panic(fmt.Sprintf("not a binding: %T", obj))
}

func resourceOf(obj runtime.Object) string {
	switch obj.(type) {
	case *rbacv1.Role:
		return "roles"
	case *rbacv1.ClusterRole:
		return "clusterroles"
	case *rbacv1.RoleBinding:
		return "rolebindings"
	}
	return "clusterrolebindings"
}

func nameOf(obj runtime.Object) string {
	m, _ := obj.(metav1.Object)
	return m.GetName()
}
