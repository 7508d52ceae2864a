package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestErrorType(t *testing.T) {
	gr := schema.GroupResource{Group: "apps", Resource: "deployments"}
	for want, err := range map[string]error{
		"conflict":     fmt.Errorf("updating the hub object: %w", apierrors.NewConflict(gr, "web", errors.New("changed"))),
		"forbidden":    apierrors.NewForbidden(gr, "web", errors.New("no")),
		"unauthorized": apierrors.NewUnauthorized("who"),
		"not_found":    apierrors.NewNotFound(gr, "web"),
		"invalid":      apierrors.NewInvalid(gr.WithVersion("v1").GroupVersion().WithKind("Deployment").GroupKind(), "web", nil),
		"throttled":    apierrors.NewTooManyRequests("slow down", 1),
		"timeout":      fmt.Errorf("applying: %w", context.DeadlineExceeded),
		"other":        errors.New("something else"),
	} {
		if got := ErrorType(err); got != want {
			t.Errorf("ErrorType(%v) = %q, want %q", err, got, want)
		}
	}
	if got := ErrorType(&net.OpError{Op: "dial", Err: timeoutError{}}); got != "timeout" {
		t.Errorf("a network timeout is of type %q", got)
	}
	if got := ErrorType(apierrors.NewServerTimeout(gr, "update", 1)); got != "timeout" {
		t.Errorf("a server timeout is of type %q", got)
	}
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// The latency of a sync counts from the first change observed since the
// last successful sync, through failed attempts; a change observed while
// a sync runs starts the next one.
func TestTimed(t *testing.T) {
	var times ObservedTimes[string]
	k := "root:a/ns1/web"
	t0 := time.Now().Add(-time.Minute)
	times.Observed(k, t0)
	times.Observed(k, t0.Add(time.Second))

	var got []time.Time
	fail := errors.New("failed")
	result := fail
	sync := Timed(&times, func(ctx context.Context, _ string) error {
		at, _ := ctx.Value(observedKey{}).(time.Time)
		got = append(got, at)
		return result
	})
	if err := sync(context.Background(), k); err != fail {
		t.Fatalf("Timed changed the sync's error to %v", err)
	}
	result = nil
	_ = sync(context.Background(), k)
	if len(got) != 2 || !got[0].Equal(t0) || !got[1].Equal(t0) {
		t.Errorf("the sync and its retry saw observed times %v, want %v twice", got, t0)
	}

	t1 := time.Now()
	sync = Timed(&times, func(ctx context.Context, k string) error {
		times.Observed(k, t1)
		_, ok := ctx.Value(observedKey{}).(time.Time)
		if ok {
			t.Error("a sync with nothing observed has an observed time")
		}
		return nil
	})
	_ = sync(context.Background(), k)
	if at, ok := times.take(k); !ok || !at.Equal(t1) {
		t.Errorf("a change observed during a sync is kept for the next as %v %v, want %v", at, ok, t1)
	}
}
