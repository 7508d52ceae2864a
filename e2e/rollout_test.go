package e2e

import (
	"context"
	"fmt"
	"net/netip"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// everywherePlacement places root:a's Deployments and Services on the
// targets of region eu.
const everywherePlacement = `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: eu}
spec:
  resources: [{group: apps, resource: deployments}, {group: "", resource: services}]
  targets: {labelSelector: {matchLabels: {region: eu}}}
`

// TestRollout drives a Deployment of root:a, placed on a physical
// cluster, through two image changes and back with the real kubectl:
// rollout history lists the hub's revisions, rollout undo rolls back at
// the hub and downstream, describe names the new and old ReplicaSets,
// which no tenant may write and placement never places; so do a
// StatefulSet's at the hub, whose revisions are ControllerRevisions. Then Helm 3 and
// Helm 4 install a chart with a Deployment and Services with --wait,
// which waits for the Deployment's new ReplicaSet and the Services'
// cluster IPs.
func TestRollout(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	h, admin, pki := startHubWith(t, "a")
	pc := pcluster.Start(t, "pc1", pcluster.Options{Nodes: []pcluster.Node{{Name: "pc1-a"}, {Name: "pc1-b"}}})
	admin.apply("root", "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: pc1\n  labels: {region: eu}\n")
	runSyncer(t, syncerBin, syncerKubeconfig(t, h, "root", "pc1").kubeconfig, pc.Kubeconfig, "root:pc1").waitReady(2 * time.Minute)
	admin.apply("a", everywherePlacement)

	t.Run("history and undo", func(t *testing.T) { testRolloutHistory(t, admin, pki, h, pc) })
	t.Run("StatefulSet history and undo", func(t *testing.T) { testStatefulSetHistory(t, admin) })
	for _, component := range []string{"helm", "helm4"} {
		t.Run(component+" install --wait", func(t *testing.T) { testHelmWait(t, admin, component, pc) })
	}
}

func testRolloutHistory(t *testing.T, admin kubectl, pki string, h *hub, pc *pcluster.Cluster) {
	in := func(args ...string) string {
		t.Helper()
		return admin.must(append([]string{"--context", "a", "-n", "shop"}, args...)...)
	}
	rollout := func() {
		t.Helper()
		rolledOut(t, admin, 3*time.Minute, "--context", "a", "-n", "shop", "rollout", "status", "deployment/web", "--timeout", "3m")
	}
	admin.apply("a", "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n"+placedDeployment("web", "shop", 2))
	rollout()
	in("set", "image", "deployment/web", "c=nginx:1.28")
	rollout()
	in("annotate", "deployment/web", "kubernetes.io/change-cause=to 1.29")
	in("set", "image", "deployment/web", "c=nginx:1.29")
	rollout()
	downstream := downNS("pc1", "root:a", "shop")
	waitImage(t, pc, downstream, "nginx:1.29")

	history := in("rollout", "history", "deployment/web")
	if got := revisions(history); got != "1 2 3" || !strings.Contains(history, "to 1.29") {
		t.Errorf("kubectl rollout history lists revisions %q, want 1 2 3, the last caused \"to 1.29\":\n%s", got, history)
	}
	if got := in("rollout", "history", "deployment/web", "--revision=2"); !strings.Contains(got, "nginx:1.28") {
		t.Errorf("kubectl rollout history --revision=2 does not show nginx:1.28:\n%s", got)
	}
	describe := in("describe", "deployment", "web")
	newRS := in("get", "rs", "-l", "app=web", "-o", `jsonpath={.items[?(@.spec.replicas==2)].metadata.name}`)
	if !regexp.MustCompile(`NewReplicaSet:\s+`+newRS+` \(2/2 replicas created\)`).MatchString(describe) || !strings.Contains(describe, "OldReplicaSets:") || newRS == "" {
		t.Errorf("kubectl describe does not name the new ReplicaSet %q:\n%s", newRS, describe)
	}

	// Undo goes back to 1.28, at the hub and downstream, which makes
	// revision 2 the newest; undo to revision 1 goes back to 1.27.
	in("rollout", "undo", "deployment/web")
	if got := in("get", "deployment", "web", "-o", "jsonpath={.spec.template.spec.containers[0].image}"); got != "nginx:1.28" {
		t.Errorf("after rollout undo the hub's image is %q, want nginx:1.28", got)
	}
	rollout()
	waitImage(t, pc, downstream, "nginx:1.28")
	if got := revisions(in("rollout", "history", "deployment/web")); got != "1 3 4" {
		t.Errorf("after rollout undo kubectl rollout history lists revisions %q, want 1 3 4", got)
	}
	// The Deployment names its revision, as kube's controller writes it,
	// which kubectl rollout status --revision checks.
	waitFor(t, 30*time.Second, "the Deployment's revision annotation 4", func() (bool, string) {
		got := in("get", "deployment", "web", "-o", `jsonpath={.metadata.annotations.deployment\.kubernetes\.io/revision}`)
		return got == "4", got
	})
	in("rollout", "status", "deployment/web", "--revision=4", "--timeout", "1m")
	in("rollout", "undo", "deployment/web", "--to-revision=1")
	rollout()
	waitImage(t, pc, downstream, "nginx:1.27")

	// The ReplicaSets are the hub's record: placement assigns none of
	// them, and none is downstream.
	if got := in("get", "rs", "-o", "jsonpath={.items[*].metadata.labels}"); strings.Contains(got, workloadv1alpha1.StateLabelPrefix) {
		t.Errorf("placement assigned the hub's ReplicaSets: %s", got)
	}
	rss, err := pc.Client.AppsV1().ReplicaSets(downstream).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range rss.Items {
		if rs.Labels[workloadv1alpha1.RevisionRecordLabel] != "" || metav1.GetControllerOf(&rs) == nil {
			t.Errorf("downstream ReplicaSet %s is not the downstream Deployment's own", rs.Name)
		}
	}
	attackRecords(t, admin, pki, h, newRS)

	// The Deployment's deletion takes its records with it.
	in("delete", "deployment", "web")
	waitFor(t, time.Minute, "the ReplicaSets of the deleted Deployment gone", func() (bool, string) {
		got := in("get", "rs", "-o", "name")
		return got == "", got
	})
}

// attackRecords has a cluster-admin of root:a try to write the hub's
// ReplicaSet name in each way kubectl offers; each is refused.
func attackRecords(t *testing.T, admin kubectl, pki string, h *hub, name string) {
	admin.grantEverything("a", "alice")
	alice := userKubeconfig(t, pki, "alice")
	alice.addContexts(h, pki, "alice")
	requests := 0
	for _, args := range [][]string{
		{"delete", "rs", name},
		{"scale", "rs", name, "--replicas=5"},
		{"label", "rs", name, workloadv1alpha1.RevisionRecordLabel + "-"},
		{"annotate", "rs", name, "deployment.kubernetes.io/revision=99", "--overwrite"},
		{"patch", "rs", name, "--subresource=status", "--type=merge", "-p", `{"status":{"replicas":9}}`},
		{"set", "image", "rs/" + name, "c=evil:1"},
		{"delete", "rs", "--all"},
	} {
		requests++
		out, err := alice.run(append([]string{"--context", "a", "-n", "shop"}, args...)...)
		if err == nil || !strings.Contains(err.Error(), "read-only record of a revision of its Deployment") {
			t.Errorf("kubectl %s as a cluster-admin of root:a: %v %s; want it refused as the hub's record", strings.Join(args, " "), err, out)
		}
	}
	t.Logf("%d writes of a hub ReplicaSet refused", requests)
}

// revisions are the revision numbers kubectl rollout history lists.
func revisions(history string) string {
	var out []string
	for _, line := range strings.Split(history, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] != "REVISION" && !strings.HasSuffix(f[0], ":") && !strings.Contains(f[0], "/") {
			out = append(out, f[0])
		}
	}
	return strings.Join(out, " ")
}

