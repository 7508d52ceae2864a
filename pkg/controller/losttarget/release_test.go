package losttarget

import (
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
)

func TestKeysOf(t *testing.T) {
	got := keysOf(
		map[string]string{"state.workload.canopy.dev/a": "Sync", "workload.canopy.dev/upsynced": "b", "app": "web"},
		map[string]string{"status.workload.canopy.dev/c": "{}", "replicas.workload.canopy.dev/d": "3",
			"workload.canopy.dev/placed": "a,e", "workload.canopy.dev/leaving": "f"},
		[]string{"workload.canopy.dev/syncer-g", "kubernetes"})
	if want := sets.New("a", "b", "c", "d", "e", "f", "g"); !got.Equal(want) {
		t.Errorf("keysOf = %v, want %v", sets.List(got), sets.List(want))
	}
}

func TestLostKeys(t *testing.T) {
	const grace = 10 * time.Second
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	since := map[string]time.Time{"deleted long ago": now.Add(-time.Minute), "back": now.Add(-time.Minute)}
	named := sets.New("up", "evicted", "deleted long ago", "deleted just now", "back")
	got, wait := lostKeys(named, []target{{key: "up"}, {key: "evicted", evicted: true}, {key: "back"}, {key: "other"}}, since, now, grace)
	if want := sets.New("evicted", "deleted long ago"); !got.Equal(want) || wait != grace {
		t.Errorf("lostKeys = %v, %s; want %v, %s", sets.List(got), wait, sets.List(want), grace)
	}
	if want := map[string]time.Time{"deleted long ago": now.Add(-time.Minute), "deleted just now": now}; !reflect.DeepEqual(since, want) {
		t.Errorf("unknown since %v, want %v", since, want)
	}
	got, wait = lostKeys(named, nil, since, now.Add(grace), grace)
	if want := sets.New("deleted long ago", "deleted just now"); !got.Equal(want) || wait != grace {
		t.Errorf("lostKeys after the grace = %v, %s; want %v, %s", sets.List(got), wait, sets.List(want), grace)
	}
}

// TestRelease checks that a lost target's every entry goes, placed by
// placement or written by hand, and the others' stay.
func TestRelease(t *testing.T) {
	for name, tc := range map[string]struct {
		in, want    metadata
		wantChanged bool
	}{
		"placed share": {
			in: metadata{
				labels: map[string]string{"state.workload.canopy.dev/a": "Sync", "state.workload.canopy.dev/b": "Sync", "app": "web"},
				annotations: map[string]string{"replicas.workload.canopy.dev/a": "3", "replicas.workload.canopy.dev/b": "3",
					"status.workload.canopy.dev/b": "{}", "workload.canopy.dev/placed": "a,b"},
				finalizers: []string{"workload.canopy.dev/syncer-a", "workload.canopy.dev/syncer-b"},
			},
			want: metadata{
				labels:      map[string]string{"state.workload.canopy.dev/a": "Sync", "app": "web"},
				annotations: map[string]string{"replicas.workload.canopy.dev/a": "3", "workload.canopy.dev/placed": "a"},
				finalizers:  []string{"workload.canopy.dev/syncer-a"},
			},
			wantChanged: true,
		},
		"by hand, being deleted": {
			in: metadata{
				labels:     map[string]string{"state.workload.canopy.dev/b": "Sync"},
				finalizers: []string{"workload.canopy.dev/syncer-b"},
			},
			want:        metadata{labels: map[string]string{}, finalizers: []string{}},
			wantChanged: true,
		},
		"leaving it": {
			in:          metadata{annotations: map[string]string{"workload.canopy.dev/leaving": "b", "workload.canopy.dev/placed": "b,c"}},
			want:        metadata{annotations: map[string]string{"workload.canopy.dev/placed": "c"}},
			wantChanged: true,
		},
		"not on it": {
			in:   metadata{labels: map[string]string{"state.workload.canopy.dev/a": "Sync"}, finalizers: []string{"kubernetes"}},
			want: metadata{labels: map[string]string{"state.workload.canopy.dev/a": "Sync"}, finalizers: []string{"kubernetes"}},
		},
	} {
		got, changed := release(tc.in, sets.New("b"))
		if changed != tc.wantChanged || !reflect.DeepEqual(got.labels, tc.want.labels) && len(got.labels)+len(tc.want.labels) > 0 ||
			!reflect.DeepEqual(got.annotations, tc.want.annotations) && len(got.annotations)+len(tc.want.annotations) > 0 ||
			!reflect.DeepEqual(got.finalizers, tc.want.finalizers) && len(got.finalizers)+len(tc.want.finalizers) > 0 {
			t.Errorf("%s: release = %+v, %v; want %+v, %v", name, got, changed, tc.want, tc.wantChanged)
		}
	}
}

func TestUpsyncedBy(t *testing.T) {
	for _, tc := range []struct {
		labels map[string]string
		key    string
		ok     bool
	}{
		{map[string]string{"workload.canopy.dev/upsynced": "a"}, "a", true},
		{map[string]string{"workload.canopy.dev/reported-by": "b"}, "b", true},
		{map[string]string{"app": "web"}, "", false},
	} {
		if key, ok := upsyncedBy(tc.labels); key != tc.key || ok != tc.ok {
			t.Errorf("upsyncedBy(%v) = %q, %v; want %q, %v", tc.labels, key, ok, tc.key, tc.ok)
		}
	}
}
