package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestSyncerPartition cuts a running syncer off from its hub, on
// PostgreSQL, for a minute by stopping the hub, while the physical
// cluster changes: a pod of the synced Deployment is deleted and the
// Deployment is scaled by hand. Meanwhile nothing the syncer made
// downstream is deleted or made again, and the syncer keeps running. Once
// the hub is back on the same port and data, the hub shows the pods and
// the status of downstream again, the hand edit is undone, and a change
// at the hub rolls out downstream.
func TestSyncerPartition(t *testing.T) {
	t.Parallel()
	const outage = 60 * time.Second
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	h, admin := startHub(t, buildHub(t), pgtest.Shared(t).NewDatabase(t))
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	pc1 := pcluster.Start(t, "pc1", pcluster.Options{Nodes: []pcluster.Node{{Name: "pc1-a"}, {Name: "pc1-b"}}})
	key, syncer := registerSyncer(t, h, buildSyncer(t), pc1, "pc1")
	down := kubectl{t: t, kubeconfig: pc1.Kubeconfig, home: admin.home}
	ns := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()

	admin.apply("a", workloadManifest(key, "nginx:1.27"))
	waitPods(ctx, t, pc1, ns, "nginx:1.27")
	if out, err := admin.runWithin(3*time.Minute, "--context", "a", "rollout", "status", "deploy/web", "-n", "ns1", "--timeout=150s"); err != nil {
		t.Fatalf("rollout status at the hub: %v\n%s", err, out)
	}
	hubPods := func() []string { return podList(admin, "--context", "a", "-n", "ns1") }
	downPods := func() []string { return podList(down, "-n", ns, "-l", "app=web") }
	waitUntil(t, 2*time.Minute, "the pods downstream listed at the hub", func() string { return differ(hubPods(), downPods()) })
	statusBefore := deploymentStatus(admin, "--context", "a", "-n", "ns1")

	// What the syncer made downstream, and the Deployment's ReplicaSet,
	// by UID: none may be deleted or made again.
	made := func() ([]string, error) {
		objects, err := down.run("get", "namespace/"+ns, "deployment/web", "configmap/web-config", "secret/web-secret", "-n", ns, "-o", uidList)
		if err != nil {
			return nil, err
		}
		replicaSets, err := down.run("get", "replicasets", "-n", ns, "-l", "app=web", "-o", uidList)
		return strings.Split(strings.TrimSpace(objects+replicaSets), "\n"), err
	}
	before, err := made()
	if err != nil {
		t.Fatal(err)
	}
	if len(before) != 5 {
		t.Fatalf("downstream objects before the outage: %q, want the namespace, Deployment, ConfigMap, Secret and one ReplicaSet", before)
	}
	pods, err := pc1.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
	if err != nil {
		t.Fatal(err)
	}
	deleted := pods.Items[0].Name

	h.stop(t)
	cut := time.Now()
	t.Logf("hub stopped")
	// While the hub is away, the physical cluster changes: a pod goes and
	// its ReplicaSet makes another, and someone scales the Deployment.
	if err := pc1.Client.CoreV1().Pods(ns).Delete(ctx, deleted, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := pc1.Client.AppsV1().Deployments(ns).Patch(ctx, "web", types.MergePatchType, []byte(`{"spec":{"replicas":1}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	// The syncer undoes the scaling from what it last read at the hub.
	replicas := int32(1)
	for time.Since(cut) < outage {
		if now, err := made(); err != nil || !slices.Equal(now, before) {
			t.Fatalf("%s into the outage, the downstream objects are %q (%v), were %q", time.Since(cut).Round(time.Second), now, err, before)
		}
		if !pcluster.Alive(syncer.cmd.Process.Pid) {
			t.Fatalf("the syncer exited %s into the outage", time.Since(cut).Round(time.Second))
		}
		d, err := pc1.Client.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		replicas = *d.Spec.Replicas
		time.Sleep(2 * time.Second)
	}
	if replicas != 3 {
		t.Errorf("at the end of the outage the Deployment downstream has %d replicas, want the hub's 3", replicas)
	}
	h.start(t)
	back := time.Now()
	t.Logf("hub started again after %s", back.Sub(cut).Round(time.Second))

	// What changed downstream meanwhile shows at the hub: the pod gone,
	// its replacement there, and the Deployment's status.
	waitUntil(t, 5*time.Minute, "the pods downstream listed at the hub, the deleted one gone", func() string {
		got, want := hubPods(), downPods()
		if len(want) != 3 || slices.ContainsFunc(want, func(p string) bool { return strings.HasPrefix(p, deleted+" ") }) {
			return fmt.Sprintf("downstream %q, want 3 pods without %s", want, deleted)
		}
		return differ(got, want)
	})
	t.Logf("the hub's pods converged %s after the hub came back", time.Since(back).Round(time.Second))
	var status string
	waitUntil(t, 5*time.Minute, "the Deployment's status downstream at the hub", func() string {
		status = deploymentStatus(admin, "--context", "a", "-n", "ns1")
		return differ([]string{status}, []string{deploymentStatus(down, "-n", ns)})
	})
	t.Logf("the hub's Deployment status converged %s after the hub came back; it changed: %t", time.Since(back).Round(time.Second), status != statusBefore)
	if out, err := admin.runWithin(3*time.Minute, "--context", "a", "rollout", "status", "deploy/web", "-n", "ns1", "--timeout=150s"); err != nil {
		t.Fatalf("rollout status at the hub after the outage: %v\n%s", err, out)
	}
	if got := admin.must("--context", "a", "get", "deploy", "web", "-n", "ns1", "--no-headers"); !strings.Contains(got, "3/3") {
		t.Errorf("kubectl get deploy at the hub after the outage: %q, want 3/3 ready", got)
	}
	if now, err := made(); err != nil || !slices.Equal(now, before) {
		t.Fatalf("after the outage, the downstream objects are %q (%v), were %q", now, err, before)
	}

	// A change at the hub after it returned rolls out downstream, in the
	// same Deployment.
	admin.must("--context", "a", "set", "image", "deploy/web", "web=nginx:1.28", "-n", "ns1")
	if out, err := admin.runWithin(3*time.Minute, "--context", "a", "rollout", "status", "deploy/web", "-n", "ns1", "--timeout=150s"); err != nil {
		t.Fatalf("rollout status at the hub after the image change: %v\n%s", err, out)
	}
	waitPods(ctx, t, pc1, ns, "nginx:1.28")
	waitUntil(t, 2*time.Minute, "the new pods downstream listed at the hub, and the old ones gone there", func() string { return differ(hubPods(), downPods()) })
	after, err := made()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range before {
		if !slices.Contains(after, o) {
			t.Errorf("after the image change, %s is not downstream among %q", o, after)
		}
	}
	if !pcluster.Alive(syncer.cmd.Process.Pid) {
		t.Fatal("the syncer exited")
	}
}

// TestSyncerTwoClusters runs ns1/web of root:a in physical cluster pc1
// and that of root:b in pc2, each assigned to its own SyncTarget in root
// and synced by that target's syncer: each runs in its own cluster only,
// nothing of one logical cluster reaches the other's physical cluster,
// and each logical cluster lists at the hub only its own pods.
func TestSyncerTwoClusters(t *testing.T) {
	t.Parallel()
	h, admin, _ := startHubWith(t, "a", "b")
	syncerBin := buildSyncer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	type placement struct {
		cluster, context string
		pc               *pcluster.Cluster
		key              string
	}
	placements := []*placement{{cluster: "root:a", context: "a"}, {cluster: "root:b", context: "b"}}
	for i, p := range placements {
		name := []string{"pc1", "pc2"}[i]
		p.pc = pcluster.Start(t, name, pcluster.Options{Nodes: []pcluster.Node{{Name: name + "-a"}}})
		p.key, _ = registerSyncer(t, h, syncerBin, p.pc, name)
		admin.apply(p.context, workloadManifest(p.key, "nginx:1.27"))
	}
	for _, p := range placements {
		waitPods(ctx, t, p.pc, workloadv1alpha1.DownstreamNamespace(p.key, p.cluster, "ns1"), "nginx:1.27")
	}

	for i, p := range placements {
		other := placements[1-i]
		ns := workloadv1alpha1.DownstreamNamespace(p.key, p.cluster, "ns1")
		if out, err := admin.runWithin(3*time.Minute, "--context", p.context, "rollout", "status", "deploy/web", "-n", "ns1", "--timeout=150s"); err != nil {
			t.Fatalf("rollout status at the hub in %s: %v\n%s", p.cluster, err, out)
		}
		if got := admin.must("--context", p.context, "get", "deploy", "web", "-n", "ns1", "-o", "jsonpath={.metadata.finalizers}"); got != `["`+workloadv1alpha1.FinalizerPrefix+p.key+`"]` {
			t.Errorf("the hub Deployment of %s has finalizers %s, want only that of %s's target", p.cluster, got, p.pc.Name)
		}
		// The hub lists the pods of the logical cluster's own physical
		// cluster, on its nodes, and no other.
		down := kubectl{t: t, kubeconfig: p.pc.Kubeconfig, home: admin.home}
		want := podList(down, "-n", ns, "-l", "app=web")
		var got []string
		waitUntil(t, 2*time.Minute, "the pods of "+p.pc.Name+" listed at the hub in "+p.cluster, func() string {
			got = podList(admin, "--context", p.context, "-n", "ns1")
			return differ(got, want)
		})
		for _, pod := range got {
			if !strings.HasSuffix(pod, " Running "+p.pc.Name+"-a") {
				t.Errorf("pod at the hub in %s: %q, want it Running on %s-a", p.cluster, pod, p.pc.Name)
			}
		}
		// Nothing of the other logical cluster is in this physical
		// cluster: no object in or naming the other's namespace, or
		// coming from the other logical cluster.
		otherNs := workloadv1alpha1.DownstreamNamespace(other.key, other.cluster, "ns1")
		objects := strings.Split(strings.TrimSpace(down.must("get", "namespaces,deployments,replicasets,pods,configmaps,secrets", "-A", "-o",
			`jsonpath={range .items[*]}{.kind} {.metadata.namespace}/{.metadata.name} {.metadata.annotations.workload\.canopy\.dev/origin-cluster}{"\n"}{end}`)), "\n")
		own := 0
		for _, o := range objects {
			if strings.Contains(o, otherNs) || strings.HasSuffix(o, " "+other.cluster) {
				t.Errorf("%s holds %q, of %s", p.pc.Name, o, other.cluster)
			}
			if strings.Contains(o, ns) {
				own++
			}
		}
		// The namespace, Deployment, ReplicaSet, 3 pods, ConfigMap and
		// Secret at least are the logical cluster's own.
		if own < 8 {
			t.Errorf("%s holds %d objects of %s, want at least 8:\n%s", p.pc.Name, own, p.cluster, strings.Join(objects, "\n"))
		}
	}
}

// registerSyncer registers SyncTarget name in root with hub synctarget
// create, given createFlags too, as an administrator would, and runs its
// syncer for pc with the hub credential that issues, and the --hub-url
// flags of the manifest's syncer, if any. It returns the target's key and
// the syncer.
func registerSyncer(t *testing.T, h *hub, syncerBin string, pc *pcluster.Cluster, name string, createFlags ...string) (string, *syncerProcess) {
	t.Helper()
	create := exec.Command(h.bin, append([]string{"synctarget", "create", name, "--logical-cluster", "root", "--data-dir", h.dataDir}, createFlags...)...)
	var stderr bytes.Buffer
	create.Stderr = &stderr
	manifest, err := create.Output()
	if err != nil {
		t.Fatalf("hub synctarget create %s: %v\n%s", name, err, stderr.String())
	}
	p := runSyncer(t, syncerBin, writeFile(t, string(hubKubeconfigOf(t, manifest))), pc.Kubeconfig, "root:"+name, hubURLFlagsOf(t, manifest)...)
	p.waitReady(2 * time.Minute)
	return workloadv1alpha1.TargetKey("root", name), p
}

// uidList is the jsonpath output of each listed object's kind, name, UID
// and deletion time, if it is being deleted.
const uidList = `jsonpath={range .items[*]}{.kind}/{.metadata.name} {.metadata.uid} {.metadata.deletionTimestamp}{"\n"}{end}`

// podList is each pod's name, phase and node that k lists with args,
// sorted.
func podList(k kubectl, args ...string) []string {
	k.t.Helper()
	out := k.must(append([]string{"get", "pods", "-o", `jsonpath={range .items[*]}{.metadata.name} {.status.phase} {.spec.nodeName}{"\n"}{end}`}, args...)...)
	pods := strings.Split(strings.TrimSpace(out), "\n")
	slices.Sort(pods)
	return pods
}

// deploymentStatus is what status of Deployment web k finds with args:
// its replica counts and conditions, with their times.
func deploymentStatus(k kubectl, args ...string) string {
	k.t.Helper()
	return k.must(append([]string{"get", "deployment", "web", "-o",
		`jsonpath={.status.replicas}/{.status.readyReplicas}/{.status.availableReplicas}/{.status.updatedReplicas}{range .status.conditions[*]} {.type}={.status},{.reason},{.lastUpdateTime},{.lastTransitionTime}{end}`}, args...)...)
}

// waitUntil polls cond, which says what is instead while what does not
// hold, until it answers "", failing the test if it does not within
// timeout.
func waitUntil(t *testing.T, timeout time.Duration, what string, cond func() string) {
	t.Helper()
	for deadline := time.Now().Add(timeout); ; time.Sleep(500 * time.Millisecond) {
		instead := cond()
		if instead == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s; instead %s", what, timeout, instead)
		}
	}
}

// differ is "" when got equals want, else what each is.
func differ[T comparable](got, want []T) string {
	if slices.Equal(got, want) {
		return ""
	}
	return fmt.Sprintf("%v, want %v", got, want)
}
