package tcpbalancer

import (
	"io"
	"net"
	"sync"
	"time"
)

// dialTimeout bounds connecting to one backend; a backend that neither
// accepts nor refuses within it is skipped for the next.
const dialTimeout = time.Second

// Balancer balances TCP connections over backends, host:port addresses.
type Balancer struct {
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

// Start listens on a free loopback port and balances connections over
// backends until Close.
func Start(backends ...string) (*Balancer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b := &Balancer{l: l, backends: backends, routes: map[string]string{}, open: map[net.Conn]struct{}{}}
	b.wg.Go(b.serve)
	return b, nil
}

// Addr is the host:port clients connect to.
func (b *Balancer) Addr() string { return b.l.Addr().String() }

// BackendOf is the backend the connection from client, the client's
// local address, went to; false if the balancer saw no such connection
// or could not place it.
func (b *Balancer) BackendOf(client net.Addr) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	backend, ok := b.routes[client.String()]
	return backend, ok
}

// Backends counts the connections each backend got.
func (b *Balancer) Backends() map[string]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	counts := map[string]int{}
	for _, backend := range b.routes {
		counts[backend]++
	}
	return counts
}

func (b *Balancer) serve() {
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

// track remembers c for Close; false once the balancer is closed.
func (b *Balancer) track(c net.Conn) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		_ = c.Close()
		return false
	}
	b.open[c] = struct{}{}
	return true
}

func (b *Balancer) untrack(c net.Conn) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.open, c)
}

// proxy connects client to the next backend that accepts a connection,
// trying each once, and copies between them until either side closes.
func (b *Balancer) proxy(client net.Conn) {
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
func (b *Balancer) dial() (string, net.Conn) {
	b.mu.Lock()
	start := b.next
	b.next = (b.next + 1) % len(b.backends)
	b.mu.Unlock()
	for i := range b.backends {
		backend := b.backends[(start+i)%len(b.backends)]
		c, err := net.DialTimeout("tcp", backend, dialTimeout)
		if err == nil {
			return backend, c
		}
	}
	return "", nil
}

// Close stops accepting, ends every connection and waits for the
// goroutines that served them.
func (b *Balancer) Close() {
	_ = b.l.Close()
	b.mu.Lock()
	b.closed = true
	for c := range b.open {
		_ = c.Close()
	}
	b.mu.Unlock()
	b.wg.Wait()
}
