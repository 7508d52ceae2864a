package e2e

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/util/cert"

	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/identity"
)

// TestReplicasOneIdentity runs three replicas of one hub on one
// PostgreSQL database: a kubeconfig written by the first, a
// ServiceAccount token issued by the second and a syncer credential that
// hub synctarget create signs on the third's machine are each good at
// every replica and through the balancer. A fourth hub started on the
// database with another identity key refuses to start, saying why, as
// hub init with that key does.
func TestReplicasOneIdentity(t *testing.T) {
	t.Parallel()
	datastore := pgtest.Shared(t).NewDatabase(t)
	r := startReplicas(t, 3, datastore)

	// One CA, the one hub init made, in every replica's data directory.
	for i, h := range r.hubs {
		if got := identity.Fingerprint(caOf(t, h)); got != r.fingerprint {
			t.Errorf("replica %d has CA %s, hub init made %s", i+1, got, r.fingerprint)
		}
	}

	// workEverywhere runs kubectl k with args against each replica and
	// the balancer, at the path of k's server, until it prints want.
	workEverywhere := func(what string, k kubectl, want string, args ...string) {
		t.Helper()
		server := k.must("config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}")
		path := server[strings.Index(server, "/clusters/"):]
		for _, s := range r.servers() {
			argv := append([]string{"--server", s + path}, args...)
			deadline := time.Now().Add(15 * time.Second)
			for {
				out, err := k.run(argv...)
				if err == nil && out == want {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s at %s: kubectl %s printed %q, want %q: %v", what, s, strings.Join(argv, " "), out, want, err)
				}
				time.Sleep(200 * time.Millisecond)
			}
		}
	}
	whoami := []string{"auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"}

	// The admin kubeconfig replica 1 wrote, with its own client
	// certificate.
	admin := r.hubs[0].admin(t)
	workEverywhere("replica 1's admin kubeconfig", admin, "default", "get", "namespace", "default", "-o", "jsonpath={.metadata.name}")

	// A token replica 2 issued.
	admin2 := r.hubs[1].admin(t)
	admin2.must("create", "serviceaccount", "robot")
	token := strings.TrimSpace(admin2.must("create", "token", "robot"))
	robot := r.hubs[1].admin(t)
	robot.must("config", "set-credentials", "robot", "--token", token)
	robot.must("config", "set-context", "root", "--user", "robot")
	workEverywhere("replica 2's ServiceAccount token", robot, "system:serviceaccount:default:robot", whoami...)

	// A syncer credential signed with the CA in replica 3's data
	// directory.
	create := exec.Command(r.hubs[2].bin, "synctarget", "create", "pc1", "--logical-cluster", "root", "--data-dir", r.hubs[2].dataDir)
	var stderr bytes.Buffer
	create.Stderr = &stderr
	manifest, err := create.Output()
	if err != nil {
		t.Fatalf("hub synctarget create against replica 3: %v\n%s", err, stderr.String())
	}
	syncer := kubectl{t: t, kubeconfig: writeFile(t, string(hubKubeconfigOf(t, manifest))), home: t.TempDir()}
	workEverywhere("the syncer credential from replica 3", syncer, workloadv1alpha1.SyncerUser(workloadv1alpha1.TargetKey("root", "pc1")), whoami...)
	workEverywhere("the syncer credential from replica 3", syncer, "pc1", "get", "synctarget", "pc1", "-o", "jsonpath={.metadata.name}")

	// The balancer spread those requests over every replica.
	counts := r.lb.Backends()
	for i, h := range r.hubs {
		if counts[h.addr()] == 0 {
			t.Errorf("the balancer sent no connection to replica %d (%v)", i+1, counts)
		}
	}

	// The balancer skips a killed replica, and its TLS connections reach
	// a live one that serves with a certificate of the one CA, valid for
	// the balancer's address; the replica, restarted, loads the identity
	// again.
	r.kill(1)
	r.kubectl().must("get", "namespace", "default")
	pool := x509.NewCertPool()
	pool.AddCert(caOf(t, r.hubs[0]))
	for range len(r.hubs) {
		conn, err := tls.Dial("tcp", r.lb.Addr(), &tls.Config{RootCAs: pool})
		if err != nil {
			t.Fatalf("TLS through the balancer with replica 2 killed: %v", err)
		}
		backend, ok := r.lb.BackendOf(conn.LocalAddr())
		_ = conn.Close()
		if !ok || backend == r.hubs[1].addr() {
			t.Errorf("the balancer sent a connection to %q (%v), with replica 2 at %s killed", backend, ok, r.hubs[1].addr())
		}
	}
	r.restart(1)
	r.hubs[1].admin(t).must("get", "namespace", "default")
	if got := identity.Fingerprint(caOf(t, r.hubs[1])); got != r.fingerprint {
		t.Errorf("replica 2, restarted, has CA %s, want %s", got, r.fingerprint)
	}

	// A hub with another identity key refuses the database.
	otherKey := filepath.Join(t.TempDir(), "other.key")
	k, err := identity.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	if err := identity.WriteKeyFile(otherKey, k); err != nil {
		t.Fatal(err)
	}
	stranger := &hub{bin: r.hubs[0].bin, dataDir: t.TempDir(), datastore: datastore, port: freePort(t), flags: []string{"--identity-key-file", otherKey}}
	stranger.launch(t)
	out := stranger.waitExit(t)
	want := "belongs to another hub identity (CA fingerprint " + r.fingerprint + "), which identity key file " + otherKey +
		" cannot open; give this replica that identity's key with --identity-key-file, or point it at its own database"
	if !strings.Contains(out, want) || strings.Contains(out, "Canopy hub serving") {
		t.Errorf("a hub with another identity key printed:\n%s\nwant %q", out, want)
	}
	// So does hub init; with the hub's key it changes nothing.
	initOut, err := exec.Command(stranger.bin, "init", "--datastore", datastore, "--identity-key-file", otherKey, "--data-dir", t.TempDir()).CombinedOutput()
	if err == nil || !strings.Contains(string(initOut), want) {
		t.Errorf("hub init with another identity key: %v\n%s", err, initOut)
	}
	initOut, err = exec.Command(stranger.bin, "init", "--datastore", datastore, "--identity-key-file", r.keyFile, "--data-dir", t.TempDir()).CombinedOutput()
	if err != nil || !strings.Contains(string(initOut), "Hub identity already there: CA fingerprint "+r.fingerprint) {
		t.Errorf("hub init again: %v\n%s", err, initOut)
	}
}

// caOf is the CA certificate in h's data directory.
func caOf(t *testing.T, h *hub) *x509.Certificate {
	t.Helper()
	cas, err := cert.CertsFromFile(filepath.Join(h.dataDir, "pki", "ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	return cas[0]
}
