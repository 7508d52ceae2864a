package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/syncerdeploy"
)

// TestSyncTargetHeartbeatTimeout writes a SyncTarget's heartbeat once, as
// its syncer would, and watches the hub turn it NotReady once the
// heartbeat is older than the hub's timeout, and Ready stay as a new
// heartbeat sets it until that one expires too.
func TestSyncTargetHeartbeatTimeout(t *testing.T) {
	const timeout = 3 * time.Second
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t), flags: []string{"--sync-target-heartbeat-timeout", timeout.String()}}
	h.start(t)
	admin := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	admin.apply("a", `apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata:
  name: pc1
`)
	// A SyncTarget never reported on is left alone: Ready stays unknown.
	time.Sleep(timeout + time.Second)
	if got := readyOf(admin, "pc1"); got != " " {
		t.Errorf("Ready of a SyncTarget without a heartbeat: %q, want none", got)
	}

	for round := range 2 {
		// The API keeps whole seconds.
		beat := time.Now().Truncate(time.Second)
		admin.must("--context", "a", "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge", "-p", heartbeat(beat))
		if got := readyOf(admin, "pc1"); got != "True SyncerReporting" {
			t.Fatalf("round %d: Ready right after a heartbeat: %q", round, got)
		}
		var got string
		for time.Since(beat) < timeout+10*time.Second {
			if got = readyOf(admin, "pc1"); got != "True SyncerReporting" {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if got != "False HeartbeatTimeout" {
			t.Fatalf("round %d: Ready %q %s after the heartbeat, want False HeartbeatTimeout", round, got, time.Since(beat))
		}
		if since := time.Since(beat); since < timeout {
			t.Errorf("round %d: NotReady %s after the heartbeat, before the %s timeout", round, since, timeout)
		}
	}
	if got := admin.must("--context", "a", "get", "synctarget", "pc1", "-o", "jsonpath={.status.conditions[0].message}"); !strings.Contains(got, "more than 3s ago") {
		t.Errorf("the HeartbeatTimeout message %q does not say how long the hub waits", got)
	}
}

// readyOf is the status and reason of SyncTarget name's Ready condition
// in root:a.
func readyOf(admin kubectl, name string) string {
	return admin.must("--context", "a", "get", "synctarget", name, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.conditions[?(@.type=="Ready")].reason}`)
}

// heartbeat is the merge patch of a syncer's heartbeat at t.
func heartbeat(t time.Time) string {
	at := t.UTC().Format(time.RFC3339)
	return fmt.Sprintf(`{"status":{"lastHeartbeatTime":%q,"conditions":[{"type":"Ready","status":"True","reason":"SyncerReporting","message":"reporting","lastTransitionTime":%q}]}}`, at, at)
}

// TestSyncTargetCreate registers a SyncTarget with hub synctarget create:
// the SyncTarget is at the hub with its labels, the printed manifest is
// accepted by a real physical cluster's API server, and the hub
// kubeconfig in it lets the syncer read the wildcard and report its
// target, and nothing more.
func TestSyncTargetCreate(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	h, admin := startHub(t, buildHub(t), "")
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "platform")
	base := "https://127.0.0.1:" + strconv.Itoa(h.port)

	create := exec.Command(h.bin, "synctarget", "create", "pc1", "--logical-cluster", "root:platform",
		"--label", "region=eu", "--label", "zone=eu-1", "--resources", "deployments.apps,configmaps",
		"--data-dir", h.dataDir, "--hub-url", base)
	var stdout, stderr bytes.Buffer
	create.Stdout, create.Stderr = &stdout, &stderr
	if err := create.Run(); err != nil {
		t.Fatalf("hub synctarget create: %v\n%s", err, stderr.String())
	}
	key := workloadv1alpha1.TargetKey("root:platform", "pc1")
	if !strings.Contains(stderr.String(), workloadv1alpha1.StateLabel(key)) {
		t.Errorf("hub synctarget create does not tell the assignment label %s: %q", workloadv1alpha1.StateLabel(key), stderr.String())
	}
	platform := []string{"--server", base + "/clusters/root:platform"}
	if got := admin.must(append(platform, "--context", "root", "get", "synctarget", "pc1", "-o",
		"jsonpath={.metadata.labels.region} {.metadata.labels.zone} {.spec.resources[*].resource}")...); got != "eu eu-1 deployments configmaps" {
		t.Errorf("SyncTarget pc1 at the hub: labels and resources %q", got)
	}

	manifest := writeFile(t, stdout.String())
	pc := pcluster.Start(t, "st1", pcluster.Options{Nodes: []pcluster.Node{{Name: "st1-a"}}})
	downstream := kubectl{t: t, kubeconfig: pc.Kubeconfig, home: t.TempDir()}
	// A server-side dry run creates nothing, so the namespaced objects of
	// a manifest whose namespace is new fail on it: the namespace is
	// made first, and the whole manifest, its Namespace included, dry run.
	downstream.must("create", "namespace", syncerdeploy.Namespace)
	if out, err := downstream.run("apply", "--dry-run=server", "-f", manifest); err != nil {
		t.Fatalf("kubectl apply --dry-run=server of the printed manifest in the physical cluster: %v\n%s", err, out)
	}
	downstream.must("apply", "-f", manifest)
	if got := downstream.must("get", "deployment", "-n", syncerdeploy.Namespace, "syncer-"+key, "-o",
		"jsonpath={.spec.template.spec.serviceAccountName} {.spec.template.spec.containers[0].args}"); got != "syncer-"+key+` ["--hub-kubeconfig","/etc/canopy/hub/kubeconfig","--sync-target","root:platform:pc1"]` {
		t.Errorf("the syncer's Deployment in the physical cluster: service account and args %s", got)
	}

	syncer := kubectl{t: t, kubeconfig: writeFile(t, string(hubKubeconfigOf(t, stdout.Bytes()))), home: t.TempDir()}
	// Bound to the SyncTarget it registered.
	uid := admin.must(append(platform, "--context", "root", "get", "synctarget", "pc1", "-o", "jsonpath={.metadata.uid}")...)
	if who := syncer.must("auth", "whoami", "-o", "jsonpath={.status.userInfo.username} {.status.userInfo.groups}"); who != `syncer:`+key+` ["canopy:syncers","canopy:synctarget:root:platform:pc1","canopy:synctarget-uid:`+uid+`","system:authenticated"]` {
		t.Errorf("the syncer's hub identity: %s", who)
	}
	selector := workloadv1alpha1.StateLabel(key) + "=" + workloadv1alpha1.StateSync
	for _, resource := range []string{"deployments", "configmaps"} {
		if out, err := syncer.run("--server", base+"/clusters/*", "get", resource, "-A", "-l", selector); err != nil {
			t.Errorf("the syncer's wildcard list of %s: %v\n%s", resource, err, out)
		}
	}
	if _, err := syncer.run("--server", base+"/clusters/*", "get", "secrets", "-A", "-l", selector); err == nil || !strings.Contains(err.Error(), "is forbidden") {
		t.Errorf("the syncer lists secrets, which the target does not accept, across logical clusters: %v", err)
	}
	if got := syncer.must("get", "synctarget", "pc1", "-o", "jsonpath={.metadata.name}"); got != "pc1" {
		t.Errorf("the syncer reading its SyncTarget: %q", got)
	}
	if got, _ := syncer.run("auth", "can-i", "update", "synctargets.workload.canopy.dev/pc1", "--subresource", "status"); strings.TrimSpace(got) != "yes" {
		t.Errorf("the syncer may not update its SyncTarget's status: %q", got)
	}
	if _, err := syncer.run("--server", base+"/clusters/root", "create", "configmap", "x", "-n", "default"); err == nil || !strings.Contains(err.Error(), "is forbidden") {
		t.Errorf("the syncer created a ConfigMap in root: %v", err)
	}
	if got, _ := syncer.run("auth", "can-i", "update", "synctargets.workload.canopy.dev/other", "--subresource", "status"); !strings.HasPrefix(got, "no - ") || !strings.Contains(got, "its own SyncTarget") {
		t.Errorf("the syncer may update another SyncTarget's status: %q", got)
	}
}

// hubKubeconfigOf is the hub kubeconfig in the Secret of a syncer
// manifest.
func hubKubeconfigOf(t *testing.T, manifest []byte) []byte {
	t.Helper()
	kubeconfig, err := syncerdeploy.HubKubeconfig(manifest)
	if err != nil {
		t.Fatal(err)
	}
	return kubeconfig
}

// hubURLFlagsOf are the --hub-url flags, with their values, of the
// syncer's container in a syncer manifest.
func hubURLFlagsOf(t *testing.T, manifest []byte) []string {
	t.Helper()
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(manifest), 4096)
	for {
		var d appsv1.Deployment
		if err := dec.Decode(&d); err == io.EOF {
			t.Fatalf("no Deployment in the syncer manifest:\n%s", manifest)
		} else if err != nil {
			t.Fatal(err)
		}
		if d.Kind != "Deployment" {
			continue
		}
		var flags []string
		args := d.Spec.Template.Spec.Containers[0].Args
		for i := 0; i+1 < len(args); i++ {
			if args[i] == "--hub-url" {
				flags = append(flags, args[i], args[i+1])
			}
		}
		return flags
	}
}
