package e2e

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/canopy-dev/canopy/internal/pgtest"
	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TestClusterQuotaLeases is acceptance 2 of issue 19, with the real
// kubectl: root:org holds 10 CPUs and 20 logical clusters, leased to it
// by root, and leases 6 CPUs to root:org:a and 4 to root:org:b. The
// admin of a cannot sub-lease more than a holds or run a Deployment
// needing 7 CPUs; the admin of b cannot take from a, neither through its
// own lease nor by touching the leases in org, which it cannot even read;
// and the account of every lease, at every level, is exact.
func TestClusterQuotaLeases(t *testing.T) {
	t.Parallel()
	h, admin, pki := startHubWith(t, "org")
	ann, bo := userKubeconfig(t, pki, "ann"), userKubeconfig(t, pki, "bo")
	for user, k := range map[string]kubectl{"admin": admin, "ann": ann, "bo": bo} {
		for context, path := range map[string]string{"root": "root", "org": "root:org", "ta": "root:org:a", "tb": "root:org:b"} {
			k.addContextAs(h, pki, user, context, path)
		}
	}

	admin.apply("root", clusterQuota("org", map[string]string{"requests.cpu": "10", "logicalclusters": "20"}))
	admin.apply("org", clusterQuota("a", map[string]string{"requests.cpu": "6"}))
	admin.apply("org", clusterQuota("b", map[string]string{"requests.cpu": "4"}))
	// org has leased out all its CPUs: nothing is left for a third child.
	expectRefused(t, admin, "exceeded the lease of root:org (ClusterQuota \"org\" in root): leasing out requests.cpu=1, used 0, leased out 10, hard 10: 0 left",
		"--context", "org", "create", "-f", writeFile(t, clusterQuota("c", map[string]string{"requests.cpu": "1"})))
	for child, owner := range map[string]string{"a": "ann", "b": "bo"} {
		admin.apply("org", fmt.Sprintf("apiVersion: tenancy.canopy.dev/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: %s\nspec:\n  admins:\n  - kind: User\n    name: %s\n", child, owner))
		admin.must("--context", "org", "wait", "--for=jsonpath={.status.phase}=Ready", "logicalcluster/"+child, "--timeout=30s")
	}
	ann.eventually("--context", "ta", "auth", "can-i", "create", "clusterquotas.tenancy.canopy.dev")
	bo.eventually("--context", "tb", "auth", "can-i", "create", "clusterquotas.tenancy.canopy.dev")

	// a cannot sub-lease more than its 6, nor run 7 CPUs.
	expectRefused(t, ann, "exceeded the lease of root:org:a (ClusterQuota \"a\" in root:org): leasing out requests.cpu=7, used 0, leased out 0, hard 6: 6 left",
		"--context", "ta", "create", "-f", writeFile(t, clusterQuota("x", map[string]string{"requests.cpu": "7"})))
	expectRefused(t, ann, "exceeded the lease of root:org:a (ClusterQuota \"a\" in root:org): requested requests.cpu=7, used 0, leased out 0, hard 6: 6 left",
		"--context", "ta", "create", "-f", writeFile(t, cpuDeployment("big", 7)))
	// Within the lease, a runs 3 and sub-leases 3; then it holds nothing more.
	ann.must("--context", "ta", "create", "-f", writeFile(t, cpuDeployment("web", 3)))
	ann.must("--context", "ta", "create", "-f", writeFile(t, clusterQuota("x", map[string]string{"requests.cpu": "3"})))
	expectRefused(t, ann, "exceeded the lease of root:org:a (ClusterQuota \"a\" in root:org): requested requests.cpu=1, used 3, leased out 3, hard 6: 0 left",
		"--context", "ta", "create", "-f", writeFile(t, cpuDeployment("one-more", 1)))
	// A lease cannot shrink below what its subtree holds.
	expectRefused(t, admin, "the subtree of root:org:a holds 6 of its lease of 6 already (used 3, leased out 3): the lease can shrink to that, no further",
		"--context", "org", "patch", "clusterquota", "a", "--type", "merge", "-p", `{"spec":{"hard":{"requests.cpu":"5"}}}`)

	// b cannot take from a: its own lease holds 4, and the leases in org
	// are org's, which b's admin can neither change nor read.
	expectRefused(t, bo, "exceeded the lease of root:org:b (ClusterQuota \"b\" in root:org): leasing out requests.cpu=5, used 0, leased out 0, hard 4: 4 left",
		"--context", "tb", "create", "-f", writeFile(t, clusterQuota("z", map[string]string{"requests.cpu": "5"})))
	expectRefused(t, bo, "exceeded the lease of root:org:b (ClusterQuota \"b\" in root:org): requested requests.cpu=5, used 0, leased out 0, hard 4: 4 left",
		"--context", "tb", "create", "-f", writeFile(t, cpuDeployment("big", 5)))
	for _, args := range [][]string{
		{"--context", "org", "patch", "clusterquota", "b", "--type", "merge", "-p", `{"spec":{"hard":{"requests.cpu":"10"}}}`},
		{"--context", "org", "delete", "clusterquota", "a"},
		{"--context", "org", "create", "-f", writeFile(t, clusterQuota("b2", map[string]string{"requests.cpu": "1"}))},
		{"--context", "org", "get", "clusterquota", "a"},
		// Not even its own lease: a child reads nothing of its parent,
		// and a refusal tells it what is left.
		{"--context", "org", "get", "clusterquota", "b"},
		{"--context", "root", "get", "clusterquota", "org"},
	} {
		expectRefused(t, bo, "Forbidden", args...)
	}

	// The account at each level is exact.
	for _, tc := range []struct {
		user                kubectl
		context, name, want string
	}{
		{admin, "root", "org", "hard=logicalclusters=20,requests.cpu=10, out=logicalclusters=0,requests.cpu=10, used=logicalclusters=2,requests.cpu=0,"},
		{admin, "org", "a", "hard=requests.cpu=6, out=requests.cpu=3, used=requests.cpu=3,"},
		{admin, "org", "b", "hard=requests.cpu=4, out=requests.cpu=0, used=requests.cpu=0,"},
		{ann, "ta", "x", "hard=requests.cpu=3, out=requests.cpu=0, used=requests.cpu=0,"},
	} {
		expectAccount(t, tc.user, tc.context, tc.name, tc.want)
	}

	// kubectl get in org shows how org's capacity is spread over its teams.
	var rows []string
	for _, line := range strings.Split(admin.must("--context", "org", "get", "clusterquotas"), "\n") {
		rows = append(rows, strings.Join(strings.Fields(line), " "))
	}
	table := strings.Join(rows, "\n")
	for _, row := range []string{
		"NAME HARD LEASED OUT USED AGE",
		"a requests.cpu=6 requests.cpu=3 requests.cpu=3 ",
		"b requests.cpu=4 ",
	} {
		if !strings.Contains(table, row) {
			t.Errorf("kubectl get clusterquotas in root:org lacks %q:\n%s", row, table)
		}
	}

	// A deletion gives its charge back once the recount has seen it, and a
	// create that is not stored (a name that exists) gives it back at once:
	// a holds all 6 again.
	ann.must("--context", "ta", "delete", "clusterquota", "x")
	expectAccount(t, admin, "org", "a", "hard=requests.cpu=6, out=requests.cpu=0, used=requests.cpu=3,")
	expectRefused(t, ann, "AlreadyExists", "--context", "ta", "create", "-f", writeFile(t, cpuDeployment("web", 3)))
	expectAccount(t, admin, "org", "a", "hard=requests.cpu=6, out=requests.cpu=0, used=requests.cpu=3,")
	ann.must("--context", "ta", "delete", "deployment", "web", "-n", "default")
	expectAccount(t, admin, "org", "a", "hard=requests.cpu=6, out=requests.cpu=0, used=requests.cpu=0,")
	ann.must("--context", "ta", "create", "-f", writeFile(t, cpuDeployment("web", 6)))
	ann.must("--context", "ta", "delete", "deployment", "web", "-n", "default")
	// Created and deleted before the recount saw it: its charge is gone too.
	expectAccount(t, admin, "org", "a", "hard=requests.cpu=6, out=requests.cpu=0, used=requests.cpu=0,")
	admin.must("--context", "org", "delete", "clusterquota", "b")
	expectAccount(t, admin, "root", "org", "hard=logicalclusters=20,requests.cpu=10, out=logicalclusters=0,requests.cpu=6, used=logicalclusters=2,requests.cpu=0,")

	// A deleted lease's subtree keeps what it uses counted, now in the
	// lease above, until that is deleted too.
	ann.must("--context", "ta", "create", "-f", writeFile(t, cpuDeployment("web", 2)))
	admin.must("--context", "org", "delete", "clusterquota", "a")
	expectAccount(t, admin, "root", "org", "hard=logicalclusters=20,requests.cpu=10, out=logicalclusters=0,requests.cpu=0, used=logicalclusters=2,requests.cpu=2,")
	ann.must("--context", "ta", "delete", "deployment", "web", "-n", "default")
	expectAccount(t, admin, "root", "org", "hard=logicalclusters=20,requests.cpu=10, out=logicalclusters=0,requests.cpu=0, used=logicalclusters=2,requests.cpu=0,")
	// All of org's CPUs are free again: it can lease them whole.
	admin.apply("org", clusterQuota("a", map[string]string{"requests.cpu": "10"}))
	expectAccount(t, admin, "root", "org", "hard=logicalclusters=20,requests.cpu=10, out=logicalclusters=0,requests.cpu=10, used=logicalclusters=2,requests.cpu=0,")
}

