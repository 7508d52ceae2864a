package customresource

import (
	"fmt"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestGroupsOf(t *testing.T) {
	established := apiextensions.CustomResourceDefinitionCondition{Type: apiextensions.Established, Status: apiextensions.ConditionTrue}
	widgets := *widgets("1", "integer")
	widgets.Spec.Versions = []apiextensions.CustomResourceDefinitionVersion{
		{Name: "v1beta1", Served: true}, {Name: "v1", Served: true, Storage: true}, {Name: "v2alpha1", Served: false},
	}
	widgets.Spec.Subresources = &apiextensions.CustomResourceSubresources{
		Status: &apiextensions.CustomResourceSubresourceStatus{},
		Scale:  &apiextensions.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"},
	}
	widgets.Status.Conditions = []apiextensions.CustomResourceDefinitionCondition{established}
	gadgets := *widgets.DeepCopy()
	gadgets.Spec.Subresources = nil
	gadgets.Status.AcceptedNames = apiextensions.CustomResourceDefinitionNames{Plural: "gadgets", Singular: "gadget", Kind: "Gadget", ListKind: "GadgetList"}
	gadgets.DeletionTimestamp = &metav1.Time{}
	other := *gadgets.DeepCopy()
	other.Spec.Group = "other.io"
	other.Status.Conditions = nil

	groups := groupsOf([]apiextensions.CustomResourceDefinition{widgets, gadgets, other})
	if len(groups) != 1 {
		t.Fatalf("%d groups, want example.com's alone: other.io's definition is not established", len(groups))
	}
	g := groups[0]
	if got := fmt.Sprintf("%v %s", g.group.Versions, g.group.PreferredVersion.Version); got != "[{example.com/v1 v1} {example.com/v1beta1 v1beta1}] v1" {
		t.Errorf("versions %s", got)
	}
	var names []string
	for _, r := range g.resources["v1"] {
		names = append(names, fmt.Sprintf("%s%v", r.Name, r.Verbs))
	}
	if got := fmt.Sprint(names); got != "[widgets[delete deletecollection get list patch create update watch] widgets/status[get patch update] widgets/scale[get patch update] "+
		"gadgets[delete deletecollection get list watch]]" {
		t.Errorf("resources at v1: %s", got)
	}
	if len(g.aggregated.Versions) != 2 || g.aggregated.Versions[0].Version != "v1" {
		t.Fatalf("aggregated versions %+v", g.aggregated.Versions)
	}
	resources := g.aggregated.Versions[0].Resources
	if len(resources) != 2 || resources[0].Resource != "gadgets" || resources[1].Resource != "widgets" || len(resources[1].Subresources) != 2 ||
		resources[1].Subresources[1].ResponseKind.Kind != "Scale" || g.resources["v1"][0].StorageVersionHash == "" {
		t.Errorf("aggregated resources at v1: %+v", resources)
	}
}
