package e2e

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestSecuritySyncerCredential attacks with the hub credential of
// SyncTarget pc2's syncer, as hub synctarget create and rotate issue it:
// it writes pods and Events only where pc2 has work, pods only of objects
// assigned to it; once SyncTarget pc2 is deleted, every request of it is
// refused within a second and its open watches end as fast; a SyncTarget
// created again under the same name does not revive it; and of the
// credentials rotation issues, the older ones are refused once a newer
// one was used, or at once with rotate --revoke.
func TestSecuritySyncerCredential(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, testSecuritySyncerCredential)
}

func testSecuritySyncerCredential(t *testing.T, h *hub, admin kubectl) {
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")
	admin.apply("root", "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: pc1\n")
	pc1, pc2 := workloadv1alpha1.TargetKey("root", "pc1"), workloadv1alpha1.TargetKey("root", "pc2")
	syncer := syncerKubectl(t, h, synctarget(t, h, "create", "pc2"))
	admin.apply("a", workManifest(pc2, pc1))
	// Planted by someone else where pc2 has no work, as a copy of pc2's.
	admin.apply("b", copyPod("planted", "default", pc2, "deployments.apps/mine"))
	syncer.eventually("--context", "a", "-n", "ns1", "get", "deployment", "mine")
	requests := 0

	t.Run("where it has work", func(t *testing.T) {
		for _, c := range []struct {
			context, namespace string
			manifest           string
			// why is a word of the 403's message; empty if allowed.
			why string
		}{
			{"a", "ns1", copyPod("copy", "ns1", pc2, "deployments.apps/mine"), ""},
			{"a", "ns1", copyEvent("copy", "ns1", pc2), ""},
			{"b", "default", copyPod("copy", "default", pc2, "deployments.apps/mine"), "writes only the pods of objects assigned to it"},
			{"root", "kube-system", copyPod("copy", "kube-system", pc2, "deployments.apps/mine"), "writes only the pods of objects assigned to it"},
			{"a", "ns2", copyPod("copy", "ns2", pc2, "deployments.apps/theirs"), "writes only the pods of objects assigned to it"},
			{"a", "ns1", copyPod("of-plain", "ns1", pc2, "deployments.apps/plain"), "writes only the pods of objects assigned to it"},
			{"a", "ns1", copyPod("of-theirs", "ns1", pc2, "deployments.apps/theirs"), "writes only the pods of objects assigned to it"},
			{"a", "ns1", copyPod("ownerless", "ns1", pc2, ""), "writes only the pods of objects assigned to it"},
			{"b", "default", copyEvent("copy", "default", pc2), "writes Events only where objects are assigned to it"},
			{"root", "kube-system", copyEvent("copy", "kube-system", pc2), "writes Events only where objects are assigned to it"},
			{"a", "ns2", copyEvent("copy", "ns2", pc2), "writes Events only where objects are assigned to it"},
		} {
			requests++
			out, err := syncer.run("--context", c.context, "create", "-f", writeFile(t, c.manifest))
			what := fmt.Sprintf("creating in %s/%s as pc2's syncer:\n%s", c.context, c.namespace, c.manifest)
			checkRefusal(t, what, out, err, c.why)
		}
		// It copies up the nodes its pods run on, and no other.
		onNode := strings.Replace(copyPod("on-n1", "ns1", pc2, "deployments.apps/mine"), "spec: {", "spec: {nodeName: n1, ", 1)
		requests++
		syncer.must("--context", "a", "create", "-f", writeFile(t, onNode))
		for _, c := range []struct{ context, manifest, why string }{
			{"a", copyNode("n1", pc2), ""},
			{"a", copyNode("n2", pc2), "writes only the nodes that the pods it copied up run on"},
			{"b", copyNode("n1", pc2), "writes only the nodes that the pods it copied up run on"},
			// The hub's admission refuses a node not labelled as its.
			{"a", copyNode("n1-theirs", pc1), "read-only copies of the physical nodes its pods run on"},
			{"a", "apiVersion: v1\nkind: Node\nmetadata: {name: n1-plain}\n", "read-only copies of the physical nodes its pods run on"},
		} {
			requests++
			out, err := syncer.run("--context", c.context, "create", "-f", writeFile(t, c.manifest))
			checkRefusal(t, fmt.Sprintf("creating in %s as pc2's syncer:\n%s", c.context, c.manifest), out, err, c.why)
		}
		for _, c := range []struct {
			args []string
			why  string
		}{
			{[]string{"--context", "a", "label", "node", "n1", "extra=1"}, ""},
			{[]string{"--context", "a", "get", "--raw", "/clusters/root:a/api/v1/nodes"}, "does not accept nodes"},
			{[]string{"--context", "a", "get", "--raw", "/clusters/root:a/api/v1/nodes?labelSelector=" + workloadv1alpha1.UpsyncedLabel + "%3D" + pc1}, "does not accept nodes"},
			{[]string{"--context", "a", "delete", "node", "n1"}, ""},
		} {
			requests++
			out, err := syncer.run(c.args...)
			checkRefusal(t, "kubectl "+strings.Join(c.args, " ")+" as pc2's syncer", out, err, c.why)
		}

		// Nor may it change a copy of its own planted where it has no work.
		requests++
		out, err := syncer.run("--context", "b", "-n", "default", "label", "pod", "planted", "extra=1")
		checkRefusal(t, "labelling pod planted in root:b as pc2's syncer", out, err, "writes only the pods of objects assigned to it")
	})

	t.Run("deleted", func(t *testing.T) {
		// Watches as the syncer holds them, of its work across every
		// logical cluster and of its copies in one, on each replica of
		// the hub: on a shared database, a second one too.
		hubs := []*hub{h}
		if h.datastore != "" {
			hubs = append(hubs, startReplica(t, h))
		}
		assigned := metav1.ListOptions{LabelSelector: workloadv1alpha1.StateLabel(pc2) + "=" + workloadv1alpha1.StateSync}
		copies := metav1.ListOptions{LabelSelector: workloadv1alpha1.UpsyncedLabel + "=" + pc2}
		var watches []watch.Interface
		for _, replica := range hubs {
			cfg := syncer.restConfig("all")
			cfg.Host = "https://127.0.0.1:" + strconv.Itoa(replica.port) + "/clusters/*"
			client, err := dynamic.NewForConfig(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []func() (watch.Interface, error){
				func() (watch.Interface, error) {
					return client.Resource(deploymentsGVR).Watch(context.Background(), assigned)
				},
				func() (watch.Interface, error) {
					return client.Resource(podsGVR).Watch(context.Background(), copies)
				},
			} {
				requests++
				watcher, err := w()
				if err != nil {
					t.Fatal(err)
				}
				defer watcher.Stop()
				// Each streams: the first event is what it already holds.
				select {
				case ev := <-watcher.ResultChan():
					if ev.Type != watch.Added {
						t.Fatalf("the watch began with %s %v", ev.Type, ev.Object)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("the watch sent nothing in 10s")
				}
				watches = append(watches, watcher)
			}
		}
		// When each ends; none has before the deletion.
		closed := make([]chan time.Time, len(watches))
		for i, w := range watches {
			closed[i] = make(chan time.Time, 1)
			go func() {
				for range w.ResultChan() {
				}
				closed[i] <- time.Now()
			}()
		}
		time.Sleep(time.Second)
		for i := range closed {
			if len(closed[i]) > 0 {
				t.Fatalf("watch %d of pc2's syncer ended before its SyncTarget was deleted", i)
			}
		}
		requests++
		deleting := time.Now()
		admin.must("--context", "root", "delete", "synctarget", "pc2", "--wait=false")
		deleted := time.Now()
		for i := range closed {
			select {
			case at := <-closed[i]:
				t.Logf("watch %d ended %s after the deletion was sent, which kubectl took %s to send", i, at.Sub(deleting).Round(time.Millisecond), deleted.Sub(deleting).Round(time.Millisecond))
			case <-time.After(time.Until(deleted.Add(time.Second))):
				t.Errorf("watch %d of pc2's syncer still open a second after its SyncTarget was deleted", i)
			}
		}
		time.Sleep(time.Until(deleted.Add(time.Second)))
		for _, replica := range hubs {
			requests += refusedEverything(t, replica, syncer, pc2, "SyncTarget root:pc2 does not exist")
		}

		// Created again, the SyncTarget of the same name is another.
		admin.apply("root", "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: pc2\n")
		time.Sleep(time.Second)
		for _, replica := range hubs {
			requests += refusedEverything(t, replica, syncer, pc2, "which was deleted")
		}
	})

	t.Run("rotated", func(t *testing.T) {
		first := syncerKubectl(t, h, synctarget(t, h, "rotate", "pc2"))
		report := func(k kubectl, key string) (string, error) {
			requests++
			return k.run("--context", "root", "patch", "synctarget", "pc2", "--subresource", "status", "--type", "merge",
				"-p", `{"status":{"key":"`+key+`","credentialNotBefore":"2000-01-01T00:00:00Z"}}`)
		}
		stamped := func() string {
			return admin.must("--context", "root", "get", "synctarget", "pc2", "-o", "jsonpath={.status.credentialNotBefore}")
		}
		if out, err := report(first, pc2); err != nil {
			t.Fatalf("the rotated credential reporting its status: %v\n%s", err, out)
		}
		// The hub writes what it saw, not what the syncer said.
		if got, want := stamped(), issuedAt(t, first).Format(time.RFC3339); got != want {
			t.Errorf("status.credentialNotBefore %s after the syncer reported with the credential issued at %s", got, want)
		}
		// Certificates hold whole seconds: the next is issued in a later
		// one.
		time.Sleep(time.Until(issuedAt(t, first).Add(time.Minute + time.Second)))
		second := syncerKubectl(t, h, synctarget(t, h, "rotate", "pc2"))
		// Until the new one is used, the old one works.
		requests++
		first.must("--context", "root", "get", "synctarget", "pc2")
		if out, err := report(second, pc2); err != nil {
			t.Fatalf("the newer credential reporting its status: %v\n%s", err, out)
		}
		time.Sleep(time.Second)
		requests++
		refusedWith(t, h, first, "the syncer has since reported with one issued at")

		// --revoke refuses the older ones at once.
		time.Sleep(time.Until(issuedAt(t, second).Add(time.Minute + time.Second)))
		third := syncerKubectl(t, h, synctarget(t, h, "rotate", "pc2", "--revoke"))
		time.Sleep(time.Second)
		requests++
		refusedWith(t, h, second, "rotate --revoke")
		requests++
		third.must("--context", "a", "-n", "ns1", "get", "deployment", "mine")
	})
	t.Logf("the matrix made %d requests as pc2's syncer", requests)
}

var (
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	podsGVR        = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
)

// refusedEverything checks that every kind of request the syncer makes,
// as k makes them, is refused with a 401 or 403, a 403 saying the
// credential is revoked, why, and how to get a new one. It returns how
// many requests it made. It asks hub h, one replica of the hub.
func refusedEverything(t *testing.T, h *hub, k kubectl, key, why string) int {
	t.Helper()
	client := k.httpClient("root")
	base := "https://127.0.0.1:" + strconv.Itoa(h.port) + "/clusters/"
	assigned := "labelSelector=" + workloadv1alpha1.StateLabel(key) + "%3D" + workloadv1alpha1.StateSync
	cases := []struct{ method, path, body string }{
		{http.MethodGet, "root:a/api", ""},
		{http.MethodGet, "root:a/apis/apps/v1", ""},
		{http.MethodGet, "root:a/version", ""},
		{http.MethodGet, "root:a/apis/apps/v1/namespaces/ns1/deployments/mine", ""},
		{http.MethodGet, "root:a/apis/apps/v1/namespaces/ns1/deployments?" + assigned, ""},
		{http.MethodGet, "*/apis/apps/v1/deployments?" + assigned, ""},
		{http.MethodGet, "*/apis/apps/v1/deployments?watch=true&" + assigned, ""},
		{http.MethodGet, "*/api/v1/pods?watch=true&labelSelector=" + workloadv1alpha1.UpsyncedLabel + "%3D" + key, ""},
		{http.MethodPost, "root:a/api/v1/namespaces/ns1/pods", jsonOf(t, copyPod("late", "ns1", key, "deployments.apps/mine"))},
		{http.MethodPost, "root:a/api/v1/namespaces/ns1/events", jsonOf(t, copyEvent("late", "ns1", key))},
		{http.MethodDelete, "root:a/api/v1/namespaces/ns1/pods/copy", ""},
		{http.MethodPatch, "root:a/apis/apps/v1/namespaces/ns1/deployments/mine/status", `{"status":{"replicas":1}}`},
		{http.MethodGet, "root/apis/workload.canopy.dev/v1alpha1/synctargets/pc2", ""},
		{http.MethodPatch, "root/apis/workload.canopy.dev/v1alpha1/synctargets/pc2/status", `{"status":{"key":"` + key + `"}}`},
	}
	for _, c := range cases {
		status, code, raw := send(t, client, c.method, base+c.path, c.body)
		switch {
		case code == http.StatusUnauthorized:
		case code != http.StatusForbidden:
			t.Errorf("%s %s with a revoked credential: %d %s, want 401 or 403", c.method, c.path, code, raw)
		case !strings.Contains(status.Message, "is revoked") || !strings.Contains(status.Message, why) || !strings.Contains(status.Message, "hub synctarget"):
			t.Errorf("%s %s with a revoked credential: 403 %q, want it to say it is revoked, %q, and how to get a new one", c.method, c.path, status.Message, why)
		}
	}
	// What kubectl shows a person, at the hub its contexts name.
	out, err := k.run("--context", "a", "-n", "ns1", "get", "deployment", "mine")
	checkRefusal(t, "kubectl get with a revoked credential", out, err, why)
	return len(cases) + 1
}

// refusedWith checks that k's credential is refused with a 403 saying it
// is revoked and why. It asks by HTTP, as kubectl shows the 403 of its
// discovery only as "unknown".
func refusedWith(t *testing.T, h *hub, k kubectl, why string) {
	t.Helper()
	url := "https://127.0.0.1:" + strconv.Itoa(h.port) + "/clusters/root/apis/workload.canopy.dev/v1alpha1/synctargets"
	status, code := getStatus(t, k.httpClient("root"), url)
	if code != http.StatusForbidden || !strings.Contains(status.Message, "is revoked") || !strings.Contains(status.Message, why) {
		t.Errorf("a revoked credential: %d %q, want a 403 saying it is revoked, %q", code, status.Message, why)
	}
}

// checkRefusal checks that a kubectl run that printed out and failed with
// err was a 403 saying why, or succeeded for an empty why.
func checkRefusal(t *testing.T, what, out string, err error, why string) {
	t.Helper()
	switch {
	case why == "" && err != nil:
		t.Errorf("%s: %v\n%s", what, err, out)
	case why != "" && (err == nil || !strings.Contains(strings.ToLower(err.Error()), "forbidden") || !strings.Contains(err.Error(), why)):
		t.Errorf("%s: %v, want a 403 saying %q\n%s", what, err, why, out)
	}
}

// synctarget runs hub synctarget with args, of a SyncTarget in root, on
// h's data directory, and returns the hub kubeconfig of the syncer in
// what it printed.
func synctarget(t *testing.T, h *hub, args ...string) []byte {
	t.Helper()
	args = append([]string{"synctarget"}, args...)
	args = append(args, "--logical-cluster", "root", "--data-dir", h.dataDir, "--hub-url", "https://127.0.0.1:"+strconv.Itoa(h.port))
	cmd := exec.Command(h.bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hub %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return hubKubeconfigOf(t, stdout.Bytes())
}

// syncerKubectl is kubectl with hub kubeconfig, a syncer's, given the
// contexts of addContexts.
func syncerKubectl(t *testing.T, h *hub, kubeconfig []byte) kubectl {
	t.Helper()
	k := kubectl{t: t, kubeconfig: filepath.Join(t.TempDir(), "kubeconfig"), home: t.TempDir()}
	if err := os.WriteFile(k.kubeconfig, kubeconfig, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := clientcmd.Load(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	k.addContexts(h, filepath.Join(h.dataDir, "pki"), cfg.Contexts[cfg.CurrentContext].AuthInfo)
	return k
}

// issuedAt is the issue time of the client certificate of k's kubeconfig.
func issuedAt(t *testing.T, k kubectl) time.Time {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(k.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, auth := range cfg.AuthInfos {
		if block, _ := pem.Decode(auth.ClientCertificateData); block != nil {
			c, err := x509.ParseCertificate(block.Bytes)
			if err != nil {
				t.Fatal(err)
			}
			return c.NotBefore.UTC()
		}
	}
	t.Fatalf("no client certificate in %s", k.kubeconfig)
	return time.Time{}
}

// workManifest is, in namespace ns1, Deployment mine assigned to the
// target of key mine and plain assigned to none, and in ns2 Deployment
// theirs assigned to the target of key theirs.
func workManifest(mine, theirs string) string {
	deployment := func(ns, name, labels string) string {
		return fmt.Sprintf(`---
apiVersion: apps/v1
kind: Deployment
metadata: {name: %s, namespace: %s, labels: {app: %s%s}}
spec:
  selector: {matchLabels: {app: %s}}
  template:
    metadata: {labels: {app: %s}}
    spec: {containers: [{name: c, image: nginx:1.27}]}
`, name, ns, name, labels, name, name)
	}
	label := func(key string) string { return ", " + workloadv1alpha1.StateLabel(key) + ": Sync" }
	return "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns1}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ns2}\n" +
		deployment("ns1", "mine", label(mine)) + deployment("ns1", "plain", "") + deployment("ns2", "theirs", label(theirs))
}

// copyPod is a pod in ns labelled as copied up by the syncer of key,
// naming owner as the hub object it is a pod of, or none if empty.
func copyPod(name, ns, key, owner string) string {
	annotations := ""
	if owner != "" {
		annotations = ", annotations: {" + workloadv1alpha1.OwnerAnnotation + ": " + owner + "}"
	}
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: %s, namespace: %s, labels: {%s: %s}%s}
spec: {containers: [{name: c, image: nginx:1.27}]}
`, name, ns, workloadv1alpha1.UpsyncedLabel, key, annotations)
}

// copyNode is a node labelled as copied up by the syncer of key.
func copyNode(name, key string) string {
	return fmt.Sprintf("apiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: {%s: %s}}\n", name, workloadv1alpha1.UpsyncedLabel, key)
}

// copyEvent is an Event in ns labelled as copied up by the syncer of key.
func copyEvent(name, ns, key string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Event
metadata: {name: %s, namespace: %s, labels: {%s: %s}}
involvedObject: {apiVersion: v1, kind: Pod, name: %s, namespace: %s}
reason: Started
message: Started container c
type: Normal
source: {component: kubelet}
`, name, ns, workloadv1alpha1.UpsyncedLabel, key, name, ns)
}

// jsonOf is YAML manifest as JSON, for a request body.
func jsonOf(t *testing.T, manifest string) string {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	return string(j)
}

// TestSecuritySyncerRotation checks hub synctarget rotate with a running
// syncer: given the new kubeconfig in place of its old one, the syncer
// takes it without a restart and rewrites nothing on either side, keeps
// syncing, and the hub refuses the old credential once the syncer has
// used the new one.
func TestSecuritySyncerRotation(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	h, admin := startHub(t, buildHub(t), "")
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	pc1 := pcluster.Start(t, "pc1", pcluster.Options{Nodes: []pcluster.Node{{Name: "pc1-a"}}})
	key := workloadv1alpha1.TargetKey("root", "pc1")
	created := synctarget(t, h, "create", "pc1")
	old := syncerKubectl(t, h, created)
	path := filepath.Join(t.TempDir(), "hub.kubeconfig")
	if err := os.WriteFile(path, created, 0o600); err != nil {
		t.Fatal(err)
	}
	syncer := runSyncer(t, syncerBin, path, pc1.Kubeconfig, "root:pc1")
	syncer.waitReady(time.Minute)
	admin.apply("a", workloadManifest(key, "nginx:1.27"))
	ns := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	waitPods(ctx, t, pc1, ns, "nginx:1.27")
	var before map[string]string
	waitFor(t, 2*time.Minute, "both sides settled, the pods copied up", func() (bool, string) {
		first := resourceVersions(admin, pc1, ns)
		time.Sleep(5 * time.Second)
		before = resourceVersions(admin, pc1, ns)
		return fmt.Sprint(first) == fmt.Sprint(before) && strings.Count(fmt.Sprint(before), "hub Pod/") == 3, fmt.Sprint(before)
	})

	kubeconfig := synctarget(t, h, "rotate", "pc1")
	rotated := syncerKubectl(t, h, kubeconfig)
	// As the kubelet updates a Secret's volume: a new file renamed over.
	next := path + ".new"
	if err := os.WriteFile(next, kubeconfig, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, path); err != nil {
		t.Fatal(err)
	}
	replaced := time.Now()
	want := issuedAt(t, rotated).Format(time.RFC3339)
	waitFor(t, time.Minute, "the syncer reporting with the new credential", func() (bool, string) {
		got := admin.must("--context", "root", "get", "synctarget", "pc1", "-o", "jsonpath={.status.credentialNotBefore}")
		return got == want, got
	})
	t.Logf("the syncer reported with the new credential %s after its kubeconfig changed", time.Since(replaced).Round(time.Millisecond))
	if !strings.Contains(syncer.log.String(), "Took the new hub credential") {
		t.Errorf("the syncer did not say it took the new credential")
	}
	time.Sleep(time.Second)
	refusedWith(t, h, old, "the syncer has since reported with one issued at")

	// Nothing was rewritten on either side.
	after := resourceVersions(admin, pc1, ns)
	for k, rv := range before {
		if after[k] != rv {
			t.Errorf("%s: resourceVersion %s before the rotation, %s after", k, rv, after[k])
		}
	}
	// And the syncer goes on syncing.
	admin.must("--context", "a", "-n", "ns1", "patch", "configmap", "web-config", "-p", `{"data":{"GREETING":"bonjour"}}`)
	waitFor(t, time.Minute, "the hub's change downstream", func() (bool, string) {
		cm, err := pc1.Client.CoreV1().ConfigMaps(ns).Get(ctx, "web-config", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return cm.Data["GREETING"] == "bonjour", fmt.Sprint(cm.Data)
	})
}