// TestClusterQuotaRecount checks that what a workload scaled down or a
// lease shrunk no longer holds comes back to the lease, once the recount
// has counted it: an autoscaler scaling down and up again, over and over,
// never wears the lease out.
func TestClusterQuotaRecount(t *testing.T) {
	t.Parallel()
	h, admin, pki := startHubWith(t, "org")
	for context, path := range map[string]string{"root": "root", "org": "root:org"} {
		admin.addContextAs(h, pki, "admin", context, path)
	}
	admin.apply("root", clusterQuota("org", map[string]string{"requests.cpu": "4"}))
	admin.must("--context", "org", "create", "-f", writeFile(t, cpuDeployment("web", 4)))
	scale := func(replicas int) []string {
		return []string{"--context", "org", "scale", "deployment", "web", "-n", "default", fmt.Sprintf("--replicas=%d", replicas)}
	}
	for range 3 {
		// The scale subresource is charged as the Deployment's update.
		expectRefused(t, admin, `exceeded the lease of root:org (ClusterQuota "org" in root): requested requests.cpu=1`, scale(5)...)
		admin.must(scale(1)...)
		expectAccount(t, admin, "root", "org", "hard=requests.cpu=4, out=requests.cpu=0, used=requests.cpu=1,")
		admin.must(scale(4)...)
	}
	admin.must(scale(1)...)
	expectAccount(t, admin, "root", "org", "hard=requests.cpu=4, out=requests.cpu=0, used=requests.cpu=1,")
	admin.apply("org", clusterQuota("a", map[string]string{"requests.cpu": "3"}))
	expectAccount(t, admin, "root", "org", "hard=requests.cpu=4, out=requests.cpu=3, used=requests.cpu=1,")
	expectRefused(t, admin, "exceeded the lease of root:org", scale(2)...)
	// A lease shrunk gives back what it held beyond its new limits.
	admin.must("--context", "org", "patch", "clusterquota", "a", "--type", "merge", "-p", `{"spec":{"hard":{"requests.cpu":"1"}}}`)
	expectAccount(t, admin, "root", "org", "hard=requests.cpu=4, out=requests.cpu=1, used=requests.cpu=1,")
	admin.must(scale(3)...)
	expectAccount(t, admin, "root", "org", "hard=requests.cpu=4, out=requests.cpu=1, used=requests.cpu=3,")
}

