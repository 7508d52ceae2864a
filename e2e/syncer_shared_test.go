package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestSyncerSharedDeployment runs one Deployment of 6 replicas of root:a
// in two physical clusters, 2 in pc1 and 4 in pc2, as placement divides
// replicas, with a syncer each: each runs its share, reports its status
// in its own annotation at the hub, and the hub's status is their sum, so
// that kubectl get shows 6/6 and kubectl rollout status succeeds, also
// after an image change. A change that pc2 alone refuses shows in the
// hub's status as SyncFailed, naming pc2. Unassigned from pc2, it runs
// in pc1 alone, whose syncer writes the status itself again, and pc2's
// report goes.
func TestSyncerSharedDeployment(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	h, admin := startHub(t, buildHub(t), "")
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	keys := map[string]string{}
	clusters := map[string]*pcluster.Cluster{}
	for _, name := range []string{"pc1", "pc2"} {
		clusters[name] = pcluster.Start(t, name, pcluster.Options{Nodes: []pcluster.Node{{Name: name + "-a"}, {Name: name + "-b"}}})
		admin.apply("root", "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: "+name+"\n")
		keys[name] = workloadv1alpha1.TargetKey("root", name)
		runSyncer(t, syncerBin, syncerKubeconfig(t, h, "root", name).kubeconfig, clusters[name].Kubeconfig, "root:"+name).waitReady(time.Minute)
	}
	admin.apply("a", sharedDeployment(keys["pc1"], keys["pc2"], "nginx:1.27"))
	ns := func(target string) string { return workloadv1alpha1.DownstreamNamespace(keys[target], "root:a", "ns1") }
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	waitReplicas := func(name string, want int32) {
		t.Helper()
		c := clusters[name]
		for ctx.Err() == nil {
			d, err := c.Client.AppsV1().Deployments(ns(name)).Get(ctx, "web", metav1.GetOptions{})
			if err == nil && *d.Spec.Replicas == want && d.Status.AvailableReplicas == want && d.Status.ObservedGeneration == d.Generation {
				return
			}
			if err != nil && !apierrors.IsNotFound(err) {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
		}
		t.Fatalf("web in %s has not %d available replicas", name, want)
	}
	waitReplicas("pc1", 2)
	waitReplicas("pc2", 4)
	rolledOut(t, admin, 2*time.Minute, "--context", "a", "-n", "ns1", "rollout", "status", "deployment/web", "--timeout", "2m")
	if got := admin.must("--context", "a", "-n", "ns1", "get", "deployment", "web", "-o", "jsonpath={.status.replicas} {.status.availableReplicas} {.status.conditions[?(@.type==\"Available\")].status}"); got != "6 6 True" {
		t.Errorf("the hub's aggregated status: replicas, available, Available %q, want 6 6 True", got)
	}
	for name, key := range keys {
		report := statusReport(admin, "a", "ns1", "deployments.apps", "web", key)
		if !strings.Contains(report, `"availableReplicas":`) {
			t.Errorf("%s's report of its status at the hub: %q", name, report)
		}
	}

	// An image change rolls out in both, and the hub waits for both.
	admin.apply("a", sharedDeployment(keys["pc1"], keys["pc2"], "nginx:1.28"))
	rolledOut(t, admin, 3*time.Minute, "--context", "a", "-n", "ns1", "rollout", "status", "deployment/web", "--timeout", "3m")
	for name := range clusters {
		d, err := clusters[name].Client.AppsV1().Deployments(ns(name)).Get(ctx, "web", metav1.GetOptions{})
		if err != nil || d.Spec.Template.Spec.Containers[0].Image != "nginx:1.28" || d.Status.UpdatedReplicas != *d.Spec.Replicas {
			t.Errorf("web in %s after the rollout at the hub: %v", name, err)
		}
	}

	// A change that pc2 alone refuses: pc1 runs it, and the hub's
	// aggregated status has SyncFailed, naming pc2 and quoting it, from
	// pc2's report; undone, the condition goes.
	installRefusingPolicy(ctx, t, clusters["pc2"])
	admin.must("--context", "a", "-n", "ns1", "label", "deployment", "web", "forbidden=true")
	syncFailed := func() string {
		return admin.must("--context", "a", "-n", "ns1", "get", "deployment", "web", "-o",
			`jsonpath={.status.conditions[?(@.type=="SyncFailed")].status}/{.status.conditions[?(@.type=="SyncFailed")].reason}/{.status.conditions[?(@.type=="SyncFailed")].message}`)
	}
	got := syncFailed()
	for deadline := time.Now().Add(30 * time.Second); !strings.HasPrefix(got, "True/") && time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		got = syncFailed()
	}
	if !strings.HasPrefix(got, "True/Forbidden/") || !strings.Contains(got, "SyncTarget root:pc2") || strings.Contains(got, "root:pc1") || !strings.Contains(got, forbiddenMessage) {
		t.Fatalf("the hub's SyncFailed of the change pc2 refuses: %q, want True naming pc2 alone and quoting %q", got, forbiddenMessage)
	}
	for ctx.Err() == nil {
		d, err := clusters["pc1"].Client.AppsV1().Deployments(ns("pc1")).Get(ctx, "web", metav1.GetOptions{})
		if err == nil && d.Labels["forbidden"] == "true" {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	admin.must("--context", "a", "-n", "ns1", "label", "deployment", "web", "forbidden-")
	for deadline := time.Now().Add(30 * time.Second); got != "//" && time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		got = syncFailed()
	}
	if got != "//" {
		t.Errorf("the hub's SyncFailed once the refused change is undone: %q, want none", got)
	}

	// Unassigned from pc2: gone there, and pc1's status is the hub's.
	admin.must("--context", "a", "-n", "ns1", "label", "deployment", "web", workloadv1alpha1.StateLabel(keys["pc2"])+"-")
	admin.must("--context", "a", "-n", "ns1", "annotate", "deployment", "web", workloadv1alpha1.ReplicasAnnotation(keys["pc2"])+"-", workloadv1alpha1.ReplicasAnnotation(keys["pc1"])+"-")
	for ctx.Err() == nil {
		_, err := clusters["pc2"].Client.AppsV1().Deployments(ns("pc2")).Get(ctx, "web", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	waitReplicas("pc1", 6)
	rolledOut(t, admin, 2*time.Minute, "--context", "a", "-n", "ns1", "rollout", "status", "deployment/web", "--timeout", "2m")
	deadline := time.Now().Add(time.Minute)
	for {
		got := admin.must("--context", "a", "-n", "ns1", "get", "deployment", "web", "-o", "jsonpath={.status.availableReplicas} {.metadata.annotations}")
		reports := admin.must("--context", "a", "-n", "ns1", "get", "statusreports.workload.canopy.dev", "-o", "name")
		if strings.HasPrefix(got, "6 ") && !strings.Contains(got, workloadv1alpha1.StatusAnnotationPrefix) && reports == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub object, assigned to pc1 alone: available replicas and annotations %q, StatusReports %q; want 6 and no status reports", got, reports)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// sharedDeployment is namespace ns1 and Deployment web of 6 replicas of
// image, assigned to the targets of keys one and two, with 2 replicas for
// one and 4 for two.
func sharedDeployment(one, two, image string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata: {name: ns1}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ns1
  labels: {%[1]s: Sync, %[2]s: Sync}
  annotations: {%[3]s: "2", %[4]s: "4"}
spec:
  replicas: 6
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: %[5]s}]
`, workloadv1alpha1.StateLabel(one), workloadv1alpha1.StateLabel(two), workloadv1alpha1.ReplicasAnnotation(one), workloadv1alpha1.ReplicasAnnotation(two), image)
}

// rolledOut runs kubectl rollout status, with args, within timeout.
func rolledOut(t *testing.T, admin kubectl, timeout time.Duration, args ...string) {
	t.Helper()
	if out, err := admin.runWithin(timeout+30*time.Second, args...); err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
