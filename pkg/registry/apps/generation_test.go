package apps

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/apps/deployment"
)

// TestGenerationOfBookkeeping: upstream bumps a Deployment's generation on
// any change of its annotations, as kube-apiserver does for a user's, but
// the hub's own (a target's status report, placement's shares) are no new
// generation: each status report would otherwise make one.
func TestGenerationOfBookkeeping(t *testing.T) {
	kind := registry.Kind[*appsv1.Deployment]{NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(deployment.Strategy)}
	for _, tc := range []struct {
		name       string
		annotation string
		want       int64
	}{
		{"a target's status report", "status.workload.canopy.dev/4e485757a6d78987", 3},
		{"placement's share", "replicas.workload.canopy.dev/4e485757a6d78987", 3},
		{"the logical cluster's", "canopy.dev/cluster", 3},
		{"a user's", "example.com/note", 4},
		{"a user's in a look-alike domain", "notcanopy.dev/note", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{
				Name: "web", Namespace: "app", Generation: 3,
				Annotations: map[string]string{"kept": "x", tc.annotation: "before"},
			}}
			obj := old.DeepCopy()
			obj.Annotations[tc.annotation] = "after"
			kind.PrepareForUpdate(context.Background(), obj, old)
			if obj.Generation != tc.want {
				t.Errorf("generation %d after a change of %s, want %d", obj.Generation, tc.annotation, tc.want)
			}
			if old.Annotations[tc.annotation] != "before" {
				t.Errorf("the stored object was changed: %v", old.Annotations)
			}
		})
	}
}
