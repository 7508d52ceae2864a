package namespace

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

func namespace(name string, ours bool) *corev1.Namespace {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, UID: "u-" + types.UID(name)}}
	if ours {
		ns.Annotations = map[string]string{workloadv1alpha1.OriginClusterAnnotation: "root:a", workloadv1alpha1.OriginNamespaceAnnotation: "ns1"}
	}
	return ns
}

// TestDecide checks that only the syncer's own namespace, empty for the
// whole grace period, is deleted.
func TestDecide(t *testing.T) {
	const grace = time.Minute
	now := time.Now()
	deleting := namespace("deleting", true)
	deleting.DeletionTimestamp = &metav1.Time{Time: now}
	for _, tc := range []struct {
		name     string
		ns       *corev1.Namespace
		occupied bool
		since    time.Time
		want     Decision
	}{
		{"gone", nil, false, now, Decision{Forget: true}},
		{"not the syncer's", namespace("other", false), false, now.Add(-time.Hour), Decision{Forget: true}},
		{"being deleted", deleting, false, now.Add(-time.Hour), Decision{Forget: true}},
		{"occupied", namespace("busy", true), true, now.Add(-time.Hour), Decision{Forget: true}},
		{"just found empty", namespace("empty", true), false, now, Decision{Wait: grace}},
		{"empty for a while", namespace("empty", true), false, now.Add(-40 * time.Second), Decision{Wait: 20 * time.Second}},
		{"empty past the grace", namespace("empty", true), false, now.Add(-grace), Decision{Delete: true, Forget: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Decide(tc.ns, tc.occupied, tc.since, now, grace); got != tc.want {
				t.Errorf("Decide = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestController checks, on client-go's fakes, that an empty namespace
// of the syncer's waits out the grace, measured from when it was first
// found empty, and is then deleted by its UID, while an occupied one and
// another's stay.
func TestController(t *testing.T) {
	empty, busy, other := namespace("empty", true), namespace("busy", true), namespace("other", false)
	client := fake.NewClientset(empty, busy, other)
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, ns := range []*corev1.Namespace{empty, busy, other} {
		if err := indexer.Add(ns); err != nil {
			t.Fatal(err)
		}
	}
	requeued := map[Key]time.Duration{}
	var deletes int
	c := New(client, corelisters.NewNamespaceLister(indexer),
		func(ns string) (bool, error) { return ns == "busy", nil },
		func(k Key, d time.Duration) { requeued[k] = d },
		func(error) { deletes++ },
		50*time.Millisecond)
	ctx := context.Background()
	for _, k := range []Key{"empty", "busy", "other", "gone"} {
		if err := c.Sync(ctx, k); err != nil {
			t.Fatalf("sync %s: %v", k, err)
		}
	}
	if len(requeued) != 1 || requeued["empty"] <= 0 {
		t.Fatalf("requeued %v, want only the empty namespace, after the grace", requeued)
	}
	if len(client.Actions()) != 0 {
		t.Fatalf("wrote %v before the grace ended", client.Actions())
	}
	time.Sleep(requeued["empty"])
	if err := c.Sync(ctx, "empty"); err != nil {
		t.Fatal(err)
	}
	actions := client.Actions()
	if len(actions) != 1 || actions[0].GetVerb() != "delete" || deletes != 1 {
		t.Fatalf("actions %v after the grace, want the one delete of the empty namespace", actions)
	}
	if _, err := client.CoreV1().Namespaces().Get(ctx, "empty", metav1.GetOptions{}); err == nil {
		t.Error("the empty namespace is still there")
	}
	for _, name := range []string{"busy", "other"} {
		if _, err := client.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{}); err != nil {
			t.Errorf("namespace %s: %v", name, err)
		}
	}
}

// TestName checks that a syncer adopts the downstream namespace it made
// before its target's key was part of the name, and only its own one of
// that origin not being deleted; any other origin gets the name with the
// key.
func TestName(t *testing.T) {
	key, other := workloadv1alpha1.TargetKey("root", "pc1"), workloadv1alpha1.TargetKey("root", "pc1-b")
	legacy := func(key, cluster, ns string, deleting bool) *corev1.Namespace {
		n := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
			Name:        workloadv1alpha1.LegacyDownstreamNamespace(cluster, ns),
			Labels:      map[string]string{workloadv1alpha1.TargetKeyLabel: key},
			Annotations: map[string]string{workloadv1alpha1.OriginClusterAnnotation: cluster, workloadv1alpha1.OriginNamespaceAnnotation: ns},
		}}
		if deleting {
			n.DeletionTimestamp = &metav1.Time{Time: time.Now()}
		}
		return n
	}
	for _, tc := range []struct {
		name   string
		found  *corev1.Namespace
		legacy bool
	}{
		{"none", nil, false},
		{"its own legacy namespace", legacy(key, "root:a", "ns1", false), true},
		{"another target's", legacy(other, "root:a", "ns1", false), false},
		{"being deleted", legacy(key, "root:a", "ns1", true), false},
		// A hash collision or a hand-made namespace: its origin is not this one.
		{"another origin", func() *corev1.Namespace {
			n := legacy(key, "root:b", "ns1", false)
			n.Name = workloadv1alpha1.LegacyDownstreamNamespace("root:a", "ns1")
			return n
		}(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
			if tc.found != nil {
				if err := indexer.Add(tc.found); err != nil {
					t.Fatal(err)
				}
			}
			want := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")
			if tc.legacy {
				want = workloadv1alpha1.LegacyDownstreamNamespace("root:a", "ns1")
			}
			if got := Name(corelisters.NewNamespaceLister(indexer), key, "root:a", "ns1"); got != want {
				t.Errorf("Name = %s, want %s", got, want)
			}
		})
	}
}
