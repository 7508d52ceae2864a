package tcpbalancer

import (
	"bufio"
	"net"
	"testing"
)

// echo serves on a free loopback port, answering each connection with
// its own address and a newline, until the test ends.
func echo(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
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
			_, _ = c.Write([]byte(l.Addr().String() + "\n"))
			_ = c.Close()
		}
	}()
	return l.Addr().String()
}

// TestBalancer sends connections round the backends in turn, skips one
// that refuses them, and remembers where each went.
func TestBalancer(t *testing.T) {
	a, b := echo(t), echo(t)
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadAddr := dead.Addr().String()
	_ = dead.Close()

	lb, err := Start(a, deadAddr, b)
	if err != nil {
		t.Fatal(err)
	}
	defer lb.Close()
	var got []string
	for range 3 {
		c, err := net.Dial("tcp", lb.Addr())
		if err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Fatalf("reading through the balancer: %v", err)
		}
		backend, ok := lb.BackendOf(c.LocalAddr())
		_ = c.Close()
		if !ok || backend+"\n" != line {
			t.Errorf("the balancer says the connection went to %q (%v); the backend answering was %q", backend, ok, line)
		}
		got = append(got, backend)
	}
	// In turn a, dead (skipped for b), b: a, b, b.
	want := []string{a, b, b}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("connections went to %v, want %v", got, want)
		}
	}
	if counts := lb.Backends(); counts[deadAddr] != 0 || counts[a] != 1 || counts[b] != 2 {
		t.Errorf("Backends() = %v", counts)
	}
}
