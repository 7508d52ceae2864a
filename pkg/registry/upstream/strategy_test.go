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
