package admissionpolicy

import (
	"context"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/utils/ptr"

	generatedopenapi "github.com/canopy-dev/canopy/pkg/generated/openapi"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry/core"
)

// ownerLabel labels the ConfigMaps created with owner, by a patch of
// patchType.
func ownerLabel(owner string, patchType admissionregistrationv1.PatchType) *mutatingPolicy {
	m := admissionregistrationv1.Mutation{PatchType: patchType}
	if patchType == admissionregistrationv1.PatchTypeJSONPatch {
		m.JSONPatch = &admissionregistrationv1.JSONPatch{Expression: "[JSONPatch{op: 'add', path: '/metadata/labels', value: {'owner': '" + owner + "'}}]"}
	} else {
		m.ApplyConfiguration = &admissionregistrationv1.ApplyConfiguration{Expression: "Object{metadata: Object.metadata{labels: {'owner': '" + owner + "'}}}"}
	}
	return &mutatingPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "owner"},
		Spec: admissionregistrationv1.MutatingAdmissionPolicySpec{
			FailurePolicy:      ptr.To(admissionregistrationv1.Fail),
			ReinvocationPolicy: admissionregistrationv1.NeverReinvocationPolicy,
			MatchConstraints: &admissionregistrationv1.MatchResources{
				MatchPolicy:       ptr.To(admissionregistrationv1.Equivalent),
				NamespaceSelector: &metav1.LabelSelector{},
				ObjectSelector:    &metav1.LabelSelector{},
				ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{RuleWithOperations: admissionregistrationv1.RuleWithOperations{
					Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
					Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}, Scope: ptr.To(admissionregistrationv1.AllScopes)},
				}}},
			},
			Mutations: []admissionregistrationv1.Mutation{m},
		},
	}
}

func TestMutatingPolicies(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := core.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	p, err := New(Config{
		Namespaces: namespaceStore{
			"root:a":        {"kube-system": namespace("kube-system", nil)},
			"root:org:team": {"kube-system": namespace("kube-system", nil)},
			"root:b":        {"kube-system": namespace("kube-system", nil)},
		},
		Authorizer: allowAll{},
		Stores:     []*genericregistry.Store{{NewFunc: func() runtime.Object { return &corev1.ConfigMap{} }}},
		Typer:      scheme,
		OpenAPI:    genericapiserver.DefaultOpenAPIV3Config(generatedopenapi.GetOpenAPIDefinitions, openapinamer.NewDefinitionNamer(scheme)),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range p.read {
		close(ch)
	}
	// root:org labels by JSON patch for itself and all below, root:a by
	// an apply configuration for itself.
	p.mutating.setPolicy("root:org", ownerLabel("platform", admissionregistrationv1.PatchTypeJSONPatch))
	p.mutating.setBinding("root:org", &mutatingBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "owner", Labels: map[string]string{InheritLabel: InheritDescendants}},
		Spec:       admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{PolicyName: "owner"},
	})
	p.mutating.setPolicy("root:a", ownerLabel("a", admissionregistrationv1.PatchTypeApplyConfiguration))
	p.mutating.setBinding("root:a", &mutatingBinding{ObjectMeta: metav1.ObjectMeta{Name: "owner"}, Spec: admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{PolicyName: "owner"}})

	for cluster, want := range map[logicalcluster.Name]string{"root:a": "a", "root:org:team": "platform", "root:b": ""} {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: "kube-system"}}
		a := admission.NewAttributesRecord(cm, nil, corev1.SchemeGroupVersion.WithKind("ConfigMap"), "kube-system", "settings",
			corev1.SchemeGroupVersion.WithResource("configmaps"), "", admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "alice"})
		if err := p.Admit(logicalcluster.WithCluster(context.Background(), cluster), a, admission.NewObjectInterfacesFromScheme(scheme)); err != nil {
			t.Errorf("%s: %v", cluster, err)
			continue
		}
		if got := a.GetObject().(*corev1.ConfigMap).Labels["owner"]; got != want {
			t.Errorf("%s: owner label %q, want %q", cluster, got, want)
		}
	}
}
