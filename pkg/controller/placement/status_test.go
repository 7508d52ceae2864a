package placement

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// ownedClusters is a replica's share of the shards, by logical cluster,
// fixed for the test: which shard a logical cluster hashes to is
// pkg/shard's business, and which replica holds it its lease's.
type ownedClusters map[logicalcluster.Name]bool

func (o ownedClusters) Owns(cluster logicalcluster.Name) bool { return o[cluster] }

func (ownedClusters) OnGain(func(int)) {}

// An inherited placement's status counts the objects it placed in every
// logical cluster it applies to, whichever replica owns each: here the
// replica that owns the placement's logical cluster, and one of its
// children, counts a Deployment the other replica placed in the other
// child.
func TestStatusCountsObjectsOfEveryShard(t *testing.T) {
	org := logicalcluster.Name("root:org")
	a, b := logicalcluster.Name("root:org:a"), logicalcluster.Name("root:org:b")
	h := newTestHub(t)
	h.run(ownedClusters{org: true, a: true})
	h.run(ownedClusters{b: true})

	h.syncTargetAt(org, "x", true)
	eu := euPlacement(workloadv1alpha1.GroupResource{Group: "apps", Resource: "deployments"})
	eu.Spec.Inheritance = placementv1alpha1.InheritanceDescendants
	h.createAt(org, h.placements, "", eu)
	for _, cluster := range []logicalcluster.Name{a, b} {
		h.createAt(cluster, h.namespaces, "", &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "app"}})
	}
	h.createDeploymentAt(a, "web", 2)
	h.createDeploymentAt(b, "api", 3)

	x := workloadv1alpha1.TargetKey(string(org), "x")
	h.wait("Placement eu counting both Deployments, 5 replicas, on "+x, func() bool {
		obj, err := h.placements.Get(h.at(org, ""), "eu", &metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := obj.(*placementv1alpha1.Placement).Status.Targets
		return len(got) == 1 && got[0].Key == x && got[0].Objects == 2 && got[0].Replicas == 5
	})
}
