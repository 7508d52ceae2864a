package proc

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Hub is a hub process on a datastore, with its data directory.
type Hub struct {
	*Process
	DataDir string
	Port    int
	client  *http.Client
}

// readyTimeout bounds a hub's start up to /readyz answering.
const readyTimeout = 60 * time.Second

// StartHub starts hub binary bin on datastore dsn with its own data
// directory and a free port, the log in logPath and any extra flags, and
// waits until it is ready.
func StartHub(tb testing.TB, bin, dsn, logPath string, flags ...string) *Hub {
	tb.Helper()
	h := &Hub{DataDir: tb.TempDir(), Port: freePort(tb)}
	args := append([]string{"start", "--data-dir", h.DataDir, "--secure-port", strconv.Itoa(h.Port), "--datastore", dsn}, flags...)
	h.Process = Start(tb, logPath, bin, args...)
	for deadline := time.Now().Add(readyTimeout); ; time.Sleep(200 * time.Millisecond) {
		_, err := h.Get("/readyz", 5*time.Second)
		if err == nil {
			return h
		}
		if time.Now().After(deadline) {
			tb.Fatalf("the hub is not ready after %v: %v\n%s", readyTimeout, err, h.LogTail())
		}
	}
}

func freePort(tb testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// URL is the hub's https://host:port.
func (h *Hub) URL() string { return fmt.Sprintf("https://127.0.0.1:%d", h.Port) }

// AdminKubeconfig is the path of the kubeconfig of the hub's admin.
func (h *Hub) AdminKubeconfig() string { return filepath.Join(h.DataDir, "admin.kubeconfig") }

// adminClient talks HTTPS to the hub as admin, with the certificates in
// <data-dir>/pki, for what client-go does not do: /readyz, /metrics,
// /debug/pprof.
func (h *Hub) adminClient() (*http.Client, error) {
	if h.client != nil {
		return h.client, nil
	}
	pki := filepath.Join(h.DataDir, "pki")
	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	admin, err := tls.LoadX509KeyPair(filepath.Join(pki, "admin.crt"), filepath.Join(pki, "admin.key"))
	if err != nil {
		return nil, err
	}
	h.client = &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{admin}},
	}}
	return h.client, nil
}

// Get reads path from the hub as admin; an answer other than 200 OK is an
// error.
func (h *Hub) Get(path string, timeout time.Duration) ([]byte, error) {
	client, err := h.adminClient()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL()+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s: %.200s", path, resp.Status, body)
	}
	return body, nil
}

// FetchTo writes what Get reads from path into file.
func (h *Hub) FetchTo(path, file string, timeout time.Duration) error {
	body, err := h.Get(path, timeout)
	if err != nil {
		return err
	}
	return os.WriteFile(file, body, 0o644)
}

// HubBinary is the hub binary in CANOPY_HUB, or else cmd/hub built now.
func HubBinary(tb testing.TB) string {
	tb.Helper()
	if bin := os.Getenv("CANOPY_HUB"); bin != "" {
		return bin
	}
	return Build(tb, "github.com/canopy-dev/canopy/cmd/hub")
}
