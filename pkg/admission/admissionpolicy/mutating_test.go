package admissionpolicy

import (
	"context"
	"maps"
	"strings"
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
	if patchType == admissionregistrationv1.PatchTypeJSONPatch {
		return configMapMutation("owner", jsonPatch("[JSONPatch{op: 'add', path: '/metadata/labels', value: {'owner': '"+owner+"'}}]"))
	}
	return configMapMutation("owner", applyConfiguration("Object{metadata: Object.metadata{labels: {'owner': '"+owner+"'}}}"))
}

func jsonPatch(expression string) admissionregistrationv1.Mutation {
	return admissionregistrationv1.Mutation{PatchType: admissionregistrationv1.PatchTypeJSONPatch, JSONPatch: &admissionregistrationv1.JSONPatch{Expression: expression}}
}

func applyConfiguration(expression string) admissionregistrationv1.Mutation {
	return admissionregistrationv1.Mutation{
		PatchType:          admissionregistrationv1.PatchTypeApplyConfiguration,
		ApplyConfiguration: &admissionregistrationv1.ApplyConfiguration{Expression: expression},
	}
}

// configMapCreations matches the creations of ConfigMaps.
func configMapCreations() *admissionregistrationv1.MatchResources {
	return &admissionregistrationv1.MatchResources{
		MatchPolicy:       ptr.To(admissionregistrationv1.Equivalent),
		NamespaceSelector: &metav1.LabelSelector{},
		ObjectSelector:    &metav1.LabelSelector{},
		ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{RuleWithOperations: admissionregistrationv1.RuleWithOperations{
			Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
			Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}, Scope: ptr.To(admissionregistrationv1.AllScopes)},
		}}},
	}
}

// configMapMutation is a policy named name that mutates the ConfigMaps
// created by m.
func configMapMutation(name string, m admissionregistrationv1.Mutation) *mutatingPolicy {
	return &mutatingPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.MutatingAdmissionPolicySpec{
			FailurePolicy:      ptr.To(admissionregistrationv1.Fail),
			ReinvocationPolicy: admissionregistrationv1.NeverReinvocationPolicy,
			MatchConstraints:   configMapCreations(),
			Mutations:          []admissionregistrationv1.Mutation{m},
		},
	}
}

// mutatingPlugin returns a plugin that has read its policies, from the
// index the test fills, and mutates ConfigMaps in kube-system of the
// logical clusters of clusters.
func mutatingPlugin(t *testing.T, scheme *runtime.Scheme, clusters ...logicalcluster.Name) *Plugin {
	t.Helper()
	namespaces := namespaceStore{}
	for _, c := range clusters {
		namespaces[c] = map[string]*corev1.Namespace{"kube-system": namespace("kube-system", nil)}
	}
	p, err := New(Config{
		Namespaces: namespaces,
		Authorizer: allowAll{},
		Stores:     []*genericregistry.Store{{NewFunc: func() runtime.Object { return &corev1.ConfigMap{} }}},
		Typer:      scheme,
		OpenAPI:    genericapiserver.DefaultOpenAPIV3Config(generatedopenapi.GetOpenAPIDefinitions, openapinamer.NewDefinitionNamer(scheme)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func coreScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := core.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return scheme
}

// configMapCreation is the admission of ConfigMap settings created in
// kube-system.
func configMapCreation() admission.Attributes {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: "kube-system"}}
	return admission.NewAttributesRecord(cm, nil, corev1.SchemeGroupVersion.WithKind("ConfigMap"), "kube-system", "settings",
		corev1.SchemeGroupVersion.WithResource("configmaps"), "", admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "alice"})
}

func TestMutatingPolicies(t *testing.T) {
	scheme := coreScheme(t)
	p := mutatingPlugin(t, scheme, "root:a", "root:org:team", "root:b")
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
		a := configMapCreation()
		if err := p.Admit(logicalcluster.WithCluster(context.Background(), cluster), a, admission.NewObjectInterfacesFromScheme(scheme)); err != nil {
			t.Errorf("%s: %v", cluster, err)
			continue
		}
		if got := a.GetObject().(*corev1.ConfigMap).Labels["owner"]; got != want {
			t.Errorf("%s: owner label %q, want %q", cluster, got, want)
		}
	}
}

