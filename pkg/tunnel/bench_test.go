package tunnel

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/hashicorp/yamux"
)

// BenchmarkFirstByte measures a GET answered with a short body, as the
// first bytes of a log: through a tunnel over loopback TCP, a new stream
// each, and, as the baseline, straight over loopback TCP, a new
// connection each. The ratio of the two is the tunnel's own cost, without
// the hub's handler chain and the physical cluster's API server around it.
func BenchmarkFirstByte(b *testing.B) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "a log line\n") })
	get := func(b *testing.B, rt http.RoundTripper) {
		for b.Loop() {
			req, _ := http.NewRequest(http.MethodGet, "http://syncer/log", nil)
			resp, err := rt.RoundTrip(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	b.Run("direct", func(b *testing.B) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		go func() { _ = http.Serve(l, handler) }()
		var d net.Dialer
		get(b, &http.Transport{DisableKeepAlives: true, DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return d.DialContext(ctx, "tcp", l.Addr().String())
		}})
	})
	b.Run("tunnel", func(b *testing.B) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		h := NewHub(nil)
		target := Target{Cluster: "root", Name: "pc1"}
		go func() {
			conn, err := l.Accept()
			if err == nil {
				h.serve(b.Context(), target, "u1", conn)
			}
		}()
		conn, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			b.Fatal(err)
		}
		mux, err := yamux.Server(conn, MuxConfig())
		if err != nil {
			b.Fatal(err)
		}
		defer mux.Close()
		go func() { _ = http.Serve(mux, handler) }()
		for !h.Connected(target) {
			time.Sleep(time.Millisecond)
		}
		get(b, RoundTripper(h, target))
	})
}