// clusterQuota is the manifest of ClusterQuota name with hard limits hard.
func clusterQuota(name string, hard map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: tenancy.canopy.dev/v1alpha1\nkind: ClusterQuota\nmetadata:\n  name: %s\nspec:\n  hard:\n", name)
	for k, v := range hard {
		fmt.Fprintf(&b, "    %s: %q\n", k, v)
	}
	return b.String()
}

// cpuDeployment is the manifest of Deployment name, in namespace default,
// running replicas pods asking for one CPU each.
func cpuDeployment(name string, replicas int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s
  namespace: default
spec:
  replicas: %[2]d
  selector:
    matchLabels: {app: %[1]s}
  template:
    metadata:
      labels: {app: %[1]s}
    spec:
      containers:
      - name: main
        image: registry.k8s.io/pause:3.10
        resources:
          requests: {cpu: "1"}
`, name, replicas)
}

// expectAccount waits for the account of ClusterQuota name in context to
// be want, as the recount leaves it, and fails t if it is not within 30s.
func expectAccount(t *testing.T, k kubectl, context, name, want string) {
	t.Helper()
	waitFor(t, 30*time.Second, fmt.Sprintf("the account of ClusterQuota %s in %s to be %q", name, context, want), func() (bool, string) {
		got := leaseAccount(k, context, name)
		return got == want, got
	})
}

// leaseAccount is the status of ClusterQuota name, as hard, leased out
// and used.
func leaseAccount(k kubectl, context, name string) string {
	k.t.Helper()
	return strings.Join(strings.Fields(k.must("--context", context, "get", "clusterquota", name, "-o",
		`go-template=hard={{range $k, $v := .status.hard}}{{$k}}={{$v}},{{end}} out={{range $k, $v := .status.leasedOut}}{{$k}}={{$v}},{{end}} used={{range $k, $v := .status.used}}{{$k}}={{$v}},{{end}}`)), " ")
}

// expectRefused runs kubectl with args and fails t unless it is refused
// with a message containing want.
func expectRefused(t *testing.T, k kubectl, want string, args ...string) {
	t.Helper()
	out, err := k.run(args...)
	if err == nil {
		t.Errorf("kubectl %s succeeded, want it refused with %q:\n%s", strings.Join(args, " "), want, out)
		return
	}
	if !strings.Contains(err.Error()+out, want) {
		t.Errorf("kubectl %s: %v %s\nwant a refusal saying %q", strings.Join(args, " "), err, out, want)
	}
}

// TestClusterQuotaNoOvershoot is acceptance 3 of issue 19: 64 clients,
// spread over two hub replicas on one PostgreSQL database and over four
// sibling logical clusters, create ConfigMaps as fast as they can under
// one lease of count/configmaps, given anew for each of 20 runs. Every
// run admits exactly as many as the lease holds: the clients' acknowledged
// creates, the ConfigMaps stored and the lease's account all equal it.
func TestClusterQuotaNoOvershoot(t *testing.T) {
	t.Parallel()
	const (
		clients = 64
		runs    = 20
		lease   = 40
	)
	r := startReplicas(t, 2, pgtest.Shared(t).NewDatabase(t))
	org := logicalcluster.Name("root:org")
	lcs := r.dynamicFast(0, logicalcluster.Root).Resource(logicalClusters)
	siblings := []logicalcluster.Name{"root:org:s0", "root:org:s1", "root:org:s2", "root:org:s3"}
	createReady(t, lcs, "org")
	for _, s := range siblings {
		createReady(t, r.dynamicFast(0, org).Resource(logicalClusters), s.Base())
	}
	// Each client's ConfigMaps, through its replica, in its sibling.
	configMaps := map[[2]int]dynamic.ResourceInterface{}
	for i := range r.hubs {
		for j, s := range siblings {
			configMaps[[2]int{i, j}] = r.dynamicFast(i, s).Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
		}
	}
	quotas := r.dynamicFast(1, logicalcluster.Root).Resource(tenancyv1alpha1.SchemeGroupVersion.WithResource("clusterquotas"))
	ctx := context.Background()
	// The ConfigMap of the hub's CA in each sibling's namespace counts too:
	// it is there before the runs start, not created during one.
	for j := range siblings {
		waitFor(t, 30*time.Second, "the CA's ConfigMap in "+siblings[j].String(), func() (bool, string) {
			_, err := configMaps[[2]int{0, j}].Get(ctx, "kube-root-ca.crt", metav1.GetOptions{})
			return err == nil, fmt.Sprint(err)
		})
	}
	for run := range runs {
		// A fresh lease each run, given through the other replica. It
		// counts what the subtree holds already (the runs before), once
		// recounted; it is then grown to hold lease more.
		_ = quotas.Delete(ctx, "org", metav1.DeleteOptions{})
		q := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "tenancy.canopy.dev/v1alpha1", "kind": "ClusterQuota",
			"metadata": map[string]any{"name": "org"},
			"spec":     map[string]any{"hard": map[string]any{"count/configmaps": "0"}},
		}}
		if _, err := quotas.Create(ctx, q, metav1.CreateOptions{}); err != nil {
			t.Fatalf("run %d: create the lease: %v", run, err)
		}
		held := recounted(t, quotas, "org")
		patch := fmt.Sprintf(`{"spec":{"hard":{"count/configmaps":"%d"}}}`, held+lease)
		if _, err := quotas.Patch(ctx, "org", types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			t.Fatalf("run %d: grow the lease: %v", run, err)
		}
		var admitted atomic.Int64
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cms := configMaps[[2]int{c % len(r.hubs), c % len(siblings)}]
				for n := 0; ; n++ {
					cm := &unstructured.Unstructured{Object: map[string]any{
						"apiVersion": "v1", "kind": "ConfigMap",
						"metadata": map[string]any{"name": fmt.Sprintf("run%d-client%d-%d", run, c, n), "labels": map[string]any{"run": fmt.Sprint(run)}},
					}}
					_, err := cms.Create(ctx, cm, metav1.CreateOptions{})
					switch {
					case err == nil:
						admitted.Add(1)
					case apierrors.IsForbidden(err) && strings.Contains(err.Error(), "exceeded the lease of root:org"):
						return
					default:
						t.Errorf("run %d: client %d: %v", run, c, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		stored := 0
		for j := range siblings {
			list, err := configMaps[[2]int{0, j}].List(ctx, metav1.ListOptions{LabelSelector: fmt.Sprintf("run=%d", run)})
			if err != nil {
				t.Fatal(err)
			}
			stored += len(list.Items)
		}
		got, err := quotas.Get(ctx, "org", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		used, _, _ := unstructured.NestedString(got.Object, "status", "used", "count/configmaps")
		if admitted.Load() != lease || stored != lease || used != fmt.Sprint(held+lease) {
			t.Errorf("run %d: a lease of %d more ConfigMaps than the %d there admitted %d creates, stores %d ConfigMaps and counts %s used",
				run, lease, held, admitted.Load(), stored, used)
		}
		// The recount, which may have run during the creates, agrees.
		if recount := recounted(t, quotas, "org"); recount != held+lease {
			t.Errorf("run %d: the lease was recounted to %d used; want %d", run, recount, held+lease)
		}
	}
}

// recounted waits for the recount to have seen every write charged to
// ClusterQuota name (no charge pending) and returns its count/configmaps
// used.
func recounted(t *testing.T, quotas dynamic.ResourceInterface, name string) int64 {
	t.Helper()
	var used int64
	waitFor(t, 30*time.Second, "the recount of ClusterQuota "+name, func() (bool, string) {
		q, err := quotas.Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		pending, _, _ := unstructured.NestedSlice(q.Object, "status", "pending")
		s, found, _ := unstructured.NestedString(q.Object, "status", "used", "count/configmaps")
		if !found || len(pending) > 0 {
			return false, fmt.Sprintf("used %q, %d charges pending", s, len(pending))
		}
		n, err := strconv.ParseInt(s, 10, 64)
		used = n
		return err == nil, fmt.Sprint(err)
	})
	return used
}

// dynamicFast is a dynamic client of the admin for the logical cluster at
// path on replica i, without client-side rate limits, for load.
func (r *replicas) dynamicFast(i int, path logicalcluster.Name) *dynamic.DynamicClient {
	r.t.Helper()
	cfg := r.hubs[i].admin(r.t).restConfig("root")
	cfg.Host = "https://" + r.hubs[i].addr() + "/clusters/" + path.String()
	cfg.QPS, cfg.Burst = -1, 0
	c, err := dynamic.NewForConfig(cfg)
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// createReady creates LogicalCluster name through lcs and waits until it
// is Ready.
func createReady(t *testing.T, lcs dynamic.NamespaceableResourceInterface, name string) {
	t.Helper()
	lc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "tenancy.canopy.dev/v1alpha1", "kind": "LogicalCluster", "metadata": map[string]any{"name": name},
	}}
	ctx := context.Background()
	if _, err := lcs.Create(ctx, lc, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create LogicalCluster %s: %v", name, err)
	}
	waitFor(t, 30*time.Second, "LogicalCluster "+name+" Ready", func() (bool, string) {
		got, err := lcs.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		phase, _, _ := unstructured.NestedString(got.Object, "status", "phase")
		return phase == "Ready", "phase " + phase
	})
}

// TestClusterQuotaPlacement: placement holds back a workload whose
// subtree takes more compute than its lease holds, and says why, on the
// workload and on the Placement. web asks for 3 CPUs in root:org:a before
// org leases a 2 (admission had no lease to refuse it with); once a
// Placement and a Ready SyncTarget are there, web is not placed, with
// Placed=False LeaseExceeded, and the Placement has LeasesHeld=False
// saying which lease; a ConfigMap, which runs nothing, is placed. Scaled
// to the 2 CPUs the lease holds, web is placed and both conditions go.
func TestClusterQuotaPlacement(t *testing.T) {
	t.Parallel()
	h, admin, pki := startHubWith(t, "org")
	admin.addContextAs(h, pki, "admin", "org", "root:org")
	admin.addContextAs(h, pki, "admin", "ta", "root:org:a")
	admin.apply("org", "apiVersion: tenancy.canopy.dev/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: a\n")
	admin.must("--context", "org", "wait", "--for=jsonpath={.status.phase}=Ready", "logicalcluster/a", "--timeout=30s")
	admin.apply("ta", cpuDeployment("web", 3))
	admin.apply("org", clusterQuota("a", map[string]string{"requests.cpu": "2"}))
	expectAccount(t, admin, "org", "a", "hard=requests.cpu=2, out=requests.cpu=0, used=requests.cpu=3,")

	admin.apply("ta", `apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata: {name: pc1, labels: {region: eu}}
---
apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: eu}
spec:
  resources: [{group: apps, resource: deployments}, {resource: configmaps}]
  targets: {labelSelector: {matchLabels: {region: eu}}}
