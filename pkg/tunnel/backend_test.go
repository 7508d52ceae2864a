package tunnel

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/proxy"
)

// TestProxyBackend proxies an upgrade, with UpgradeAwareHandler over
// real TCP, to a backend that writes its last output once the client
// has sent a byte and then resets its connection, as kwok ends an exec
// whose command read all it needed while kubectl still sends. The
// client's next bytes fail to reach the backend before the proxy has
// read that output (gatedConn holds it back): the output must still
// reach the client.
func TestProxyBackend(t *testing.T) {
	backend := resettingBackend(t, "the command's output and status")
	handler := proxy.NewUpgradeAwareHandler(&url.URL{Scheme: "http", Host: backend}, &http.Transport{
		DialContext: DialProxyBackend(func(ctx context.Context, network, address string) (net.Conn, error) {
			var d net.Dialer
			conn, err := d.DialContext(ctx, network, address)
			if err != nil {
				return nil, err
			}
			return &gatedConn{Conn: conn, closed: make(chan struct{}), failed: make(chan struct{})}, nil
		}),
	}, false, true, errorResponder{t})
	server := httptest.NewServer(handler)
	defer server.Close()

	conn, err := net.Dial("tcp", server.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: backend\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrading through the proxy: %v %v", resp, err)
	}
	// The client sends on, as kubectl's stdin end and pings do.
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			if _, err := io.WriteString(conn, "x"); err != nil {
				return
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	got, err := io.ReadAll(r)
	if string(got) != "the command's output and status" {
		t.Errorf("the client read %q (%v), want the backend's last output", got, err)
	}
}

// resettingBackend serves one upgrade: it answers 101, reads a byte,
// writes output and resets the connection.
func resettingBackend(t *testing.T, output string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		r := bufio.NewReader(conn)
		if _, err := http.ReadRequest(r); err != nil {
			return
		}
		if _, err := io.WriteString(conn, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: test\r\n\r\n"); err != nil {
			return
		}
		if _, err := r.ReadByte(); err != nil {
			return
		}
		_, _ = io.WriteString(conn, output)
		// No linger: a reset, whatever the client sends next.
		_ = conn.(*net.TCPConn).SetLinger(0)
	}()
	return l.Addr().String()
}

// gatedConn holds back reads after the upgrade's answer until the
// connection is closed, or a second after a write failed: the proxy
// reads the backend's last output only after it has seen its writes
// fail, which a loaded machine does now and then.
type gatedConn struct {
	net.Conn
	mu        sync.Mutex
	answer    bytes.Buffer
	answered  bool
	closeOnce sync.Once
	closed    chan struct{}
	failOnce  sync.Once
	failed    chan struct{}
}

func (c *gatedConn) Read(b []byte) (int, error) {
	c.mu.Lock()
	answered := c.answered
	c.mu.Unlock()
	if answered {
		select {
		case <-c.closed:
		case <-c.failed:
			select {
			case <-c.closed:
			case <-time.After(time.Second):
			}
		}
		return c.Conn.Read(b)
	}
	n, err := c.Conn.Read(b)
	c.mu.Lock()
	c.answer.Write(b[:n])
	c.answered = strings.Contains(c.answer.String(), "\r\n\r\n")
	c.mu.Unlock()
	return n, err
}

func (c *gatedConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	if err != nil {
		c.failOnce.Do(func() { close(c.failed) })
	}
	return n, err
}

func (c *gatedConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

type errorResponder struct{ t *testing.T }

func (r errorResponder) Error(w http.ResponseWriter, _ *http.Request, err error) {
	r.t.Errorf("the proxy failed: %v", err)
	http.Error(w, err.Error(), http.StatusBadGateway)
}
