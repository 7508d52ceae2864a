package resourcequota

import (
	"testing"
	"time"
)

// returns fails t unless f returns within a minute: a wait of an hour
// that returned did not wait it out.
func returns(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s did not return", what)
	}
}

// TestGather checks when a charge waits for more requests to its
// namespace: never for a request alone or a retry; otherwise until
// enough have gathered, they stop coming or it has waited long enough;
// and that a namespace without requests in flight leaves nothing behind.
func TestGather(t *testing.T) {
	const key = "root/ns"
	g := &gather{gap: time.Hour, lingerMax: time.Hour, enough: 3, flows: map[string]*flow{}}

	done := g.arrive(key)
	g.take(key)
	returns(t, "the charge of a request alone", func() { g.linger(key) })
	done()
	if len(g.flows) != 0 {
		t.Errorf("a namespace without requests in flight keeps %d flows", len(g.flows))
	}

	// One request waits behind the batch: the charge waits until
	// enough have gathered.
	var dones []func()
	dones = append(dones, g.arrive(key))
	g.take(key)
	dones = append(dones, g.arrive(key))
	lingered := make(chan struct{})
	go func() { defer close(lingered); g.linger(key) }()
	for range g.enough - 1 {
		select {
		case <-lingered:
			t.Fatal("a charge stopped waiting before enough requests gathered")
		case <-time.After(10 * time.Millisecond):
		}
		dones = append(dones, g.arrive(key))
	}
	returns(t, "the charge once enough requests gathered", func() { <-lingered })

	// A retry after a conflict is charged at once.
	g.conflicted(key)
	g.take(key)
	dones = append(dones, g.arrive(key))
	returns(t, "a retried charge", func() { g.linger(key) })

	// The wait ends a gap after the last request, and after lingerMax.
	g.take(key)
	dones = append(dones, g.arrive(key))
	g.gap = time.Millisecond
	returns(t, "a charge after the requests stopped coming", func() { g.linger(key) })
	g.take(key)
	dones = append(dones, g.arrive(key))
	g.gap, g.lingerMax = time.Hour, time.Millisecond
	returns(t, "a charge that waited lingerMax", func() { g.linger(key) })

	for _, done := range dones {
		done()
	}
	if len(g.flows) != 0 {
		t.Errorf("a namespace without requests in flight keeps %d flows", len(g.flows))
	}
}
