package sync

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The Ready condition says Starting, naming the informer waited for,
// until the work starts; then HubUnreachable while a list or watch at
// the hub fails, naming it; and True once they all answer, which wakes
// the heartbeat and requeues the work.
func TestReadinessCondition(t *testing.T) {
	r := newReadiness()
	reconnected := 0
	r.reconnected = func() { reconnected++ }
	synced := false
	informers := []namedSync{
		{"the hub's deployments.apps", func() bool { return true }},
		{"deployments.apps in the physical cluster", func() bool { return synced }},
	}
	check := func(status metav1.ConditionStatus, reason, message string) {
		t.Helper()
		c := r.condition(informers)
		if c.Status != status || c.Reason != reason || !strings.Contains(c.Message, message) {
			t.Fatalf("Ready %s %s %q, want %s %s with %q", c.Status, c.Reason, c.Message, status, reason, message)
		}
	}
	check(metav1.ConditionFalse, ReasonStarting, "waiting for the informer of deployments.apps in the physical cluster to sync")
	synced = true
	r.failed("the hub's pods", errors.New("connection refused"))
	r.start()
	<-r.wake
	check(metav1.ConditionFalse, ReasonHubUnreachable, "listing and watching the hub's pods fails since")
	r.failed("the hub's deployments.apps", errors.New("connection refused"))
	check(metav1.ConditionFalse, ReasonHubUnreachable, "(and 1 more)")
	r.answered("the hub's pods")
	if reconnected != 0 || len(r.wake) != 0 {
		t.Fatalf("reconnected %d times, woke %d, while one informer still fails", reconnected, len(r.wake))
	}
	r.answered("the hub's deployments.apps")
	check(metav1.ConditionTrue, ReasonSyncing, "")
	if reconnected != 1 || len(r.wake) != 1 {
		t.Fatalf("reconnected %d times, woke %d, once every informer answers; want 1, 1", reconnected, len(r.wake))
	}
	r.answered("the hub's deployments.apps")
	if reconnected != 1 {
		t.Fatalf("reconnected again on an answer while nothing failed")
	}
}

// A list or watch that finds no hub, or a hub not ready to serve, is
// tried again every hubRetry until it answers; any other answer is the
// reflector's to handle.
func TestUntilAnswered(t *testing.T) {
	gr := schema.GroupResource{Group: "apps", Resource: "deployments"}
	for _, tc := range []struct {
		name    string
		errs    []error
		calls   int
		failing bool
	}{
		{name: "answered", errs: []error{nil}, calls: 1},
		{name: "refused, then answered", errs: []error{errors.New("dial tcp: connect: connection refused"), nil}, calls: 2},
		{name: "unavailable, then answered", errs: []error{apierrors.NewServiceUnavailable("starting"), apierrors.NewTooManyRequests("busy", 1), nil}, calls: 3},
		{name: "forbidden", errs: []error{apierrors.NewForbidden(gr, "", errors.New("revoked"))}, calls: 1, failing: true},
		{name: "expired", errs: []error{apierrors.NewResourceExpired("too old")}, calls: 1, failing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newReadiness()
			calls := 0
			start := time.Now()
			_, err := untilAnswered(context.Background(), r, "x", func() (int, error) {
				calls++
				return 0, tc.errs[calls-1]
			})
			if calls != tc.calls || (err != nil) != tc.failing || (len(r.failing) > 0) != tc.failing {
				t.Fatalf("%d calls, error %v, failing %v; want %d calls, failing %t", calls, err, r.failing, tc.calls, tc.failing)
			}
			if took := time.Since(start); took > time.Duration(tc.calls)*hubRetry {
				t.Errorf("took %s for %d calls", took, tc.calls)
			}
		})
	}
	// It ends with its context.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := untilAnswered(ctx, newReadiness(), "x", func() (int, error) { return 0, errors.New("connection refused") }); err == nil {
		t.Fatal("no error once the context ended")
	}
}
