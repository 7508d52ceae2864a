package upstream_test

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/configmap"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/pod"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/secret"
)

var _ registry.Upstream = upstream.For(pod.Strategy)

// TestPrepareForCreate checks that upstream's changes come back into the
// hub's object, and that its apiVersion and kind stay.
func TestPrepareForCreate(t *testing.T) {
	p := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Image: "nginx"}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1"},
	}
	upstream.For(pod.Strategy).PrepareForCreate(context.Background(), p)
	if p.Status.Phase != corev1.PodPending || p.Status.PodIP != "" || p.Status.QOSClass != corev1.PodQOSBestEffort {
		t.Errorf("a created pod's status is %+v, want only Pending and its QoS class", p.Status)
	}
	if p.Generation != 1 || p.APIVersion != "v1" || p.Kind != "Pod" {
		t.Errorf("a created pod has generation %d, apiVersion %q and kind %q", p.Generation, p.APIVersion, p.Kind)
	}
}

// TestDeclarativeValidation checks that upstream's declarative validation
// runs with and without a request, and with a request for another group,
// as when the hub writes objects of one kind while serving another.
func TestDeclarativeValidation(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}, Data: map[string]string{"a": "b"}}
	s := registry.Kind[*corev1.ConfigMap]{ObjectTyper: upstream.Scheme, NameGenerator: names.SimpleNameGenerator, APIVersion: "v1", Upstream: upstream.For(configmap.Strategy)}
	for name, ctx := range map[string]context.Context{
		"no request":    context.Background(),
		"same group":    genericapirequest.WithRequestInfo(context.Background(), &genericapirequest.RequestInfo{APIVersion: "v1", Resource: "configmaps"}),
		"another group": genericapirequest.WithRequestInfo(context.Background(), &genericapirequest.RequestInfo{APIGroup: "apps", APIVersion: "v1", Resource: "deployments"}),
	} {
		t.Run(name, func(t *testing.T) {
			ctx = genericapirequest.WithNamespace(ctx, "shop")
			if errs := rest.ValidateCreate(ctx, cm, s); len(errs) != 0 {
				t.Errorf("a valid ConfigMap was refused: %v", errs)
			}
			bad := cm.DeepCopy()
			bad.Data["a b"] = "c"
			if errs := rest.ValidateCreate(ctx, bad, s); !onlyOn(errs, "data[a b]") {
				t.Errorf("an invalid key: %v", errs)
			}
		})
	}
}

func onlyOn(errs field.ErrorList, path string) bool {
	for _, err := range errs {
		if err.Field != path {
			return false
		}
	}
	return len(errs) > 0
}

// TestUnknownKind checks that a kind whose group upstream does not know
// is refused with an internal error, not a panic.
func TestUnknownKind(t *testing.T) {
	errs := upstream.For(pod.Strategy).Validate(context.Background(), &runtime.Unknown{})
	if len(errs) != 1 || errs[0].Type != field.ErrorTypeInternal {
		t.Errorf("validating an unknown kind: %v", errs)
	}
}

// TestServedOnlyFieldsGo: what only the served version has goes on a
// write, as in kube-apiserver, which decodes each write to the internal
// version: a Secret's stringData is merged into its data and not stored.
func TestServedOnlyFieldsGo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		prepare func(obj, old *corev1.Secret)
	}{
		{"create", func(obj, _ *corev1.Secret) { upstream.For(secret.Strategy).PrepareForCreate(context.Background(), obj) }},
		{"update", func(obj, old *corev1.Secret) {
			upstream.For(secret.Strategy).PrepareForUpdate(context.Background(), obj, old)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "shop"}, Data: map[string][]byte{"kept": []byte("1")}}
			obj := old.DeepCopy()
			obj.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}
			obj.StringData = map[string]string{"key": "value", "kept": "2"}
			tc.prepare(obj, old)
			if obj.StringData != nil || string(obj.Data["key"]) != "value" || string(obj.Data["kept"]) != "2" {
				t.Errorf("after %s: stringData %v, data %q; want no stringData and data key=value, kept=2", tc.name, obj.StringData, obj.Data)
			}
			if obj.APIVersion != "v1" || obj.Kind != "Secret" {
				t.Errorf("after %s: apiVersion %q, kind %q", tc.name, obj.APIVersion, obj.Kind)
			}
		})
	}
}
