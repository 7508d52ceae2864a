package definitioncleanup

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
)

// TestDecisions checks which updates of a definition's finalizers are
// refused: only one that drops the cleanup finalizer, by the main
// resource or its status, whoever asks.
func TestDecisions(t *testing.T) {
	crd := func(finalizers ...string) runtime.Object {
		return &apiextensions.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com", Finalizers: finalizers}}
	}
	const cleanup = apiextensions.CustomResourceCleanupFinalizer
	master := &user.DefaultInfo{Name: "root", Groups: []string{user.SystemPrivilegedGroup}}
	decisions := 0
	for _, tc := range []struct {
		name        string
		resource    string
		subresource string
		old, obj    runtime.Object
		refused     bool
	}{
		{"cleanup removed", "customresourcedefinitions", "", crd(cleanup, "x"), crd("x"), true},
		{"cleanup removed through status", "customresourcedefinitions", "status", crd(cleanup), crd(), true},
		{"cleanup kept, another removed", "customresourcedefinitions", "", crd(cleanup, "x"), crd(cleanup), false},
		{"cleanup added", "customresourcedefinitions", "", crd(), crd(cleanup), false},
		{"no finalizers", "customresourcedefinitions", "", crd(), crd(), false},
		{"another resource", "widgets", "", crd(cleanup), crd(), false},
	} {
		gvr := apiextensions.SchemeGroupVersion.WithResource(tc.resource)
		a := admission.NewAttributesRecord(tc.obj, tc.old, apiextensions.Kind("CustomResourceDefinition").WithVersion("v1"), "", "widgets.example.com",
			gvr, tc.subresource, admission.Update, &metav1.UpdateOptions{}, false, master)
		err := New().Validate(context.Background(), a, nil)
		decisions++
		if refused := apierrors.IsForbidden(err) && strings.Contains(err.Error(), "the hub removes finalizer "+cleanup); refused != tc.refused || (!tc.refused && err != nil) {
			t.Errorf("%s: %v; want refused %v", tc.name, err, tc.refused)
		}
	}
	t.Logf("%d decisions", decisions)
}
