package tunnel

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/yamux"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/authentication/user"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func TestPodPath(t *testing.T) {
	p := PodPath("root:a", "ns1", "web-1", "log")
	if p != "/clusters/root:a/api/v1/namespaces/ns1/pods/web-1/log" {
		t.Fatalf("PodPath: %s", p)
	}
	cluster, ns, name, sub, ok := ParsePodPath(p)
	if !ok || cluster != "root:a" || ns != "ns1" || name != "web-1" || sub != "log" {
		t.Errorf("ParsePodPath(%s): %s %s %s %s %v", p, cluster, ns, name, sub, ok)
	}
	for _, bad := range []string{
		"/api/v1/namespaces/ns1/pods/web-1/log",
		"/clusters/root:a/api/v1/namespaces/ns1/pods/web-1",
		"/clusters/root:a/api/v1/namespaces/ns1/pods/web-1/log/../../secrets",
		"/clusters/root:a/api/v1/namespaces/ns1/secrets/web-1/log",
		"/clusters/root:a/apis/apps/v1/namespaces/ns1/pods/web-1/log",
		"/clusters/Not-A-Cluster/api/v1/namespaces/ns1/pods/web-1/log",
		"/clusters/root:a/api/v1/namespaces//pods/web-1/log",
	} {
		if _, _, _, _, ok := ParsePodPath(bad); ok {
			t.Errorf("ParsePodPath(%s) took it", bad)
		}
	}
}

func TestSyncerOf(t *testing.T) {
	target := Target{Cluster: "root", Name: "pc1"}
	syncer := func(cluster, name string, uid bool) user.Info {
		groups := []string{workloadv1alpha1.SyncersGroup, workloadv1alpha1.SyncTargetGroup(cluster, name)}
		if uid {
			groups = append(groups, workloadv1alpha1.SyncTargetUIDGroup("u1"))
		}
		return &user.DefaultInfo{Name: workloadv1alpha1.SyncerUser(workloadv1alpha1.TargetKey(cluster, name)), Groups: groups}
	}
	if uid, err := syncerOf(syncer("root", "pc1", true), target); err != nil || uid != "u1" {
		t.Errorf("pc1's syncer: %q %v", uid, err)
	}
	for name, u := range map[string]user.Info{
		"nobody":              nil,
		"an admin":            &user.DefaultInfo{Name: "admin", Groups: []string{user.SystemPrivilegedGroup}},
		"pc2's syncer":        syncer("root", "pc2", true),
		"root:a's pc1":        syncer("root:a", "pc1", true),
		"a credential no UID": syncer("root", "pc1", false),
	} {
		if _, err := syncerOf(u, target); err == nil {
			t.Errorf("%s opened pc1's tunnel", name)
		}
	}
}

// pipeTunnel serves h's tunnel of t over one end of a pipe and handler
// at the other, as the agent does; closing the returned session ends it.
func pipeTunnel(t *testing.T, h *Hub, target Target, handler http.Handler) *yamux.Session {
	hubEnd, syncerEnd := net.Pipe()
	go h.serve(context.Background(), target, "u1", hubEnd)
	mux, err := yamux.Server(syncerEnd, MuxConfig())
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = http.Serve(mux, handler) }()
	for deadline := time.Now().Add(10 * time.Second); !h.Connected(target); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the tunnel was not registered within 10s")
		}
	}
	return mux
}

func TestHubDial(t *testing.T) {
	h := NewHub(nil)
	target := Target{Cluster: logicalcluster.Root, Name: "pc1"}
	if _, err := h.Dial(context.Background(), target); !apierrors.IsServiceUnavailable(err) || !strings.Contains(err.Error(), "SyncTarget root:pc1 is not connected") {
		t.Fatalf("Dial with no tunnel: %v, want 503 naming the target", err)
	}
	lines := make(chan string)
	mux := pipeTunnel(t, h, target, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for line := range lines {
			_, _ = io.WriteString(w, line)
			w.(http.Flusher).Flush()
		}
	}))
	req, _ := http.NewRequest(http.MethodGet, "http://syncer/x", nil)
	resp, err := RoundTripper(h, target).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	lines <- "first\n"
	buf := make([]byte, 6)
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != "first\n" {
		t.Fatalf("read %q, %v", buf, err)
	}
	// The syncer's end goes: the stream breaks, it does not just end.
	mux.Close()
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Error("a stream whose tunnel closed mid-response ended without an error")
	}
	for deadline := time.Now().Add(10 * time.Second); h.Connected(target); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the closed tunnel was still registered after 10s")
		}
	}
	if _, err := h.Dial(context.Background(), target); !apierrors.IsServiceUnavailable(err) {
		t.Errorf("Dial once the tunnel closed: %v, want 503", err)
	}
}
