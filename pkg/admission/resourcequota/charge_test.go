package resourcequota

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"

	hubquota "github.com/canopy-dev/canopy/pkg/quota"
)

// TestCharge is the decision a create's transaction makes on the stored
// quota: add the create's usage, or refuse it with kube's message, or
// leave a quota that does not count it as it is.
func TestCharge(t *testing.T) {
	configMaps := schema.GroupResource{Resource: "configmaps"}
	registry := hubquota.NewRegistry([]schema.GroupResource{configMaps}, nilList)
	evaluator := registry.Get(configMaps)
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "four", Namespace: "ns"}}
	a := admission.NewAttributesRecord(cm, nil, corev1.SchemeGroupVersion.WithKind("ConfigMap"), "ns", "four",
		corev1.SchemeGroupVersion.WithResource("configmaps"), "", admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{})
	quotaOf := func(name corev1.ResourceName, used, hard string) *corev1.ResourceQuota {
		return &corev1.ResourceQuota{
			ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "ns"},
			Spec:       corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{name: resource.MustParse(hard)}},
			Status: corev1.ResourceQuotaStatus{
				Hard: corev1.ResourceList{name: resource.MustParse(hard)},
				Used: corev1.ResourceList{name: resource.MustParse(used)},
			},
		}
	}
	count := corev1.ResourceName("count/configmaps")
	for _, tc := range []struct {
		name     string
		quota    *corev1.ResourceQuota
		wantUsed string
		wantErr  string
	}{
		{"fits", quotaOf(count, "2", "3"), "3", ""},
		{"full", quotaOf(count, "3", "3"), "", `configmaps "four" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=3, limited: count/configmaps=3`},
		{"counts something else", quotaOf("count/secrets", "3", "3"), "3", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := pay(a, evaluator)(tc.quota)
			if tc.wantErr != "" {
				if !apierrors.IsForbidden(err) || err.Error() != tc.wantErr {
					t.Fatalf("got %v, want the 403 %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, used := range tc.quota.Status.Used {
				if used.String() != tc.wantUsed {
					t.Errorf("used %s, want %s", used.String(), tc.wantUsed)
				}
			}
		})
	}
}
