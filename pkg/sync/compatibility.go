package sync

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/heartbeat"
)

// compatibleSuffix follows "<resource>.<group>/" in the type of the
// condition telling whether the physical cluster can take a resource the
// target accepts.
const compatibleSuffix = heartbeat.CompatibleSuffix

// CompatibleCondition is the type of the SyncTarget condition telling
// whether the physical cluster can take resource r.
func CompatibleCondition(r workloadv1alpha1.GroupResource) string {
	return r.String() + compatibleSuffix
}

// compatibility maps each resource the target accepts to the version the
// hub serves it at, and tells whether the physical cluster serves that
// version too, with the same scope: the resources that are, and one
// condition per accepted resource saying which are not and why. A
// resource the physical cluster cannot take is not synced, rather than
// stopping the syncer, and its condition tells the platform team.
func compatibility(hub, down meta.RESTMapper, accepted []workloadv1alpha1.GroupResource) ([]*meta.RESTMapping, []metav1.Condition, error) {
	var usable []*meta.RESTMapping
	var conditions []metav1.Condition
	for _, gr := range accepted {
		mapping, err := namespacedMapping(hub, gr)
		if err != nil {
			return nil, nil, fmt.Errorf("the hub: %w", err)
		}
		condition := metav1.Condition{Type: CompatibleCondition(gr), Status: metav1.ConditionTrue, Reason: "Served",
			Message: fmt.Sprintf("The physical cluster serves %s at %s, as the hub does", gr, mapping.GroupVersionKind.GroupVersion())}
		downMapping, err := down.RESTMapping(mapping.GroupVersionKind.GroupKind(), mapping.GroupVersionKind.Version)
		switch {
		case err != nil:
			condition.Status, condition.Reason = metav1.ConditionFalse, "NotServed"
			condition.Message = fmt.Sprintf("The physical cluster does not serve %s at %s, the version the hub serves; objects of it assigned to the target are not synced",
				gr, mapping.GroupVersionKind.GroupVersion())
		case downMapping.Scope.Name() != meta.RESTScopeNameNamespace:
			condition.Status, condition.Reason = metav1.ConditionFalse, "ClusterScoped"
			condition.Message = fmt.Sprintf("The physical cluster serves %s cluster-scoped; objects of it assigned to the target are not synced", gr)
		default:
			usable = append(usable, mapping)
		}
		conditions = append(conditions, condition)
	}
	return usable, conditions, nil
}

// namespacedMapping is the mapping of gr in mapper, which must be
// namespaced.
func namespacedMapping(mapper meta.RESTMapper, gr workloadv1alpha1.GroupResource) (*meta.RESTMapping, error) {
	gvk, err := mapper.KindFor(schema.GroupVersionResource{Group: gr.Group, Resource: gr.Resource})
	if err != nil {
		return nil, fmt.Errorf("%s is not served: %w", gr, err)
	}
	mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, err
	}
	if mapping.Scope.Name() != meta.RESTScopeNameNamespace {
		return nil, fmt.Errorf("%s is cluster-scoped; only namespaced resources can be synced", gr)
	}
	return mapping, nil
}
