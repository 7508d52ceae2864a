package customresource

import (
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
)

func TestServes(t *testing.T) {
	established := func(crd *apiextensions.CustomResourceDefinition) *apiextensions.CustomResourceDefinition {
		apiextensions.SetCRDCondition(crd, apiextensions.CustomResourceDefinitionCondition{Type: apiextensions.Established, Status: apiextensions.ConditionTrue})
		return crd
	}
	conflicting := widgets("1", "integer")
	apiextensions.SetCRDCondition(conflicting, apiextensions.CustomResourceDefinitionCondition{
		Type: apiextensions.NamesAccepted, Status: apiextensions.ConditionFalse, Reason: "KindConflict", Message: `"Widget" is already in use`,
	})
	clusterScoped := established(widgets("1", "integer"))
	clusterScoped.Spec.Scope = apiextensions.ClusterScoped
	request := func(verb, namespace, version, subresource string) *genericapirequest.RequestInfo {
		return &genericapirequest.RequestInfo{IsResourceRequest: true, Verb: verb, APIGroup: "example.com", APIVersion: version,
			Namespace: namespace, Resource: "widgets", Subresource: subresource}
	}
	for _, tc := range []struct {
		name string
		crd  *apiextensions.CustomResourceDefinition
		info *genericapirequest.RequestInfo
		want string
	}{
		{"served", established(widgets("1", "integer")), request("get", "default", "v1", ""), ""},
		{"listed across namespaces", established(widgets("1", "integer")), request("list", "", "v1", ""), ""},
		{"got without a namespace", established(widgets("1", "integer")), request("get", "", "v1", ""),
			"widgets.example.com are namespaced in logical cluster root:a: get them in a namespace"},
		{"cluster-scoped in a namespace", clusterScoped, request("get", "default", "v1", ""),
			"widgets.example.com are cluster-scoped in logical cluster root:a, not in namespaces"},
		{"another version", established(widgets("1", "integer")), request("get", "default", "v2", ""),
			"logical cluster root:a serves widgets.example.com at v1, not v2"},
		{"names in conflict", conflicting, request("get", "default", "v1", ""),
			`CustomResourceDefinition widgets.example.com of logical cluster root:a is not established: its names are not accepted: "Widget" is already in use (KindConflict)`},
		{"no such subresource", established(widgets("1", "integer")), request("get", "default", "v1", "status"),
			"widgets.example.com have no status subresource at v1 in logical cluster root:a"},
	} {
		err := serves(tc.crd, "root:a", tc.info)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if !apierrors.IsNotFound(err) || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("%s: %v; want a NotFound saying %q", tc.name, err, tc.want)
		}
	}
}
