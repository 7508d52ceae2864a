package hublimits

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func TestValidate(t *testing.T) {
	p := New(Limits{LogicalClustersPerParent: 2, ObjectBytes: 1000}, func(parent logicalcluster.Name) int {
		return map[logicalcluster.Name]int{"root:full": 2, "root:room": 1}[parent]
	})
	alice := &user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}
	admin := &user.DefaultInfo{Name: "admin", Groups: []string{user.SystemPrivilegedGroup}}
	cm := func(size int) runtime.Object {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Data: map[string]string{"k": strings.Repeat("x", size)}}
	}
	custom := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "spec": strings.Repeat("x", 5000)}}
	lc := &tenancyv1alpha1.LogicalCluster{ObjectMeta: metav1.ObjectMeta{Name: "child"}}
	for _, c := range []struct {
		name     string
		cluster  logicalcluster.Name
		who      user.Info
		op       admission.Operation
		resource string
		obj, old runtime.Object
		// want is what the refusal says, empty for none.
		want string
	}{
		{"small create", "root:a", alice, admission.Create, "configmaps", cm(10), nil, ""},
		{"large create", "root:a", alice, admission.Create, "configmaps", cm(2000), nil, "--max-object-bytes"},
		{"large create by system:masters", "root:a", admin, admission.Create, "configmaps", cm(2000), nil, ""},
		{"large object not growing", "root:a", alice, admission.Update, "configmaps", cm(2000), cm(2000), ""},
		{"large object growing", "root:a", alice, admission.Update, "configmaps", cm(2001), cm(2000), "--max-object-bytes"},
		{"custom resource", "root:a", alice, admission.Create, "widgets", custom, nil, ""},
		{"child with room", "root:room", alice, admission.Create, "logicalclusters", lc, nil, ""},
		{"child past the limit", "root:full", alice, admission.Create, "logicalclusters", lc, nil, "--max-logical-clusters-per-parent"},
		{"child past the limit by system:masters", "root:full", admin, admission.Create, "logicalclusters", lc, nil, ""},
	} {
		gvr := corev1.SchemeGroupVersion.WithResource(c.resource)
		if c.resource == "logicalclusters" {
			gvr = tenancyv1alpha1.SchemeGroupVersion.WithResource(c.resource)
		}
		a := admission.NewAttributesRecord(c.obj, c.old, gvr.GroupVersion().WithKind("X"), "", "c", gvr, "", c.op, nil, false, c.who)
		err := p.Validate(logicalcluster.WithCluster(context.Background(), c.cluster), a, nil)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want a refusal naming %s", c.name, err, c.want)
		case strings.Contains(c.want, "bytes") && !apierrors.IsRequestEntityTooLargeError(err):
			t.Errorf("%s: %v, want 413", c.name, err)
		case strings.Contains(c.want, "parent") && !apierrors.IsForbidden(err):
			t.Errorf("%s: %v, want 403", c.name, err)
		}
	}
}
