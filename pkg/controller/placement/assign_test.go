package placement

import (
	"maps"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/statusreport"
)

func label(key string) string    { return workloadv1alpha1.StateLabel(key) }
func replicas(key string) string { return workloadv1alpha1.ReplicasAnnotation(key) }

const (
	placed  = workloadv1alpha1.PlacedAnnotation
	leaving = workloadv1alpha1.LeavingAnnotation
)

func ptr(n int32) *int32 { return &n }

func TestAssign(t *testing.T) {
	everywhere := func(string, int32) bool { return true }
	nowhere := func(string, int32) bool { return false }
	for _, tc := range []struct {
		name      string
		from      assignment
		replicas  *int32
		selected  map[string]int32
		available func(string, int32) bool
		want      assignment
		moving    bool
		leaving   []string
	}{{
		name:     "a new object divided",
		from:     assignment{labels: map[string]string{"app": "web"}},
		replicas: ptr(6), selected: map[string]int32{"a": 3, "b": 3}, available: nowhere,
		want: assignment{
			labels:      map[string]string{"app": "web", label("a"): "Sync", label("b"): "Sync"},
			annotations: map[string]string{replicas("a"): "3", replicas("b"): "3", placed: "a,b"},
		},
	}, {
		name:     "a new object on one target has no share",
		replicas: ptr(6), selected: map[string]int32{"a": 6}, available: nowhere,
		want: assignment{labels: map[string]string{label("a"): "Sync"}, annotations: map[string]string{placed: "a"}},
	}, {
		name:     "duplicated whole, without shares",
		replicas: ptr(2), selected: map[string]int32{"a": 2, "b": 2}, available: nowhere,
		want: assignment{labels: map[string]string{label("a"): "Sync", label("b"): "Sync"}, annotations: map[string]string{placed: "a,b"}},
	}, {
		name:     "an object without replicas",
		selected: map[string]int32{"a": 0, "b": 0}, available: nowhere,
		want: assignment{labels: map[string]string{label("a"): "Sync", label("b"): "Sync"}, annotations: map[string]string{placed: "a,b"}},
	}, {
		name: "nothing to change",
		from: assignment{
			labels:      map[string]string{label("a"): "Sync", label("b"): "Sync"},
			annotations: map[string]string{replicas("a"): "3", replicas("b"): "3", placed: "a,b"},
		},
		replicas: ptr(6), selected: map[string]int32{"a": 3, "b": 3}, available: nowhere,
		want: assignment{
			labels:      map[string]string{label("a"): "Sync", label("b"): "Sync"},
			annotations: map[string]string{replicas("a"): "3", replicas("b"): "3", placed: "a,b"},
		},
	}, {
		name: "a failed target's share goes to the other first",
		from: assignment{
			labels:      map[string]string{label("a"): "Sync", label("b"): "Sync"},
			annotations: map[string]string{replicas("a"): "3", replicas("b"): "3", placed: "a,b"},
		},
		replicas: ptr(6), selected: map[string]int32{"b": 6},
		available: func(key string, n int32) bool { return key == "b" && n == 3 },
		want: assignment{
			labels:      map[string]string{label("a"): "Sync", label("b"): "Sync"},
			annotations: map[string]string{replicas("a"): "3", placed: "a,b", leaving: "a"},
		},
		moving: true, leaving: []string{"a"},
	}, {
		name: "and the failed target is released once the other runs them all",
		from: assignment{
			labels:      map[string]string{label("a"): "Sync", label("b"): "Sync"},
			annotations: map[string]string{replicas("a"): "3", placed: "a,b", leaving: "a"},
		},
		replicas: ptr(6), selected: map[string]int32{"b": 6},
		available: func(key string, n int32) bool { return key == "b" && n == 6 },
		want:      assignment{labels: map[string]string{label("b"): "Sync"}, annotations: map[string]string{placed: "b"}},
	}, {
		name:     "a move to a new target keeps the old until the new is available",
		from:     assignment{labels: map[string]string{label("a"): "Sync"}, annotations: map[string]string{placed: "a"}},
		replicas: ptr(6), selected: map[string]int32{"c": 6}, available: everywhere,
		want:   assignment{labels: map[string]string{label("a"): "Sync", label("c"): "Sync"}, annotations: map[string]string{placed: "a,c", leaving: "a"}},
		moving: true, leaving: []string{"a"},
	}, {
		name:     "waiting for the new target writes nothing",
		from:     assignment{labels: map[string]string{label("a"): "Sync", label("c"): "Sync"}, annotations: map[string]string{placed: "a,c", leaving: "a"}},
		replicas: ptr(6), selected: map[string]int32{"c": 6}, available: nowhere,
		want:    assignment{labels: map[string]string{label("a"): "Sync", label("c"): "Sync"}, annotations: map[string]string{placed: "a,c", leaving: "a"}},
		leaving: []string{"a"},
	}, {
		name:     "no target selected releases nothing",
		from:     assignment{labels: map[string]string{label("a"): "Sync"}, annotations: map[string]string{placed: "a"}},
		replicas: ptr(6), available: everywhere,
		want:    assignment{labels: map[string]string{label("a"): "Sync"}, annotations: map[string]string{placed: "a"}},
		leaving: []string{"a"},
	}, {
		name:     "no target selected keeps the record of a move",
		from:     assignment{labels: map[string]string{label("a"): "Sync", label("c"): "Sync"}, annotations: map[string]string{placed: "a,c", leaving: "a"}},
		replicas: ptr(6), available: everywhere,
		want:    assignment{labels: map[string]string{label("a"): "Sync", label("c"): "Sync"}, annotations: map[string]string{placed: "a,c", leaving: "a"}},
		leaving: []string{"a", "c"},
	}, {
		name: "a label set by hand stays, and stays the user's",
		from: assignment{
			labels:      map[string]string{label("m"): "Sync", label("a"): "Sync"},
			annotations: map[string]string{replicas("m"): "5", placed: "a"},
		},
		replicas: ptr(6), selected: map[string]int32{"b": 3, "m": 3}, available: everywhere,
		want: assignment{
			labels:      map[string]string{label("m"): "Sync", label("b"): "Sync", label("a"): "Sync"},
			annotations: map[string]string{replicas("m"): "5", replicas("b"): "3", placed: "a,b", leaving: "a"},
		},
		moving: true, leaving: []string{"a"},
	}, {
		name:     "a label placement set and a user removed is placement's to set again",
		from:     assignment{labels: map[string]string{}, annotations: map[string]string{placed: "a"}},
		replicas: ptr(1), selected: map[string]int32{"a": 1}, available: nowhere,
		want: assignment{labels: map[string]string{label("a"): "Sync"}, annotations: map[string]string{placed: "a"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			from := assignment{labels: maps.Clone(tc.from.labels), annotations: maps.Clone(tc.from.annotations)}
			out := assign(from, tc.replicas, tc.selected, tc.available)
			if !same(out.assignment, tc.want) {
				t.Errorf("labels %v annotations %v, want %v %v", out.labels, out.annotations, tc.want.labels, tc.want.annotations)
			}
			if out.changed != !same(tc.from, tc.want) {
				t.Errorf("changed %v", out.changed)
			}
			if out.moving != tc.moving {
				t.Errorf("moving %v, want %v", out.moving, tc.moving)
			}
			if !slices.Equal(out.leaving, tc.leaving) {
				t.Errorf("leaving %v, want %v", out.leaving, tc.leaving)
			}
			if !same(from, tc.from) {
				t.Errorf("assign changed its input")
			}
		})
	}
}

func TestAssignPlaced(t *testing.T) {
	out := assign(assignment{}, ptr(5), map[string]int32{"a": 2, "b": 3}, func(string, int32) bool { return false })
	if want := map[string]int32{"a": 2, "b": 3}; !maps.Equal(out.placed, want) {
		t.Errorf("placed %v, want %v", out.placed, want)
	}
	out = assign(assignment{}, ptr(5), map[string]int32{"a": 5}, func(string, int32) bool { return false })
	if want := map[string]int32{"a": 5}; !maps.Equal(out.placed, want) {
		t.Errorf("placed on one target %v, want %v", out.placed, want)
	}
}

func TestAvailableAt(t *testing.T) {
	const key = "k"
	held := []string{workloadv1alpha1.FinalizerPrefix + key}
	report := func(s string) map[string]string { return map[string]string{workloadv1alpha1.StatusAnnotation(key): s} }
	for _, tc := range []struct {
		name       string
		finalizers []string
		reports    map[string]string
		hasStatus  bool
		replicas   int32
		want       bool
	}{
		{name: "not yet held by its syncer", hasStatus: false, want: false},
		{name: "held, without a status", finalizers: held, want: true},
		{name: "held, with a status not reported", finalizers: held, hasStatus: true, want: false},
		{name: "all replicas available", finalizers: held, hasStatus: true, replicas: 3,
			reports: report(`{"observedGeneration":2,"availableReplicas":3,"conditions":[{"type":"Available","status":"True"}]}`), want: true},
		{name: "too few replicas", finalizers: held, hasStatus: true, replicas: 6,
			reports: report(`{"observedGeneration":2,"availableReplicas":3,"conditions":[{"type":"Available","status":"True"}]}`), want: false},
		{name: "an older generation", finalizers: held, hasStatus: true, replicas: 3,
			reports: report(`{"observedGeneration":1,"availableReplicas":3}`), want: false},
		{name: "not Available", finalizers: held, hasStatus: true, replicas: 0,
			reports: report(`{"observedGeneration":2,"conditions":[{"type":"Available","status":"False"}]}`), want: false},
		{name: "a DaemonSet short of its nodes", finalizers: held, hasStatus: true,
			reports: report(`{"observedGeneration":2,"desiredNumberScheduled":2,"numberAvailable":1}`), want: false},
		{name: "a DaemonSet on all its nodes", finalizers: held, hasStatus: true,
			reports: report(`{"observedGeneration":2,"desiredNumberScheduled":2,"numberAvailable":2}`), want: true},
		{name: "a report that is no JSON", finalizers: held, hasStatus: true, reports: report(`{`), want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			obj := &metav1.ObjectMeta{Generation: 2, Finalizers: tc.finalizers, Annotations: tc.reports}
			if got := availableAt(obj, tc.hasStatus, statusreport.NewReader(nil).Picker("", schema.GroupResource{}, obj), key, tc.replicas); got != tc.want {
				t.Errorf("available %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFinish(t *testing.T) {
	onlyB6 := func(key string, n int32) bool { return key == "b" && n == 6 }
	midFailover := assignment{
		labels:      map[string]string{label("a"): "Sync", label("b"): "Sync"},
		annotations: map[string]string{replicas("a"): "3", placed: "a,b", leaving: "a"},
	}
	for _, tc := range []struct {
		name      string
		from      assignment
		available func(string, int32) bool
		want      assignment
	}{{
		name: "a move waits for its target, releasing nothing", from: midFailover,
		available: func(string, int32) bool { return false },
		want:      midFailover,
	}, {
		name: "a move ends on its target once it runs them all", from: midFailover, available: onlyB6,
		want: assignment{labels: map[string]string{label("b"): "Sync"}, annotations: map[string]string{placed: "b"}},
	}, {
		name: "a divided move keeps the shares it moves to",
		from: assignment{
			labels:      map[string]string{label("a"): "Sync", label("b"): "Sync", label("c"): "Sync"},
			annotations: map[string]string{replicas("a"): "6", replicas("b"): "2", replicas("c"): "4", placed: "a,b,c", leaving: "a"},
		},
		available: func(key string, n int32) bool { return key == "b" && n == 2 || key == "c" && n == 4 },
		want: assignment{
			labels:      map[string]string{label("b"): "Sync", label("c"): "Sync"},
			annotations: map[string]string{replicas("b"): "2", replicas("c"): "4", placed: "b,c"},
		},
	}, {
		name: "an object not moving stays as it is",
		from: assignment{
			labels:      map[string]string{label("a"): "Sync", label("b"): "Sync"},
			annotations: map[string]string{replicas("a"): "3", replicas("b"): "3", placed: "a,b"},
		},
		available: onlyB6,
		want: assignment{
			labels:      map[string]string{label("a"): "Sync", label("b"): "Sync"},
			annotations: map[string]string{replicas("a"): "3", replicas("b"): "3", placed: "a,b"},
		},
	}, {
		name: "a move whose target's label was removed ends where the object runs",
		from: assignment{
			labels:      map[string]string{label("a"): "Sync"},
			annotations: map[string]string{placed: "a,b", leaving: "a"},
		},
		available: onlyB6,
		want:      assignment{labels: map[string]string{label("a"): "Sync"}, annotations: map[string]string{placed: "a,b"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			from := assignment{labels: maps.Clone(tc.from.labels), annotations: maps.Clone(tc.from.annotations)}
			out := finish(from, ptr(6), tc.available)
			if !same(out.assignment, tc.want) {
				t.Errorf("labels %v annotations %v, want %v %v", out.labels, out.annotations, tc.want.labels, tc.want.annotations)
			}
			if out.changed != !same(tc.from, tc.want) {
				t.Errorf("changed %v", out.changed)
			}
			if !same(from, tc.from) {
				t.Errorf("finish changed its input")
			}
		})
	}
}
