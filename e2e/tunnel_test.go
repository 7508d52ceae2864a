package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/tunnel"
	"github.com/canopy-dev/canopy/pkg/tunnel/agent"
)

// tunnelEnv is a hub with logical clusters root:a and root:b, physical
// clusters pc1 and pc2 with SyncTargets of the same names in root and
// their syncers, Deployment web in namespace ns1 of root:a with a pod on
// each, and Deployment web in ns1 of root:b with one pod on pc1.
type tunnelEnv struct {
	h       *hub
	admin   kubectl
	pki     string
	pcs     map[string]*pcluster.Cluster
	syncers map[string]*syncerProcess
	// podsA are root:a's pods of web by the physical cluster running
	// each; podB is root:b's.
	podsA map[string]string
	podB  string
}

func setUpTunnel(t *testing.T) *tunnelEnv {
	t.Helper()
	h, admin, syncerBin := startSyncersHub(t)
	e := &tunnelEnv{h: h, admin: admin, pki: filepath.Join(h.dataDir, "pki"), pcs: map[string]*pcluster.Cluster{}, syncers: map[string]*syncerProcess{}}
	for _, name := range []string{"pc1", "pc2"} {
		e.pcs[name] = pcluster.Start(t, name, pcluster.Options{Nodes: []pcluster.Node{{Name: name + "-a"}}})
		admin.apply("root", "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: "+name+"\n")
		syncer := syncerKubeconfig(t, h, "root", name)
		e.syncers[name] = runSyncer(t, syncerBin, syncer.kubeconfig, e.pcs[name].Kubeconfig, "root:"+name)
	}
	k1, k2 := workloadv1alpha1.TargetKey("root", "pc1"), workloadv1alpha1.TargetKey("root", "pc2")
	admin.apply("a", fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata: {name: ns1}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ns1
  labels: {%[1]s: Sync, %[2]s: Sync}
  annotations: {%[3]s: "1", %[4]s: "1"}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - {name: web, image: nginx:1.27}
      - {name: sidecar, image: busybox:1.36}
`, workloadv1alpha1.StateLabel(k1), workloadv1alpha1.StateLabel(k2), workloadv1alpha1.ReplicasAnnotationPrefix+k1, workloadv1alpha1.ReplicasAnnotationPrefix+k2))
	admin.apply("b", workloadManifest(k1, "nginx:1.27"))
	e.podsA = map[string]string{}
	for pod, pc := range waitHubPods(t, admin, "a", 2) {
		e.podsA[pc] = pod
	}
	if len(e.podsA) != 2 {
		t.Fatalf("root:a's pods of web run on %v, want one on each of pc1 and pc2", e.podsA)
	}
	for pod := range waitHubPods(t, admin, "b", 3) {
		e.podB = pod
	}
	return e
}

// waitHubPods waits for n Running pods of web in ns1 of logical cluster
// context at the hub, upsynced by the syncer of pc1 or pc2, and returns
// the physical cluster of each by its name.
func waitHubPods(t *testing.T, k kubectl, context string, n int) map[string]string {
	t.Helper()
	keys := map[string]string{workloadv1alpha1.TargetKey("root", "pc1"): "pc1", workloadv1alpha1.TargetKey("root", "pc2"): "pc2"}
	var last string
	for deadline := time.Now().Add(4 * time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		last = k.must("--context", context, "get", "pods", "-n", "ns1", "-l", "app=web", "-o",
			`jsonpath={range .items[*]}{.metadata.name} {.status.phase} {.metadata.labels.workload\.canopy\.dev/upsynced}{"\n"}{end}`)
		pods := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(last), "\n") {
			if f := strings.Fields(line); len(f) == 3 && f[1] == "Running" && keys[f[2]] != "" {
				pods[f[0]] = keys[f[2]]
			}
		}
		if len(pods) == n {
			return pods
		}
	}
	t.Fatalf("no %d Running upsynced pods of web in %s at the hub; last:\n%s", n, context, last)
	return nil
}

// down is a kubectl of physical cluster pc's admin.
func (e *tunnelEnv) down(t *testing.T, pc string) kubectl {
	return kubectl{t: t, kubeconfig: e.pcs[pc].Kubeconfig, home: t.TempDir()}
}

// writeLogs appends n numbered lines to what every container of pc logs.
func (e *tunnelEnv) writeLogs(t *testing.T, pc, prefix string, n int) {
	t.Helper()
	for i := range n {
		if err := e.pcs[pc].WritePodLog("stdout", fmt.Sprintf("%s %s line %d", prefix, pc, i)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTunnelLogs checks kubectl logs at the hub, through the syncers'
// tunnels, against the same command at the physical cluster, then the
// errors and isolation of pods/log, then a syncer killed mid `logs -f`.
func TestTunnelLogs(t *testing.T) {
	t.Parallel()
	e := setUpTunnel(t)
	for _, pc := range []string{"pc1", "pc2"} {
		e.writeLogs(t, pc, "first", 12)
	}

	t.Run("same output as the physical cluster", func(t *testing.T) {
		for pc, pod := range e.podsA {
			for _, args := range [][]string{{}, {"--tail=5"}, {"-c", "sidecar"}, {"-c", "web", "--tail=2"}, {"--since=1h"}, {"--timestamps"}, {"--limit-bytes=40"}} {
				got, err := e.admin.run(append([]string{"--context", "a", "logs", pod, "-n", "ns1"}, args...)...)
				if err != nil {
					t.Fatalf("kubectl logs %s %v at the hub: %v", pod, args, err)
				}
				want := e.down(t, pc).must(append([]string{"logs", pod, "-n", downNS(pc, "root:a", "ns1")}, args...)...)
				if got != want || !strings.Contains(want, pc+" line") && !slices.Contains(args, "--limit-bytes=40") {
					t.Errorf("kubectl logs %s %v: at the hub\n%s\nat %s\n%s", pod, args, got, pc, want)
				}
			}
		}
		// deploy/web: kubectl picks one of its pods, on either cluster.
		got := e.admin.must("--context", "a", "logs", "deploy/web", "-n", "ns1")
		want1 := e.down(t, "pc1").must("logs", e.podsA["pc1"], "-n", downNS("pc1", "root:a", "ns1"))
		want2 := e.down(t, "pc2").must("logs", e.podsA["pc2"], "-n", downNS("pc2", "root:a", "ns1"))
		if got != want1 && got != want2 {
			t.Errorf("kubectl logs deploy/web at the hub:\n%s\nwant the log of its pod on pc1:\n%s\nor on pc2:\n%s", got, want1, want2)
		}
		// -l: every pod of web, on both clusters.
		all := e.admin.must("--context", "a", "logs", "-l", "app=web", "-n", "ns1", "--prefix", "-c", "web")
		for pc, pod := range e.podsA {
			if !strings.Contains(all, "[pod/"+pod+"/web] first "+pc+" line 11") {
				t.Errorf("kubectl logs -l app=web --prefix at the hub lacks the last line of %s on %s:\n%s", pod, pc, all)
			}
		}
	})

	t.Run("follow", func(t *testing.T) {
		for pc, pod := range e.podsA {
			f := followLogs(t, e.admin, "--context", "a", "logs", "-f", "--tail=1", pod, "-n", "ns1", "-c", "web")
			f.waitLine(t, "line 11")
			e.writeLogs(t, pc, "followed", 3)
			f.waitLine(t, "followed "+pc+" line 2")
			f.stop()
		}
	})

	t.Run("errors", func(t *testing.T) {
		if out, err := e.admin.run("--context", "a", "logs", "nosuchpod", "-n", "ns1"); err == nil || !strings.Contains(err.Error(), `pods "nosuchpod" not found`) {
			t.Errorf("kubectl logs of a pod the hub lacks: %q, %v; want NotFound", out, err)
		}
		if out, err := e.admin.run("--context", "a", "logs", e.podsA["pc1"], "-n", "ns1", "-c", "nosuchcontainer"); err == nil || !strings.Contains(err.Error(), "nosuchcontainer") {
			t.Errorf("kubectl logs of a container the pod lacks: %q, %v; want the physical cluster's error naming it", out, err)
		}
		// --previous of a container that never restarted: the physical
		// cluster's own error.
		_, hubErr := e.admin.run("--context", "a", "logs", e.podsA["pc1"], "-n", "ns1", "-c", "web", "--previous")
		_, downErr := e.down(t, "pc1").run("logs", e.podsA["pc1"], "-n", downNS("pc1", "root:a", "ns1"), "-c", "web", "--previous")
		if hubErr == nil || downErr == nil || !strings.Contains(hubErr.Error(), lastLine(downErr.Error())) {
			t.Errorf("kubectl logs --previous: at the hub %v; at pc1 %v; want the same error", hubErr, downErr)
		}
	})

	t.Run("authorized by RBAC in the logical cluster", func(t *testing.T) {
		viewer := userKubeconfig(t, e.pki, "viewer")
		viewer.addContexts(e.h, e.pki, "viewer")
		e.admin.apply("a", `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pod-reader, namespace: ns1}
rules:
- {apiGroups: [""], resources: [pods], verbs: [get, list]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: viewer, namespace: ns1}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: viewer}
`)
		viewer.eventually("--context", "a", "get", "pod", e.podsA["pc1"], "-n", "ns1")
		if out, err := viewer.run("--context", "a", "logs", e.podsA["pc1"], "-n", "ns1"); err == nil || !strings.Contains(err.Error(), `cannot get resource "pods/log"`) {
			t.Errorf("kubectl logs as a user who may get pods but not pods/log: %q, %v; want Forbidden", out, err)
		}
		e.admin.must("--context", "a", "patch", "role", "pod-reader", "-n", "ns1", "--type=json", "-p",
			`[{"op":"add","path":"/rules/-","value":{"apiGroups":[""],"resources":["pods/log"],"verbs":["get"]}}]`)
		viewer.eventually("--context", "a", "logs", e.podsA["pc1"], "-n", "ns1")

		// root:b's admin reaches neither root:a's pods, nor them by name
		// from root:b.
		bob := userKubeconfig(t, e.pki, "bob")
		bob.addContexts(e.h, e.pki, "bob")
		e.admin.grantEverything("b", "bob")
		bob.eventually("--context", "b", "logs", e.podB, "-n", "ns1")
		for pc, pod := range e.podsA {
			if out, err := bob.run("--context", "a", "logs", pod, "-n", "ns1"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
				t.Errorf("root:b's admin: kubectl logs of root:a's pod on %s in root:a: %q, %v; want Forbidden", pc, out, err)
			}
			if out, err := bob.run("--context", "b", "logs", pod, "-n", "ns1"); err == nil || !strings.Contains(err.Error(), "not found") {
				t.Errorf("root:b's admin: kubectl logs of root:a's pod on %s, named in root:b: %q, %v; want NotFound", pc, out, err)
			}
		}
	})

	t.Run("only the syncer opens its tunnel", func(t *testing.T) {
		path := "/clusters/root/apis/workload.canopy.dev/v1alpha1/synctargets/pc1/tunnel"
		admin, err := adminClient(e.pki)
		if err != nil {
			t.Fatal(err)
		}
		server := "https://127.0.0.1:" + strconv.Itoa(e.h.port)
		if s, code := getStatus(t, admin, server+path); code != http.StatusForbidden || !strings.Contains(s.Message, "opened by its syncer only") {
			t.Errorf("the hub's admin opening pc1's tunnel: %d %q, want 403 saying only its syncer opens it", code, s.Message)
		}
		pc2 := syncerKubeconfig(t, e.h, "root", "pc2")
		cfg, err := clientcmd.BuildConfigFromFlags("", pc2.kubeconfig)
		if err != nil {
			t.Fatal(err)
		}
		client, err := rest.HTTPClientFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if s, code := getStatus(t, client, server+path); code != http.StatusForbidden {
			t.Errorf("pc2's syncer opening pc1's tunnel: %d %q, want 403", code, s.Message)
		}
	})

	t.Run("the syncer serves only the pods it upsynced", func(t *testing.T) {
		testTunnelScope(t, e)
	})

	t.Run("pod gone downstream", func(t *testing.T) {
		pod := e.podsA["pc2"]
		e.down(t, "pc2").must("delete", "pod", pod, "-n", downNS("pc2", "root:a", "ns1"), "--grace-period=0", "--force")
		if out, err := e.admin.run("--context", "a", "logs", pod, "-n", "ns1"); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("kubectl logs of a pod deleted downstream: %q, %v; want NotFound", out, err)
		}
	})

	t.Run("syncer killed mid logs -f", func(t *testing.T) {
		pod := e.podsA["pc1"]
		f := followLogs(t, e.admin, "--context", "a", "logs", "-f", "--tail=1", pod, "-n", "ns1", "-c", "web")
		f.waitLine(t, "line")
		// While the hub streams pc1's log, it has no connection to pc1's
		// API server or kubelet: only the syncer's, inbound.
		pc1 := e.pcs["pc1"]
		forbidden := []int{int(pc1.Nodes[0].Status.DaemonEndpoints.KubeletEndpoint.Port)}
		u, err := url.Parse(pc1.Config.Host)
		if err != nil {
			t.Fatal(err)
		}
		port, _ := strconv.Atoi(u.Port())
		forbidden = append(forbidden, port)
		for _, port := range remotePorts(t, e.h.cmd.Process.Pid) {
			if slices.Contains(forbidden, port) {
				t.Errorf("the hub has a connection to port %d of pc1 (its API server and kubelet are %v)", port, forbidden)
			}
		}
		e.syncers["pc1"].kill()
		if err := f.wait(t, time.Minute); err == nil {
			t.Errorf("kubectl logs -f ended without an error when the syncer was killed:\n%s", f.output())
		}
		out, err := e.admin.run("--context", "a", "logs", pod, "-n", "ns1")
		if err == nil || !strings.Contains(err.Error(), "SyncTarget root:pc1 is not connected") {
			t.Errorf("kubectl logs while pc1's syncer is down: %q, %v; want 503 naming SyncTarget root:pc1", out, err)
		}
		e.syncers["pc1"].start()
		var last error
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
			if _, last = e.admin.run("--context", "a", "logs", pod, "-n", "ns1"); last == nil {
				return
			}
		}
		t.Errorf("kubectl logs once pc1's syncer is back: %v", last)
	})

	t.Run("deleting the SyncTarget closes its tunnel", func(t *testing.T) {
		log := e.syncers["pc2"].log
		closed := strings.Count(log.String(), "The tunnel to the hub closed")
		e.admin.must("--context", "root", "delete", "synctarget", "pc2", "--wait=false")
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			out := log.String()
			if strings.Count(out, "The tunnel to the hub closed") > closed && strings.Contains(out, "refused the upgrade: 403") {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("pc2's syncer's tunnel was not closed, then refused, within 30s of deleting SyncTarget pc2:\n%s", out)
			}
		}
	})
}

// TestTunnelReplicas checks that a request landing on a hub replica that
// does not hold the target's tunnel reaches it through the replica that
// does, as the tunnel's Lease names it, and fails cleanly once the
// syncer is gone.
func TestTunnelReplicas(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	r := startReplicas(t, 2, pgtest.Shared(t).NewDatabase(t))
	h0, h1 := r.hubs[0], r.hubs[1]
	admin0, admin1 := h0.admin(t), h1.admin(t)
	admin0.addContexts(h0, filepath.Join(h0.dataDir, "pki"), "admin")
	admin1.addContexts(h1, filepath.Join(h1.dataDir, "pki"), "admin")
	admin0.createLogicalCluster("root", "a")
	pc1 := pcluster.Start(t, "pc1", pcluster.Options{Nodes: []pcluster.Node{{Name: "pc1-a"}}})
	admin0.apply("root", "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: pc1\n")
	// The syncer's kubeconfig names replica 0: its tunnel is there.
	syncer := runSyncer(t, syncerBin, syncerKubeconfig(t, h0, "root", "pc1").kubeconfig, pc1.Kubeconfig, "root:pc1")
	key := workloadv1alpha1.TargetKey("root", "pc1")
	admin0.apply("a", workloadManifest(key, "nginx:1.27"))
	pods := waitHubPods(t, admin1, "a", 3)
	lease := "canopy-tunnel-" + key
	if got, want := admin1.must("--context", "root", "get", "lease", "-n", "kube-system", lease, "-o", `jsonpath={.metadata.annotations.tunnel\.canopy\.dev/address}`), "https://"+h0.addr(); got != want {
		t.Errorf("Lease %s names the replica at %q, want replica 0's %q", lease, got, want)
	}
	if err := pc1.WritePodLog("stdout", "through replica 0"); err != nil {
		t.Fatal(err)
	}
	ns1 := downNS("pc1", "root:a", "ns1")
	down := kubectl{t: t, kubeconfig: pc1.Kubeconfig, home: t.TempDir()}
	var pod string
	for pod = range pods {
		got := admin1.must("--context", "a", "logs", pod, "-n", "ns1", "--tail=3")
		if want := down.must("logs", pod, "-n", ns1, "--tail=3"); got != want || !strings.Contains(got, "through replica 0") {
			t.Errorf("kubectl logs %s at replica 1:\n%s\nat pc1:\n%s", pod, got, want)
		}
	}
	// Followed through replica 1, relayed by replica 0: new lines arrive,
	// and the syncer's end ends the stream with an error.
	f := followLogs(t, admin1, "--context", "a", "logs", "-f", "--tail=1", pod, "-n", "ns1")
	f.waitLine(t, "through replica 0")
	if err := pc1.WritePodLog("stdout", "relayed while following"); err != nil {
		t.Fatal(err)
	}
	f.waitLine(t, "relayed while following")
	syncer.kill()
	if err := f.wait(t, time.Minute); err == nil {
		t.Errorf("kubectl logs -f through replica 1 ended without an error when the syncer was killed:\n%s", f.output())
	}
	var last string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		_, err := admin1.run("--context", "a", "logs", pod, "-n", "ns1")
		if last = fmt.Sprint(err); err != nil && strings.Contains(last, "SyncTarget root:pc1 is not connected") {
			return
		}
	}
	t.Errorf("kubectl logs at replica 1 once the syncer is gone: %s; want 503 naming SyncTarget root:pc1", last)
}

// testTunnelScope sends pc1's syncer's handler, as it serves it inside
// the tunnel and with its credentials, the requests a hub could forge,
// and checks it serves only the subresources of the pods it upsynced.
func testTunnelScope(t *testing.T, e *tunnelEnv) {
	pc1 := e.pcs["pc1"]
	syncer := syncerKubeconfig(t, e.h, "root", "pc1")
	hubCfg, err := clientcmd.BuildConfigFromFlags("", syncer.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := agent.NewPodProxy(hubCfg, pc1.Config, tunnel.Target{Cluster: "root", Name: "pc1"})
	if err != nil {
		t.Fatal(err)
	}
	// A pod made downstream in the syncer's own namespace, by no workload
	// it synced: the syncer never upsynced it.
	ns1 := downNS("pc1", "root:a", "ns1")
	intruder := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "intruder", Namespace: ns1},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}, NodeName: pc1.Nodes[0].Name}}
	ctx := context.Background()
	if _, err := pc1.Client.CoreV1().Pods(ns1).Create(ctx, intruder, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	requests := 0
	for _, c := range []struct {
		name, path string
		headers    map[string]string
		want       int
	}{
		{"its own pod of root:a", tunnel.PodPath("root:a", "ns1", e.podsA["pc1"], "log") + "?container=web", nil, http.StatusOK},
		{"its own pod of root:b", tunnel.PodPath("root:b", "ns1", e.podB, "log"), nil, http.StatusOK},
		{"its own pod, impersonating", tunnel.PodPath("root:a", "ns1", e.podsA["pc1"], "log") + "?container=web", map[string]string{"Impersonate-User": "nobody", "Authorization": "Bearer forged"}, http.StatusOK},
		{"pc2's pod", tunnel.PodPath("root:a", "ns1", e.podsA["pc2"], "log"), nil, http.StatusForbidden},
		{"root:b's pod named in root:a", tunnel.PodPath("root:a", "ns1", e.podB, "log"), nil, http.StatusForbidden},
		{"root:a's pod named in root:b", tunnel.PodPath("root:b", "ns1", e.podsA["pc1"], "log"), nil, http.StatusForbidden},
		{"a pod it did not upsync, in its namespace", tunnel.PodPath("root:a", "ns1", "intruder", "log"), nil, http.StatusForbidden},
		{"a namespace it did not make", tunnel.PodPath("root:a", "kube-system", "kube-apiserver", "log"), nil, http.StatusForbidden},
		{"a logical cluster it does not serve", tunnel.PodPath("root:c", "ns1", e.podsA["pc1"], "log"), nil, http.StatusForbidden},
		{"status of its own pod", tunnel.PodPath("root:a", "ns1", e.podsA["pc1"], "status"), nil, http.StatusForbidden},
		{"proxy of its own pod", tunnel.PodPath("root:a", "ns1", e.podsA["pc1"], "proxy"), nil, http.StatusForbidden},
		{"a Secret", "/clusters/root:a/api/v1/namespaces/ns1/secrets/web-secret", nil, http.StatusForbidden},
		{"the downstream API", "/api/v1/namespaces/" + ns1 + "/pods/intruder/log", nil, http.StatusForbidden},
		{"a path escaping its pod", tunnel.PodPath("root:a", "ns1", e.podsA["pc1"], "log") + "/../../../secrets", nil, http.StatusForbidden},
		// The metrics route, under the same scope: pc1 serves no
		// metrics API, which its own pods' answer says.
		{"metrics of its own pod", tunnel.PodPath("root:a", "ns1", e.podsA["pc1"], agent.Metrics), nil, http.StatusServiceUnavailable},
		{"metrics of pc2's pod", tunnel.PodPath("root:a", "ns1", e.podsA["pc2"], agent.Metrics), nil, http.StatusForbidden},
		{"metrics of root:b's pod named in root:a", tunnel.PodPath("root:a", "ns1", e.podB, agent.Metrics), nil, http.StatusForbidden},
		{"metrics of a pod it did not upsync", tunnel.PodPath("root:a", "ns1", "intruder", agent.Metrics), nil, http.StatusForbidden},
	} {
		req := httptest.NewRequest(http.MethodGet, "http://syncer"+c.path, nil)
		for k, v := range c.headers {
			req.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		proxy.ServeHTTP(w, req)
		requests++
		if w.Code != c.want {
			t.Errorf("%s (%s): %d %s, want %d", c.name, c.path, w.Code, w.Body.String(), c.want)
		}
		var s metav1.Status
		if c.want == http.StatusForbidden && (json.Unmarshal(w.Body.Bytes(), &s) != nil || s.Kind != "Status" || !strings.Contains(s.Message, "SyncTarget root:pc1")) {
			t.Errorf("%s: refused with %s, want a Status naming the syncer's SyncTarget", c.name, w.Body.String())
		}
	}
	t.Logf("the scope matrix made %d requests of pc1's syncer's tunnel handler", requests)
}

// lastLine is the last non-empty line of s: kubectl's error message.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// follower is a kubectl logs -f running in the background.
type follower struct {
	cmd   *exec.Cmd
	lines chan string
	done  chan error
	seen  []string
}

func followLogs(t *testing.T, k kubectl, args ...string) *follower {
	t.Helper()
	cmd := exec.Command(k.binary(), append([]string{"--kubeconfig", k.kubeconfig}, args...)...)
	cmd.Env = k.environ()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f := &follower{cmd: cmd, lines: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			f.lines <- scanner.Text()
		}
		close(f.lines)
		f.done <- cmd.Wait()
	}()
	t.Cleanup(f.stop)
	return f
}

// waitLine waits up to 30s for a line containing s.
func (f *follower) waitLine(t *testing.T, s string) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-f.lines:
			if !ok {
				t.Fatalf("kubectl logs -f ended before printing %q:\n%s", s, f.output())
			}
			f.seen = append(f.seen, line)
			if strings.Contains(line, s) {
				return
			}
		case <-timeout:
			t.Fatalf("kubectl logs -f printed no %q within 30s:\n%s", s, f.output())
		}
	}
}

// wait waits up to timeout for kubectl to exit, and returns its error.
func (f *follower) wait(t *testing.T, timeout time.Duration) error {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-f.lines:
			if ok {
				f.seen = append(f.seen, line)
				continue
			}
			select {
			case err := <-f.done:
				return err
			case <-deadline:
			}
		case <-deadline:
		}
		t.Fatalf("kubectl logs -f still ran %s after its syncer was killed:\n%s", timeout, f.output())
		return nil
	}
}

func (f *follower) output() string { return strings.Join(f.seen, "\n") }

func (f *follower) stop() {
	if f.cmd.ProcessState == nil {
		_ = f.cmd.Process.Kill()
	}
}

// remotePorts are the remote ports of the TCP connections of process
// pid, read from /proc: its sockets' inodes, looked up in the tables of
// its network namespace.
func remotePorts(t *testing.T, pid int) []int {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if inode, ok := strings.CutPrefix(target, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(inode, "]")] = true
		}
	}
	var ports []int
	for _, table := range []string{"tcp", "tcp6"} {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || !inodes[f[9]] {
				continue
			}
			_, port, _ := strings.Cut(f[2], ":")
			if p, err := strconv.ParseInt(port, 16, 32); err == nil {
				ports = append(ports, int(p))
			}
		}
	}
	if len(ports) == 0 {
		t.Fatalf("found no TCP connection of process %d, not even its listener", pid)
	}
	return ports
}
