package e2e

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// balancer is a TCP load balancer in front of hub replicas, as a cloud
// load balancer or a Kubernetes Service would be: each connection goes,
// whole, to the next backend in turn that accepts it, so a dead replica
// is skipped without any health check, and TLS passes through untouched.
type balancer struct {
	l        net.Listener
	backends []string

	mu   sync.Mutex
	next int
	// routes maps the client address of each connection accepted to the
	// backend it went to.
	routes map[string]string
	open   map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// startBalancer listens on a free loopback port and balances connections
// over backends, host:port addresses, until the test ends.
func startBalancer(t *testing.T, backends ...string) *balancer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &balancer{l: l, backends: backends, routes: map[string]string{}, open: map[net.Conn]struct{}{}}
	b.wg.Go(b.serve)
	t.Cleanup(b.close)
	return b
}

// Addr is the host:port clients connect to.
func (b *balancer) Addr() string { return b.l.Addr().String() }

// BackendOf is the backend the connection from client, the client's
// local address, went to; false if the balancer saw no such connection
// or could not place it.
func (b *balancer) BackendOf(client net.Addr) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	backend, ok := b.routes[client.String()]
	return backend, ok
}

// Backends counts the connections each backend got.
func (b *balancer) Backends() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	counts := map[string]int{}
	for _, backend := range b.routes {
		counts[backend]++
	}
	return counts
}

func (b *balancer) serve() {
	for {
		c, err := b.l.Accept()
		if err != nil {
			return
		}
		if !b.track(c) {
			return
		}
		b.wg.Go(func() { b.proxy(c) })
	}
}

// track remembers c for close; false once the balancer is closed.
func (b *balancer) track(c net.Conn) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		_ = c.Close()
		return false
	}
	b.open[c] = struct{}{}
	return true
}

func (b *balancer) untrack(c net.Conn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.open, c)
}

// proxy connects client to the next backend that accepts a connection,
// trying each once, and copies between them until either side closes.
func (b *balancer) proxy(client net.Conn) {
	defer b.untrack(client)
	defer client.Close()
	backend, server := b.dial()
	if server == nil {
		return
	}
	if !b.track(server) {
		return
	}
	defer b.untrack(server)
	defer server.Close()
	b.mu.Lock()
	b.routes[client.RemoteAddr().String()] = backend
	b.mu.Unlock()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		// Pass the end of one direction on; the other may still flow.
		if half, ok := dst.(interface{ CloseWrite() error }); ok {
			_ = half.CloseWrite()
		}
		done <- struct{}{}
	}
	go pipe(server, client)
	go pipe(client, server)
	<-done
	<-done
}

// dial returns the next backend in turn that accepts a connection, and
// the connection; nil if none does.
func (b *balancer) dial() (string, net.Conn) {
	b.mu.Lock()
	start := b.next
	b.next = (b.next + 1) % len(b.backends)
	b.mu.Unlock()
	for i := range b.backends {
		backend := b.backends[(start+i)%len(b.backends)]
		c, err := net.DialTimeout("tcp", backend, time.Second)
		if err == nil {
			return backend, c
		}
	}
	return "", nil
}

// close stops accepting, ends every connection and waits for the
// goroutines that served them.
func (b *balancer) close() {
	_ = b.l.Close()
	b.mu.Lock()
	b.closed = true
	for c := range b.open {
		_ = c.Close()
	}
	b.mu.Unlock()
	b.wg.Wait()
}
