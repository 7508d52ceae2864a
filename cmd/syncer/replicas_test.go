package main

import (
	"context"
	"net"
	"testing"
)

// TestHubReplicas checks that connections to the kubeconfig's server go
// to the first replica that takes them, stay with it while it does, even
// once an earlier one is back, and move on when it stops; and that other
// addresses are dialed as they are.
func TestHubReplicas(t *testing.T) {
	listen := func(address string) net.Listener {
		t.Helper()
		l, err := net.Listen("tcp", address)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = l.Close() })
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
