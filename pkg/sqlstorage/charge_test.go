package sqlstorage

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/apis/example"
	"k8s.io/apiserver/pkg/storage"
)

// errOverQuota is the refusal of the test's quota.
var errOverQuota = errors.New("over quota")

// countQuota is a quota kept in a Pod's labels: used and hard counts.
func countQuota(obj runtime.Object) error {
	pod := obj.(*example.Pod)
	used, _ := strconv.Atoi(pod.Labels["used"])
	hard, _ := strconv.Atoi(pod.Labels["hard"])
	if used+1 > hard {
		return errOverQuota
	}
	pod.Labels["used"] = strconv.Itoa(used + 1)
	return nil
}

// createCharged creates name in s charged to the quota at quotaKey, as a
// request does: its tab open while admission charges it and the store
// writes it.
func createCharged(s *Store, quotaKey, name string) error {
	ctx := context.WithValue(context.Background(), chargeTestKey{}, name)
	l := s.b.Ledger()
	defer l.Open(ctx)()
	c, err := s.Charge(quotaKey, countQuota)
	if err != nil {
		return err
	}
	if !l.Add(ctx, c) {
		return fmt.Errorf("no tab open for %s", name)
	}
	pod := &example.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}}
	return s.Create(ctx, "/pods/ns/"+name, pod, nil, 0)
}

type chargeTestKey struct{}

// TestChargesAreExactAcrossProcesses has 64 creates race for a quota of
// 20 through two backends on one database, each with its own writer and
// connections, as two hub processes have: exactly 20 are stored and
// charged, the others are refused with the quota's error and stored
// nothing, and a create of a name that exists is not charged.
func TestChargesAreExactAcrossProcesses(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		stores := []*Store{newPodStore(openBackend(t, url)), newPodStore(openBackend(t, url))}
		ctx := context.Background()
		const hard, creators = 20, 64
		quotaKey := "/pods/quotas/q"
		quota := &example.Pod{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "quotas",
			Labels: map[string]string{"used": "0", "hard": strconv.Itoa(hard)}}}
		if err := stores[0].Create(ctx, quotaKey, quota, nil, 0); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, creators)
		for i := range creators {
			wg.Go(func() { errs[i] = createCharged(stores[i%2], quotaKey, fmt.Sprintf("p%d", i)) })
		}
		wg.Wait()
		created := 0
		for i, err := range errs {
			switch {
			case err == nil:
				created++
			case !errors.Is(err, errOverQuota):
				t.Errorf("create %d: %v, want success or the quota's refusal", i, err)
			}
		}
		if err := createCharged(stores[1], quotaKey, "p0"); !storage.IsExist(err) && !errors.Is(err, errOverQuota) {
			t.Errorf("creating p0 again: %v, want it to exist or the quota full", err)
		}
		got := &example.Pod{}
		if err := stores[1].Get(ctx, quotaKey, storage.GetOptions{}, got); err != nil {
			t.Fatal(err)
		}
		list := &example.PodList{}
		if err := stores[1].GetList(ctx, "/pods/ns", storage.ListOptions{Recursive: true, Predicate: storage.Everything}, list); err != nil {
			t.Fatal(err)
		}
		if created != hard || len(list.Items) != hard || got.Labels["used"] != strconv.Itoa(hard) {
			t.Errorf("created %d, stored %d, quota used %s; want each %d", created, len(list.Items), got.Labels["used"], hard)
		}
	})
}

// TestChargeSettlesBeforeAnUpdateOfTheQuota puts in one transaction a
// charged create, an update of the quota expecting the version the create
// read, and another charged create: the update conflicts, since the
// charge changed the quota before it, and both charges count.
func TestChargeSettlesBeforeAnUpdateOfTheQuota(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		s := newPodStore(openBackend(t, url))
		ctx := context.Background()
		quotaKey := "/pods/quotas/q"
		quota := &example.Pod{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: "quotas",
			Labels: map[string]string{"used": "0", "hard": "5"}}}
		stored := &example.Pod{}
		if err := s.Create(ctx, quotaKey, quota, stored, 0); err != nil {
			t.Fatal(err)
		}
		rev, _ := s.versioner.ObjectResourceVersion(stored)
		k, _ := s.prepareKey(quotaKey, false)
		charge, _ := s.Charge(quotaKey, countQuota)
		batch := []*op{
			{key: "/pods/ns/a", value: []byte("a"), charges: []Charge{charge}, done: make(chan struct{})},
			{key: k, value: []byte("update"), expect: int64(rev), done: make(chan struct{})},
			{key: "/pods/ns/b", value: []byte("b"), charges: []Charge{charge}, done: make(chan struct{})},
		}
		batch = s.b.commit(ctx, batch, nil)
		if !batch[0].applied || batch[1].applied || !batch[2].applied {
			t.Fatalf("applied %v %v %v, want the creates only", batch[0].applied, batch[1].applied, batch[2].applied)
		}
		events := committedEvents(batch)
		for i := 1; i < len(events); i++ {
			if events[i].rev != events[i-1].rev+1 {
				t.Errorf("events at revisions %d then %d, want them dense and in order", events[i-1].rev, events[i].rev)
			}
		}
		got := &example.Pod{}
		if err := s.Get(ctx, quotaKey, storage.GetOptions{}, got); err != nil {
			t.Fatal(err)
		}
		if got.Labels["used"] != "2" || len(events) != 4 {
			t.Errorf("quota used %s with %d events, want 2 with 4 (two creates, two quota versions)", got.Labels["used"], len(events))
		}
	})
}
