package e2e

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
)

// replicas are hub processes that are one hub: replicas on one database,
// each with a data directory and port of its own and the same identity
// key, behind a balancer, as `replicas: 3` would run them.
type replicas struct {
	t    *testing.T
	hubs []*hub
	// keyFile is the --identity-key-file every replica is given.
	keyFile string
	// fingerprint is the CA fingerprint of the hub's identity, as hub
	// init printed it.
	fingerprint string
	lb          *balancer
}

var initFingerprint = regexp.MustCompile(`CA fingerprint (sha256:[0-9a-f]{64})`)

// startReplicas starts n replicas of one hub on datastore, a PostgreSQL
// database of the test's own (pgtest), each started with flags too,
// after hub init has made the hub's identity and its key file. They
// start at once, and it returns when every one serves, with a balancer
// in front of them.
func startReplicas(t *testing.T, n int, datastore string, flags ...string) *replicas {
	t.Helper()
	bin := buildHub(t)
	r := &replicas{t: t, keyFile: filepath.Join(t.TempDir(), "identity.key")}
	out, err := exec.Command(bin, "init", "--datastore", datastore, "--identity-key-file", r.keyFile, "--data-dir", t.TempDir()).CombinedOutput()
	if err != nil {
		t.Fatalf("hub init: %v\n%s", err, out)
	}
	m := initFingerprint.FindSubmatch(out)
	if m == nil {
		t.Fatalf("hub init printed no CA fingerprint:\n%s", out)
	}
	r.fingerprint = string(m[1])
	flags = append([]string{"--identity-key-file", r.keyFile}, flags...)
	backends := make([]string, n)
	for i := range n {
		h := &hub{bin: bin, dataDir: t.TempDir(), datastore: datastore, port: freePort(t), flags: flags}
		h.launch(t)
		r.hubs = append(r.hubs, h)
		backends[i] = h.addr()
	}
	for _, h := range r.hubs {
		h.waitReady(t)
	}
	r.lb = startBalancer(t, backends...)
	return r
}

// startReplica starts another replica of h, on its datastore with its
// flags and identity key.
func startReplica(t *testing.T, h *hub) *hub {
	t.Helper()
	flags := h.flags
	if !slices.Contains(flags, "--identity-key-file") {
		flags = append(slices.Clip(flags), "--identity-key-file", filepath.Join(h.dataDir, "identity.key"))
	}
	r := &hub{bin: h.bin, dataDir: t.TempDir(), datastore: h.datastore, port: freePort(t), flags: flags}
	r.start(t)
	return r
}

// addr is the host:port h serves on.
func (h *hub) addr() string { return "127.0.0.1:" + strconv.Itoa(h.port) }

// kill kills replica i with SIGKILL, as a crash of its machine would end
// it, and waits until it is gone.
func (r *replicas) kill(i int) {
	r.t.Helper()
	h := r.hubs[i]
	if h.cmd == nil {
		r.t.Fatalf("replica %d is not running", i)
	}
	_ = h.cmd.Process.Kill()
	_ = h.cmd.Wait()
	h.cmd = nil
}

// restart starts replica i again, on its data directory and port, and
// waits until it serves.
func (r *replicas) restart(i int) {
	r.t.Helper()
	r.hubs[i].start(r.t)
}

// kubectl is a kubectl for the admin through the balancer, its context
// root reaching logical cluster root.
func (r *replicas) kubectl() kubectl {
	r.t.Helper()
	k := r.hubs[0].admin(r.t)
	k.must("config", "set-cluster", "root", "--server", "https://"+r.lb.Addr()+"/clusters/root")
	return k
}

// servers are the https://host:port of every replica, then of the
// balancer.
func (r *replicas) servers() []string {
	var servers []string
	for _, h := range r.hubs {
		servers = append(servers, "https://"+h.addr())
	}
	return append(servers, "https://"+r.lb.Addr())
}

// waitExit waits up to a minute for h, started with launch, to exit by
// itself, as a replica that refuses to start does, and returns what it
// printed, or fails the test if it is still running or exited 0.
func (h *hub) waitExit(t *testing.T) string {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- h.cmd.Wait() }()
	select {
	case err := <-done:
		h.cmd = nil
		if err == nil {
			t.Fatalf("hub start exited 0:\n%s", h.log.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("hub start still runs after a minute, not refusing:\n%s", h.log.String())
	}
	return h.log.String()
}