// waitImage waits until Deployment web of namespace in physical cluster
// pc runs image, all its replicas updated and available.
func waitImage(t *testing.T, pc *pcluster.Cluster, namespace, image string) {
	t.Helper()
	waitFor(t, 2*time.Minute, "web in "+pc.Name+" running "+image, func() (bool, string) {
		d, err := pc.Client.AppsV1().Deployments(namespace).Get(context.Background(), "web", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		got := d.Spec.Template.Spec.Containers[0].Image
		return got == image && d.Status.UpdatedReplicas == *d.Spec.Replicas && d.Status.AvailableReplicas == *d.Spec.Replicas,
			fmt.Sprintf("%s, %d updated, %d available", got, d.Status.UpdatedReplicas, d.Status.AvailableReplicas)
	})
}

// testHelmWait installs the chart waited with the helm of component and
// --wait, which returns once the Deployment runs in physical cluster pc.
func testHelmWait(t *testing.T, admin kubectl, component string, pc *pcluster.Cluster) {
	hm := newHelm(t, admin, component)
	hm.timeout = 4 * time.Minute
	release := "waited-" + component
	out := hm.must("a", "install", release, filepath.Join("testdata", "helm", "waited"), "--wait", "--timeout", "3m")
	if !strings.Contains(out, "STATUS: deployed") {
		t.Errorf("helm install --wait printed:\n%s", out)
	}
	d, err := pc.Client.AppsV1().Deployments(downNS("pc1", "root:a", "default")).Get(context.Background(), release, metav1.GetOptions{})
	if err != nil || d.Status.AvailableReplicas != 2 {
		t.Errorf("after helm install --wait, %s downstream: %v", release, describeDeployment(d, err))
	}
	get := func(name string) string {
		return admin.must("--context", "a", "-n", "default", "get", "svc", name, "-o", "jsonpath={.spec.clusterIP}")
	}
	if ip, err := netip.ParseAddr(get(release)); err != nil || !netip.MustParsePrefix("10.96.0.0/12").Contains(ip) {
		t.Errorf("service %s has cluster IP %q, want one of 10.96.0.0/12", release, get(release))
	}
	if got := get(release + "-headless"); got != "None" {
		t.Errorf("headless service %s-headless has cluster IP %q", release, got)
	}
	hm.must("a", "uninstall", release, "--wait")
}

// statefulSet is StatefulSet db of image in namespace data.
func statefulSet(image string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata: {name: data}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: %s}]
`, image)
}

// testStatefulSetHistory lists and undoes the revisions of a StatefulSet
// at the hub. The syncer does not sync StatefulSets by default, so it
// runs nowhere, and no rollout is waited for.
func testStatefulSetHistory(t *testing.T, admin kubectl) {
	in := func(args ...string) string {
		t.Helper()
		return admin.must(append([]string{"--context", "a", "-n", "data"}, args...)...)
	}
	revisionsWithin := func(want string) {
		t.Helper()
		waitFor(t, 30*time.Second, "the StatefulSet's revisions "+want, func() (bool, string) {
			got := revisions(in("rollout", "history", "statefulset/db"))
			return got == want, got
		})
	}
	admin.apply("a", statefulSet("nginx:1.27"))
	revisionsWithin("1")
	in("set", "image", "statefulset/db", "c=nginx:1.28")
	revisionsWithin("1 2")
	in("rollout", "undo", "statefulset/db")
	if got := in("get", "statefulset", "db", "-o", "jsonpath={.spec.template.spec.containers[0].image}"); got != "nginx:1.27" {
		t.Errorf("after rollout undo the hub's StatefulSet runs %q, want nginx:1.27", got)
	}
	revisionsWithin("2 3")
	// Undoing to the revision it runs changes nothing. (kubectl before
	// 1.33 says it rolled back: it compares the revision's data with its
	// own encoding of the template, which writes a creationTimestamp
	// that k8s.io/apimachinery 0.37, kube's controllers' and the hub's,
	// leaves out.)
	in("rollout", "undo", "statefulset/db", "--to-revision=3")
	revisionsWithin("2 3")
	if got := in("get", "statefulset", "db", "-o", "jsonpath={.spec.template.spec.containers[0].image}"); got != "nginx:1.27" {
		t.Errorf("after undoing to the revision it runs, the hub's StatefulSet runs %q, want nginx:1.27", got)
	}
	if out, err := admin.run("--context", "a", "-n", "data", "delete", "controllerrevision", "--all", "--as", "alice"); err == nil || !strings.Contains(err.Error(), "read-only record of a revision of its StatefulSet") {
		t.Errorf("deleting the StatefulSet's revisions as a cluster-admin of root:a: %v %s; want it refused", err, out)
	}
}