`)
	admin.must("--context", "ta", "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge", "-p", heartbeat(time.Now()))
	admin.must("--context", "ta", "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge", "-p", `{"status":{"allocatable":{"cpu":"8"}}}`)
	admin.must("--context", "ta", "create", "configmap", "settings", "-n", "default", "--from-literal=k=v")

	const why = `the subtree of root:org:a takes more than its lease (ClusterQuota "a" in root:org) holds: requests.cpu 3 of 2`
	placed := `jsonpath={.metadata.labels} {.status.conditions[?(@.type=="Placed")].status} {.status.conditions[?(@.type=="Placed")].reason} {.status.conditions[?(@.type=="Placed")].message}`
	waitUntil(t, 30*time.Second, "web not placed, with Placed=False LeaseExceeded", func() string {
		got := admin.must("--context", "ta", "get", "deploy", "web", "-n", "default", "-o", placed)
		if strings.Contains(got, "state.workload.canopy.dev/") || !strings.Contains(got, "False LeaseExceeded Not placed: "+why) {
			return got
		}
		return ""
	})
	// A heartbeat at each look keeps pc1 Ready past the hub's 40s
	// timeout, however slow the machine.
	beat := func() {
		admin.must("--context", "ta", "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge", "-p", heartbeat(time.Now()))
	}
	waitUntil(t, 30*time.Second, "the ConfigMap placed on pc1", func() string {
		beat()
		if got := admin.must("--context", "ta", "get", "configmap", "settings", "-n", "default", "-o", "jsonpath={.metadata.labels}"); !strings.Contains(got, "state.workload.canopy.dev/") {
			return got
		}
		return ""
	})
	held := `jsonpath={.status.conditions[?(@.type=="LeasesHeld")].status} {.status.conditions[?(@.type=="LeasesHeld")].reason} {.status.conditions[?(@.type=="LeasesHeld")].message}`
	waitUntil(t, 30*time.Second, "Placement eu with LeasesHeld=False saying why", func() string {
		if got := admin.must("--context", "ta", "get", "placement", "eu", "-o", held); !strings.HasPrefix(got, "False LeaseExceeded "+why) {
			return got
		}
		return ""
	})

	// Within its lease, web is placed; the conditions go.
	admin.must("--context", "ta", "scale", "deploy/web", "-n", "default", "--replicas=2")
	waitUntil(t, 30*time.Second, "web placed, its Placed condition gone", func() string {
		beat()
		got := admin.must("--context", "ta", "get", "deploy", "web", "-n", "default", "-o", placed)
		if !strings.Contains(got, "state.workload.canopy.dev/") || strings.Contains(got, "False") {
			return got
		}
		return ""
	})
	waitUntil(t, 30*time.Second, "Placement eu without its LeasesHeld condition", func() string {
		return strings.TrimSpace(admin.must("--context", "ta", "get", "placement", "eu", "-o", held))
	})
}

// TestClusterQuotaLookupCost: the creates of a logical cluster under no
// lease read no ClusterQuota from the database each. Admission looks for
// a lease at every level above the logical cluster on every create; where
// the shared informer holds none, it asks the database once, and that
// answer stands for 30 seconds (pkg/admission/clusterquota's lookup), so
// the reads are bounded by the levels and the time taken, not by the
// creates.
func TestClusterQuotaLookupCost(t *testing.T) {
	t.Parallel()
	const creates, workers, levels = 300, 8, 2
	h, _, pki := startHubWith(t)
	server := "https://" + h.addr()
	metricsClient, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	client := func(path logicalcluster.Name) *dynamic.DynamicClient {
		cfg := h.admin(t).restConfig("root")
		cfg.Host = server + "/clusters/" + path.String()
		cfg.QPS, cfg.Burst = -1, 0
		c, err := dynamic.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	createReady(t, client(logicalcluster.Root).Resource(logicalClusters), "org")
	createReady(t, client("root:org").Resource(logicalClusters), "team")
	cms := client("root:org:team").Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")

	const series = "clusterquotas.tenancy.canopy.dev"
	before, _ := storeStatements(t, metricsClient, server, "get", series)
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := next.Add(1); i <= creates; i = next.Add(1) {
				cm := &unstructured.Unstructured{Object: map[string]any{
					"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": fmt.Sprintf("cm-%d", i)},
				}}
				if _, err := cms.Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
					t.Errorf("create ConfigMap cm-%d in root:org:team: %v", i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	after, _ := storeStatements(t, metricsClient, server, "get", series)
	reads := after - before
	// Each level's answer may expire once per 30 seconds, the first time
	// possibly during the creates, since it was asked when the logical
	// cluster was made.
	bound := levels * (1 + int(math.Ceil(elapsed.Seconds()/30)))
	t.Logf("%d creates in root:org:team, under no lease, in %v: %d ClusterQuota reads of the database, bound %d", creates, elapsed.Round(time.Millisecond), reads, bound)
	if reads > bound {
		t.Fatalf("%d creates under no lease read ClusterQuotas from the database %d times in %v, more than the bound %d: admission asks the database per create",
			creates, reads, elapsed, bound)
	}
}

// storeStatements is how many statements of operation the hub's stores
// ran on resource for requests, from its /metrics, and whether it has
// the series: a store that has run none has not.
func storeStatements(t *testing.T, client *http.Client, server, operation, resource string) (int, bool) {
	t.Helper()
	resp, err := client.Get(server + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	series := fmt.Sprintf(`canopy_sqlstorage_statements_total{operation=%q,resource=%q} `, operation, resource)
	s := bufio.NewScanner(resp.Body)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), series); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s%s: %v", series, v, err)
			}
			return int(n), true
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return 0, false
}
