package tenancy

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// newClusterQuotas builds the store of ClusterQuotas. Its status is the
// hub's account of the lease, written only by the clusterquota admission
// plugin straight to the store, so no status subresource is served: no
// client, not even the parent's admin, can rewrite what a lease has used.
func newClusterQuotas(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	kind := registry.Kind[*tenancyv1alpha1.ClusterQuota]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator,
		APIVersion: tenancyv1alpha1.SchemeGroupVersion.String(), ClusterScoped: true,
		// The name is the child's, the last segment of a logical cluster path.
		ValidName: apivalidation.ValidateNamespaceName,
		Check:     validateClusterQuota,
		// The account starts at nothing used; status.hard follows the
		// spec, so that it says what the account is checked against.
		OnCreate: func(q *tenancyv1alpha1.ClusterQuota) { q.Status.Hard = q.Spec.Hard },
		OnUpdate: func(q, _ *tenancyv1alpha1.ClusterQuota) { q.Status.Hard = q.Spec.Hard },
	}
	return f.Build(tenancyv1alpha1.SchemeGroupVersion, registry.Resource{
		Singular: "clusterquota", Plural: "clusterquotas", ShortNames: []string{"cq"},
		New:      func() runtime.Object { return &tenancyv1alpha1.ClusterQuota{} },
		NewList:  func() runtime.Object { return &tenancyv1alpha1.ClusterQuotaList{} },
		Strategy: kind,
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Hard", "string", "The capacity leased to the child's subtree"),
				registry.Column("Leased Out", "string", "What the child gave its own children out of it"),
				registry.Column("Used", "string", "What the subtree uses outside those leases"),
			},
			Cells: func(o runtime.Object) []any {
				q := o.(*tenancyv1alpha1.ClusterQuota)
				return []any{resourcesCell(q.Spec.Hard), resourcesCell(q.Status.LeasedOut), resourcesCell(q.Status.Used)}
			},
		},
	})
}

// resourcesCell prints l as kubectl describe quota would list it, sorted:
// "limits.cpu=2,requests.cpu=1".
func resourcesCell(l corev1.ResourceList) string {
	parts := make([]string, 0, len(l))
	for name, q := range l {
		parts = append(parts, fmt.Sprintf("%s=%s", name, q.String()))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// validateClusterQuota checks that every hard limit is a resource a lease
// can count, with a quantity that is not negative.
func validateClusterQuota(q *tenancyv1alpha1.ClusterQuota) field.ErrorList {
	var errs field.ErrorList
	hard := field.NewPath("spec", "hard")
	for name, quantity := range q.Spec.Hard {
		p := hard.Key(string(name))
		if !tenancyv1alpha1.LeasableResource(name) {
			errs = append(errs, field.NotSupported(p, name, tenancyv1alpha1.LeasableResourceNames()))
		}
		if quantity.Sign() < 0 {
			errs = append(errs, field.Invalid(p, quantity.String(), "must be greater than or equal to 0"))
		}
	}
	return errs
}
