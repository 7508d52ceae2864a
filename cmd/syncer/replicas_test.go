package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/rest"
)

// TestHubReplicas checks that connections to the kubeconfig's server go
// to the first replica that takes them, stay with it while it does, even
// once an earlier one is back, and move on when it stops; and that other
// addresses are dialed as they are.
func TestHubReplicas(t *testing.T) {
	// listen listens on address and answers each connection with a
	// byte, as a live replica would.
	listen := func(address string) net.Listener {
		t.Helper()
		l, err := net.Listen("tcp", address)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				_, _ = c.Write([]byte{1})
				t.Cleanup(func() { _ = c.Close() })
			}
		}()
		return l
	}
	a, b, other := listen("127.0.0.1:0"), listen("127.0.0.1:0"), listen("127.0.0.1:0")
	aAddr, bAddr := a.Addr().String(), b.Addr().String()
	h, err := newHubReplicas("https://hub.example.com:6443/clusters/root", []string{"https://" + aAddr, "https://" + bAddr + "/"})
	if err != nil {
		t.Fatal(err)
	}
	// dial connects to the kubeconfig's server and says which listener
	// took the connection.
	dial := func(want string, ls ...net.Listener) {
		t.Helper()
		conn, err := h.DialContext(context.Background(), "tcp", "hub.example.com:6443")
		if err != nil {
			t.Fatalf("dialing the hub, want %s: %v", want, err)
		}
		defer conn.Close()
		if got := conn.RemoteAddr().String(); got != want {
			t.Fatalf("connected to %s, want %s", got, want)
		}
		if _, err := io.ReadFull(conn, make([]byte, 1)); err != nil {
			t.Fatal(err)
		}
	}
	dial(aAddr)
	dial(aAddr)
	_ = a.Close()
	dial(bAddr)
	listen(aAddr)
	dial(bAddr)
	_ = b.Close()
	dial(aAddr)

	conn, err := h.DialContext(context.Background(), "tcp", other.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	if got := conn.RemoteAddr().String(); got != other.Addr().String() {
		t.Errorf("a connection to %s went to %s", other.Addr(), got)
	}

	for _, bad := range []string{"http://" + aAddr, "https://" + aAddr + "/clusters/root", "https://"} {
		if _, err := newHubReplicas("https://hub.example.com", []string{bad}); err == nil {
			t.Errorf("--hub-url %q was taken", bad)
		}
	}
}

// TestHubDeadConnection checks that a connection to the hub that stops
// carrying anything without closing, as one to a replica whose machine
// died, ends the requests on it, a watch's long response included, and
// that the next request goes to another replica of --hub-url.
func TestHubDeadConnection(t *testing.T) {
	t.Parallel()
	ca := newTestCA(t)
	serve := func(name string) *httptest.Server {
		s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, name+"\n")
			w.(http.Flusher).Flush()
			if r.URL.Path == "/watch" {
				<-r.Context().Done()
			}
		}))
		s.EnableHTTP2 = true
		s.StartTLS()
		t.Cleanup(s.Close)
		return s
	}
	first, second := serve("first"), serve("second")
	frozen := startFreezer(t, first.Listener.Addr().String())
	path := filepath.Join(t.TempDir(), "kubeconfig")
	ca.writeKubeconfig(t, path, first, "https://"+frozen.addr(), "syncer", 2)
	// Both test servers serve httptest's one certificate, for 127.0.0.1.
	cfg, _, err := hubConfig(path, []string{"https://" + frozen.addr(), second.URL})
	if err != nil {
		t.Fatal(err)
	}
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := client.Get(cfg.Host + path)
		if err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(resp.Body).ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if resp.ProtoMajor != 2 {
			t.Fatalf("%s over %s, want HTTP/2", path, resp.Proto)
		}
		return resp, strings.TrimSpace(line)
	}
	watch, from := get("/watch")
	if from != "first" {
		t.Fatalf("the watch is served by %s, want first", from)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, watch.Body)
		ended <- err
	}()
	frozen.freeze()
	frozenAt := time.Now()
	select {
	case err := <-ended:
		t.Logf("the watch on the dead connection ended %s after it died: %v", time.Since(frozenAt).Round(100*time.Millisecond), err)
	case <-time.After(time.Minute):
		t.Fatal("the watch on a dead connection has not ended within a minute")
	}
	// The dead replica still takes connections, and says nothing on
	// them: the client gives up on it and tries the next. A request
	// fails meanwhile, and is tried again, as client-go's are.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		resp, err := client.Get(cfg.Host + "/")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if from := strings.TrimSpace(string(body)); from != "second" {
				t.Fatalf("the request after the connection died is served by %s, want second", from)
			}
			t.Logf("the second replica served a request %s after the first died", time.Since(frozenAt).Round(100*time.Millisecond))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no request served within a minute of the first replica's death: %v", err)
		}
	}
}

// freezer is a TCP proxy to one backend whose connections, once frozen,
// carry nothing more, and stay open, as those to a machine that died.
type freezer struct {
	l      net.Listener
	frozen chan struct{}
}

func startFreezer(t *testing.T, backend string) *freezer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &freezer{l: l, frozen: make(chan struct{})}
	var conns []net.Conn
	var mu sync.Mutex
	t.Cleanup(func() {
		_ = l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	go func() {
		for {
			client, err := l.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", backend)
			if err != nil {
				_ = client.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, client, server)
			mu.Unlock()
			go f.pipe(server, client)
			go f.pipe(client, server)
		}
	}()
	return f
}

func (f *freezer) addr() string { return f.l.Addr().String() }

func (f *freezer) freeze() { close(f.frozen) }

// pipe copies src to dst until the freezer is frozen, then holds what it
// read.
func (f *freezer) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		select {
		case <-f.frozen:
			return
		default:
		}
		if n > 0 {
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
