package placement

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

func placementIn(cluster logicalcluster.Name, name string, inheritance placementv1alpha1.Inheritance) *placementv1alpha1.Placement {
	p := &placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: name, Generation: 1}, Spec: placementv1alpha1.PlacementSpec{Inheritance: inheritance}}
	logicalcluster.SetOn(p, cluster)
	return p
}

// fill records placements and targets in w, as their informers first
// list them.
func fill(t *testing.T, w *world, placements []*placementv1alpha1.Placement, targets []*workloadv1alpha1.SyncTarget) {
	t.Helper()
	for _, p := range placements {
		cluster, err := logicalcluster.FromObject(p)
		if err != nil {
			t.Fatal(err)
		}
		w.setPlacement(cluster, p, false)
	}
	for _, st := range targets {
		target, err := engine.TargetFrom(st)
		if err != nil {
			t.Fatal(err)
		}
		w.setTarget(target.Cluster, target, false)
	}
}

func syncTarget(cluster logicalcluster.Name, name string, ready bool, heartbeat time.Time) *workloadv1alpha1.SyncTarget {
	status := metav1.ConditionFalse
	if ready {
		status = metav1.ConditionTrue
	}
	st := &workloadv1alpha1.SyncTarget{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"region": "eu"}},
		Status: workloadv1alpha1.SyncTargetStatus{
			LastHeartbeatTime: metav1.NewTime(heartbeat),
			Conditions:        []metav1.Condition{{Type: workloadv1alpha1.ConditionReady, Status: status, LastTransitionTime: metav1.NewTime(time.Unix(100, 0))}},
			Allocatable:       corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4")},
		},
	}
	logicalcluster.SetOn(st, cluster)
	return st
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		cluster, root logicalcluster.Name
		want          bool
	}{
		{"root", "root", true},
		{"root:org", "root", true},
		{"root:org:team", "root:org", true},
		{"root:organic", "root:org", false},
		{"root", "root:org", false},
	} {
		if got := within(tc.cluster, tc.root); got != tc.want {
			t.Errorf("within(%s, %s) = %v", tc.cluster, tc.root, got)
		}
	}
}

// A logical cluster's objects are placed by its own placements, else by
// the inherited ones of its nearest ancestor with some; the candidates
// are the targets of its lineage.
func TestWorldScopes(t *testing.T) {
	w := newWorld()
	fill(t, w, []*placementv1alpha1.Placement{
		placementIn("root", "default", placementv1alpha1.InheritanceDescendants),
		placementIn("root", "root-only", placementv1alpha1.InheritanceNone),
		placementIn("root:org:team", "team", placementv1alpha1.InheritanceNone),
	}, []*workloadv1alpha1.SyncTarget{
		syncTarget("root", "pc1", true, time.Unix(200, 0)),
		syncTarget("root:org", "pc2", true, time.Unix(200, 0)),
		syncTarget("root:other", "pc3", true, time.Unix(200, 0)),
	})
	for _, tc := range []struct {
		cluster    logicalcluster.Name
		applies    bool
		placements []placementID
		targets    []string
	}{
		{"root", true, []placementID{{"root", "default"}, {"root", "root-only"}}, []string{"pc1"}},
		{"root:org", true, []placementID{{"root", "default"}}, []string{"pc2", "pc1"}},
		{"root:org:team", true, []placementID{{"root:org:team", "team"}}, []string{"pc2", "pc1"}},
	} {
		if got := w.applies(tc.cluster); got != tc.applies {
			t.Errorf("applies(%s) = %v", tc.cluster, got)
		}
		s := w.scope(tc.cluster)
		var ids []placementID
		for _, p := range s.Policies {
			ids = append(ids, s.id(p))
		}
		if len(ids) != len(tc.placements) {
			t.Fatalf("%s: placements %v, want %v", tc.cluster, ids, tc.placements)
		}
		for i := range ids {
			if ids[i] != tc.placements[i] {
				t.Errorf("%s: placements %v, want %v", tc.cluster, ids, tc.placements)
			}
		}
		var names []string
		for _, target := range s.Targets {
			names = append(names, target.Name)
		}
		if len(names) != len(tc.targets) || names[0] != tc.targets[0] {
			t.Errorf("%s: candidates %v, want %v", tc.cluster, names, tc.targets)
		}
	}

	// Without the inherited default, root:org has nothing to place by.
	if changed, descendants := w.setPlacement("root", placementIn("root", "default", placementv1alpha1.InheritanceDescendants), true); !changed || !descendants {
		t.Errorf("deleting an inherited placement: changed %v, descendants %v", changed, descendants)
	}
	if w.applies("root:org") {
		t.Error("root:org has a placement after root's inherited one went")
	}
	if len(w.scope("root:org").Policies) != 0 {
		t.Error("root:org's scope kept the deleted placement")
	}
}

// A status write of a placement, or a heartbeat of a target, changes
// nothing placed, and keeps the scopes compiled.
func TestWorldChanges(t *testing.T) {
	w := newWorld()
	p := placementIn("root:org", "p", placementv1alpha1.InheritanceNone)
	fill(t, w, []*placementv1alpha1.Placement{p}, []*workloadv1alpha1.SyncTarget{syncTarget("root", "pc1", true, time.Unix(200, 0))})
	s := w.scope("root:org")

	withStatus := p.DeepCopy()
	withStatus.Status.ObservedGeneration = 1
	if changed, _ := w.setPlacement("root:org", withStatus, false); changed {
		t.Error("a status write changes what is placed")
	}
	target := func(st *workloadv1alpha1.SyncTarget) engine.Target {
		t.Helper()
		tt, err := engine.TargetFrom(st)
		if err != nil {
			t.Fatal(err)
		}
		return tt
	}
	if w.setTarget("root", target(syncTarget("root", "pc1", true, time.Unix(210, 0))), false) {
		t.Error("a heartbeat changes what is placed")
	}
	if w.scope("root:org") != s {
		t.Error("the scope was compiled again")
	}

	if !w.setTarget("root", target(syncTarget("root", "pc1", false, time.Unix(210, 0))), false) {
		t.Error("a target turning NotReady changes nothing")
	}
	if w.scope("root:org") == s {
		t.Error("the scope of a descendant was kept")
	}

	// A placement of root:org that is not inherited leaves the scopes of
	// other logical clusters.
	team := w.scope("root:org:team")
	if changed, descendants := w.setPlacement("root:org", placementIn("root:org", "q", placementv1alpha1.InheritanceNone), false); !changed || descendants {
		t.Errorf("a new placement: changed %v, descendants %v", changed, descendants)
	}
	if w.scope("root:org:team") != team {
		t.Error("root:org:team's scope was dropped for a placement it does not inherit")
	}
}