// TestInheritedMutationsRunLast checks that a logical cluster's own
// mutating policies cannot undo what its ancestors' inherited ones set,
// whichever was stored first: the inherited run after its own, the
// nearest ancestor's first and root's last; and that an inherited
// validation, run after every mutation, sees the object they made.
func TestInheritedMutationsRunLast(t *testing.T) {
	scheme := coreScheme(t)
	inherited := func(name string) *mutatingBinding {
		return &mutatingBinding{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{InheritLabel: InheritDescendants}},
			Spec:       admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{PolicyName: name},
		}
	}
	// The tenant's policy replaces all labels, the platform's in root:org
	// sets platform=enforced and tier=org, root's sets tier=root.
	type policyOf struct {
		cluster logicalcluster.Name
		policy  *mutatingPolicy
		binding *mutatingBinding
	}
	tenant := policyOf{"root:org:team", configMapMutation("tenant", jsonPatch(
		"[JSONPatch{op: 'add', path: '/metadata/labels', value: {'platform': 'off', 'tier': 'team'}}]")),
		&mutatingBinding{ObjectMeta: metav1.ObjectMeta{Name: "tenant"}, Spec: admissionregistrationv1.MutatingAdmissionPolicyBindingSpec{PolicyName: "tenant"}}}
	platform := policyOf{"root:org", configMapMutation("platform", applyConfiguration(
		"Object{metadata: Object.metadata{labels: {'platform': 'enforced', 'tier': 'org'}}}")), inherited("platform")}
	root := policyOf{"root", configMapMutation("root", applyConfiguration("Object{metadata: Object.metadata{labels: {'tier': 'root'}}}")), inherited("root")}
	// enforced is a validation root:org binds for its descendants.
	enforced := &policy{
		ObjectMeta: metav1.ObjectMeta{Name: "enforced"},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy:    ptr.To(admissionregistrationv1.Fail),
			MatchConstraints: configMapCreations(),
			Validations:      []admissionregistrationv1.Validation{{Expression: "object.metadata.labels.platform == 'enforced'", Message: "the platform label must be enforced"}},
		},
	}

	for _, tc := range []struct {
		name   string
		stored []policyOf
		want   map[string]string
		denied bool
	}{
		{"tenant's first", []policyOf{tenant, platform, root}, map[string]string{"platform": "enforced", "tier": "root"}, false},
		{"platform's first", []policyOf{root, platform, tenant}, map[string]string{"platform": "enforced", "tier": "root"}, false},
		{"no root policy", []policyOf{platform, tenant}, map[string]string{"platform": "enforced", "tier": "org"}, false},
		{"the tenant's alone", []policyOf{tenant}, map[string]string{"platform": "off", "tier": "team"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mutatingPlugin(t, scheme, "root:org:team")
			for _, s := range tc.stored {
				p.mutating.setPolicy(s.cluster, s.policy)
				p.mutating.setBinding(s.cluster, s.binding)
			}
			p.validating.setPolicy("root:org", enforced)
			p.validating.setBinding("root:org", bindingOf("enforced", "enforced", true))

			// The API server's chain: every mutation, then every
			// validation, of the object as mutated.
			a, o := configMapCreation(), admission.NewObjectInterfacesFromScheme(scheme)
			ctx := logicalcluster.WithCluster(context.Background(), "root:org:team")
			chain := admission.NewChainHandler(p)
			if err := chain.Admit(ctx, a, o); err != nil {
				t.Fatal(err)
			}
			if got := a.GetObject().(*corev1.ConfigMap).Labels; !maps.Equal(got, tc.want) {
				t.Errorf("labels %v, want %v", got, tc.want)
			}
			err := chain.Validate(ctx, a, o)
			if denied := err != nil && strings.Contains(err.Error(), "the platform label must be enforced"); denied != tc.denied {
				t.Errorf("validation of the mutated object: %v; want denied %v", err, tc.denied)
			}
		})
	}
}
