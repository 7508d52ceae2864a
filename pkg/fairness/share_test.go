package fairness

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// A logical cluster holds at most its share; its other requests wait in
// line, first come first served, a full line and a wait that ends first
// are refused saying which limit to raise, other logical clusters are
// not held up, and a logical cluster with nothing in flight leaves no
// trace.
func TestShare(t *testing.T) {
	s := newShare(4, 50)
	if s.limit != 1 {
		t.Fatalf("4 seats at 50%%: a logical cluster may hold %d, want 1", s.limit)
	}
	ctx := context.Background()
	hold, err := s.acquire(ctx, "root:flood")
	if err != nil {
		t.Fatal(err)
	}
	// Others are not held up by the flood's share.
	other, err := s.acquire(ctx, "root:steady")
	if err != nil {
		t.Fatal(err)
	}
	other()

	// The flood's next requests wait, in the order they came.
	order := make(chan int, 3)
	for i := range 3 {
		go func() {
			release, err := s.acquire(ctx, "root:flood")
			if err != nil {
				t.Error(err)
				return
			}
			order <- i
			release()
		}()
		waitFor(t, func() bool { return waiting(s, "root:flood") == i+1 })
	}
	select {
	case i := <-order:
		t.Fatalf("request %d went through while the share was held", i)
	case <-time.After(50 * time.Millisecond):
	}
	hold()
	for want := range 3 {
		if got := <-order; got != want {
			t.Fatalf("request %d went through %dth", got, want+1)
		}
	}
	waitFor(t, func() bool { return lines(s) == 0 })

	// A wait that ends before its turn is refused and leaves the line.
	hold, _ = s.acquire(ctx, "root:flood")
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := s.acquire(short, "root:flood"); err == nil || !strings.Contains(err.Error(), "waited too long") {
		t.Errorf("a wait past its deadline: %v", err)
	}
	if n := waiting(s, "root:flood"); n != 0 {
		t.Errorf("%d still waiting after their deadline", n)
	}

	// A full line refuses at once, naming the flag.
	for range MaxWaitingPerCluster {
		go func() {
			if release, err := s.acquire(ctx, "root:flood"); err == nil {
				release()
			}
		}()
	}
	waitFor(t, func() bool { return waiting(s, "root:flood") == MaxWaitingPerCluster })
	_, err = s.acquire(ctx, "root:flood")
	if err == nil || !strings.Contains(err.Error(), "--max-seats-per-cluster-percent=50") || !strings.Contains(err.Error(), "root:flood") {
		t.Errorf("a request past a full line: %v", err)
	}
	hold()
	waitFor(t, func() bool { return lines(s) == 0 })
}

// The share is a percent of the workload level's nominal seats, at least
// one, as upstream's controller splits the server's seats among levels.
func TestShareSize(t *testing.T) {
	for _, c := range []struct{ seats, percent, limit, of int }{
		{4, 50, 1, 3},
		{4, 1, 1, 3},
		{20, 50, 6, 12},
		{600, 50, 176, 352},
		{600, 25, 88, 352},
	} {
		s := newShare(c.seats, c.percent)
		if s.limit != c.limit || s.seats != c.of {
			t.Errorf("%d seats at %d%%: %d of %d, want %d of %d", c.seats, c.percent, s.limit, s.seats, c.limit, c.of)
		}
	}
	if s := newShare(600, 100); s != nil {
		t.Errorf("100%% caps at %d, want no cap", s.limit)
	}
}

func waiting(s *share, cluster logicalcluster.Name) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.clusters[cluster]; l != nil {
		return l.waiting.Len()
	}
	return 0
}

func lines(s *share) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.clusters)
}

// waitFor polls cond for up to 10 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met after 10s")
		}
	}
}
