package customresource

import (
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/internal/sqlitetest"
	"github.com/canopy-dev/canopy/pkg/registry"
)

func widgets(resourceVersion, sizeType string) *apiextensions.CustomResourceDefinition {
	names := apiextensions.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"}
	return &apiextensions.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com", ResourceVersion: resourceVersion},
		Spec: apiextensions.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: apiextensions.NamespaceScoped, Names: names,
			Versions:   []apiextensions.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true}},
			Conversion: &apiextensions.CustomResourceConversion{Strategy: apiextensions.NoneConverter},
			Validation: &apiextensions.CustomResourceValidation{OpenAPIV3Schema: &apiextensions.JSONSchemaProps{
				Type: "object",
				Properties: map[string]apiextensions.JSONSchemaProps{
					"spec": {Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{"size": {Type: sizeType}}},
				},
			}},
		},
		Status: apiextensions.CustomResourceDefinitionStatus{AcceptedNames: names},
	}
}

// Installations of the same definition in different logical clusters are
// served by one served; a different schema by another, over the same
// storage of the group resource.
func TestCatalogShares(t *testing.T) {
	backend := sqlitetest.Open(t)
	converters, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newCatalog(build{converters: converters}, &registry.Factory{Backend: backend})

	a, err := c.served("root:a", widgets("10", "integer"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.served("root:b", widgets("11", "integer"))
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("the same definition in root:a and root:b is served twice")
	}
	again, err := c.served("root:a", widgets("10", "integer"))
	if err != nil || again != a {
		t.Errorf("root:a's unchanged definition is served anew: %v", err)
	}
	other, err := c.served("root:c", widgets("12", "string"))
	if err != nil {
		t.Fatal(err)
	}
	if other == a {
		t.Error("definitions of different schemas share how they are served")
	}
	if len(c.storages) != 1 {
		t.Errorf("%d storages of widgets.example.com, want one for all", len(c.storages))
	}
	if len(c.byContent) != 2 || len(c.installs) != 3 {
		t.Errorf("%d distinct definitions of %d installations, want 2 of 3", len(c.byContent), len(c.installs))
	}
	c.forget(installation{"root:b", "widgets.example.com"})
	c.forget(installation{"root:c", "widgets.example.com"})
	if len(c.installs) != 1 {
		t.Errorf("%d installations left, want root:a's", len(c.installs))
	}
}
