package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

const (
	// placementHeartbeatTimeout is the hub's, above the syncers' 10s
	// heartbeat; placementGrace the placements', above it, so that one
	// late heartbeat on a busy machine moves nothing.
	placementHeartbeatTimeout = 15 * time.Second
	placementGrace            = 25 * time.Second
)

// TestPlacement places workloads with the placement controller on three
// real physical clusters, pc1 and pc2 in region eu and pc3 in us,
// registered in root, each with its syncer:
//
//  1. division: a placement of root:org:team divides a Deployment's 6
//     replicas over region eu, 3 on pc1 and 3 on pc2; the hub shows 6/6
//     and kubectl rollout status succeeds;
//  2. residency: a constraint of root:org allows only region eu, so a
//     team placement selecting region us places nothing, and its status
//     says why for each target;
//  5. taints: a NoSchedule taint on pc2 keeps a new Deployment off it and
//     leaves the divided one in place;
//  7. default placement: a new logical cluster without placements has its
//     workloads placed by root's inherited placement;
//  4. a heartbeat gap shorter than the grace period moves nothing;
//  3. failover: with pc1's syncer gone past the grace period, its share
//     goes to pc2 first and pc1 is released only once pc2 runs all 6
//     (checked in every version of the hub object); the hub is back at
//     6/6, and pc1's returning syncer removes its stranded copy. A
//     Deployment of root:org whose placement is deleted in the middle of
//     the same move still ends it, on pc2 alone.
func TestPlacement(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	h, admin, pki := startTeamHub(t, placementHeartbeatTimeout)

	regions := map[string]string{"pc1": "eu", "pc2": "eu", "pc3": "us"}
	clusters := startClusters(t, "pc1", "pc2", "pc3")
	keys, syncers := registerTargets(t, h, admin, syncerBin, clusters, regions)
	for _, name := range []string{"pc1", "pc2", "pc3"} {
		syncers[name].waitReady(2 * time.Minute)
		waitFor(t, time.Minute, name+" Ready", func() (bool, string) {
			got := readyIn(admin, "root", name)
			return got == "True", got
		})
	}
	p := placed{t: t, admin: admin, keys: keys}

	// 1. Division.
	admin.apply("team", euPlacement)
	admin.apply("team", "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n"+placedDeployment("web", "shop", 6))
	p.waitShares("team", "shop", "web", map[string]string{"pc1": "3", "pc2": "3"})
	waitDownstream(t, clusters["pc1"], downNS("pc1", "root:org:team", "shop"), "web", 3)
	waitDownstream(t, clusters["pc2"], downNS("pc2", "root:org:team", "shop"), "web", 3)
	rolledOut(t, admin, 3*time.Minute, "--context", "team", "-n", "shop", "rollout", "status", "deployment/web", "--timeout", "3m")
	waitFor(t, time.Minute, "the hub's 6/6 of web", func() (bool, string) {
		got := admin.must("--context", "team", "-n", "shop", "get", "deployment", "web", "-o",
			`jsonpath={.status.replicas} {.status.availableReplicas} {.status.conditions[?(@.type=="Available")].status}`)
		return got == "6 6 True", got
	})
	// Applying the Deployment again, as its owner or a gitops tool
	// would, leaves the assignment alone.
	admin.apply("team", placedDeployment("web", "shop", 6))
	p.never(3*time.Second, "team", "shop", "web", map[string]string{"pc1": "3", "pc2": "3"})
	waitFor(t, 30*time.Second, "placement eu's status", func() (bool, string) {
		got := admin.must("--context", "team", "get", "placement", "eu", "-o",
			`jsonpath={.status.conditions[0].status} {range .status.targets[*]}{.name}:{.reason}:{.objects}:{.replicas} {end}`)
		return got == "True pc1:Eligible:1:3 pc2:Eligible:1:3 pc3:LabelMismatch:: ", got
	})

	// 2. Residency.
	admin.apply("org", euOnlyConstraint)
	admin.apply("team", usPlacement+"---\n"+placedDeployment("api", "usns", 2))
	waitFor(t, 30*time.Second, "placement us's status", func() (bool, string) {
		got := admin.must("--context", "team", "get", "placement", "us", "-o",
			`jsonpath={.status.conditions[0].status} {.status.conditions[0].reason} {range .status.targets[*]}{.name}:{.reason} {end}`)
		return got == "False NoEligibleTarget pc1:LabelMismatch pc2:LabelMismatch pc3:Constraint ", got
	})
	why := admin.must("--context", "team", "get", "placement", "us", "-o", `jsonpath={.status.conditions[0].message}|{.status.targets[?(@.name=="pc3")].message}`)
	if !strings.Contains(why, "Constraint root/pc3") || !strings.Contains(why, "PlacementConstraint root:org/eu-only does not allow it") {
		t.Errorf("placement us does not say that root:org's constraint keeps pc3 out: %q", why)
	}
	if got := admin.must("--context", "team", "get", "placement", "eu", "-o", `jsonpath={.status.targets[?(@.name=="pc3")].reason}`); got != "Constraint" {
		t.Errorf("placement eu's pc3: %q, want Constraint", got)
	}
	p.never(5*time.Second, "team", "usns", "api", map[string]string{})

	// 5. Taints.
	admin.must("--context", "root", "patch", "synctarget", "pc2", "--type", "merge", "-p", `{"spec":{"taints":[{"key":"maintenance","effect":"NoSchedule"}]}}`)
	waitFor(t, 30*time.Second, "pc2's taint in placement eu's status", func() (bool, string) {
		got := admin.must("--context", "team", "get", "placement", "eu", "-o", `jsonpath={.status.targets[?(@.name=="pc2")].reason}`)
		return got == "Taint", got
	})
	admin.apply("team", placedDeployment("cart", "shop", 4))
	p.waitShares("team", "shop", "cart", map[string]string{"pc1": ""})
	p.never(5*time.Second, "team", "shop", "web", map[string]string{"pc1": "3", "pc2": "3"})
	admin.must("--context", "team", "-n", "shop", "delete", "deployment", "cart")
	admin.must("--context", "root", "patch", "synctarget", "pc2", "--type", "json", "-p", `[{"op":"remove","path":"/spec/taints"}]`)

	// 7. Default placement.
	admin.apply("root", `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: default}
spec:
  inheritance: Descendants
  resources: [{group: apps, resource: deployments}]
  targets: {labelSelector: {matchLabels: {region: us}}}
`)
	admin.createLogicalCluster("root", "newteam")
	admin.addContext(h, pki, "newteam", "root:newteam")
	admin.apply("newteam", "apiVersion: v1\nkind: Namespace\nmetadata: {name: hello}\n---\n"+placedDeployment("hello", "hello", 2))
	p.waitShares("newteam", "hello", "hello", map[string]string{"pc3": ""})
	rolledOut(t, admin, 3*time.Minute, "--context", "newteam", "-n", "hello", "rollout", "status", "deployment/hello", "--timeout", "3m")
	waitFor(t, 30*time.Second, "placement default's count on pc3", func() (bool, string) {
		got := admin.must("--context", "root", "get", "placement", "default", "-o", `jsonpath={.status.targets[?(@.name=="pc3")].objects}`)
		return got == "1", got
	})

	// 4. A heartbeat gap within the grace period moves nothing.
	syncers["pc2"].kill()
	waitFor(t, placementHeartbeatTimeout+30*time.Second, "pc2 NotReady", func() (bool, string) {
		got := readyIn(admin, "root", "pc2")
		return got == "False", got
	})
	notReady := time.Now()
	waitFor(t, 10*time.Second, "placement eu's pc2 NotReady within the grace period", func() (bool, string) {
		got := admin.must("--context", "team", "get", "placement", "eu", "-o", `jsonpath={.status.targets[?(@.name=="pc2")].message}`)
		return strings.Contains(got, "within the 25s grace period"), got
	})
	syncers["pc2"].start()
	syncers["pc2"].waitReady(time.Minute)
	waitFor(t, time.Minute, "pc2 Ready again", func() (bool, string) {
		got := readyIn(admin, "root", "pc2")
		return got == "True", got
	})
	if gap := time.Since(notReady); gap > placementGrace {
		t.Fatalf("pc2 was NotReady for %s, more than the %s grace period: the machine is too slow for this test", gap, placementGrace)
	}
	p.never(time.Until(notReady.Add(placementGrace+5*time.Second)), "team", "shop", "web", map[string]string{"pc1": "3", "pc2": "3"})

	// 3. Failover. Deployment drill of root:org, of a placement of its
	// own, is moved as well, and its placement deleted in the middle of
	// the move; without root's default placement, none applies there then.
	// Its pods run one a node, on nodes labelled drill=on: pc2 has one,
	// which holds the move in flight until a second is labelled.
	admin.must("--context", "root", "delete", "placement", "default")
	labelNode(t, clusters["pc1"], "pc1-a")
	labelNode(t, clusters["pc2"], "pc2-a")
	admin.apply("org", drillPlacement)
	p.waitShares("org", "drill", "drill", map[string]string{"pc1": "1", "pc2": "1"})
	drillNS := func(target string) string { return downNS(target, "root:org", "drill") }
	waitDownstream(t, clusters["pc1"], drillNS("pc1"), "drill", 1)
	waitDownstream(t, clusters["pc2"], drillNS("pc2"), "drill", 1)
	versions := watchVersions(t, admin, "team", "shop", "web")
	reports := watchReports(t, admin, "team", "shop")
	syncers["pc1"].kill()
	lost := time.Now()
	waitFor(t, placementHeartbeatTimeout+30*time.Second, "pc1 NotReady", func() (bool, string) {
		got := readyIn(admin, "root", "pc1")
		return got == "False", got
	})
	waitFor(t, placementGrace+time.Minute, "drill moving to pc2", func() (bool, string) {
		got := admin.must("--context", "org", "-n", "drill", "get", "deployment", "drill", "-o",
			"jsonpath={.metadata.annotations."+jsonpathKey(workloadv1alpha1.LeavingAnnotation)+"}")
		return got == keys["pc1"], got
	})
	admin.must("--context", "org", "delete", "placement", "drill")
	pc2 := clusters["pc2"]
	released := false
	waitFor(t, placementGrace+2*time.Minute, "pc1's share moved to pc2 and pc1 released", func() (bool, string) {
		labels := p.shares("team", "shop", "web")
		if _, onPC1 := labels["pc1"]; onPC1 {
			return false, fmt.Sprint(labels)
		}
		// Released: pc2 must run all 6 already.
		d, err := pc2.Client.AppsV1().Deployments(downNS("pc2", "root:org:team", "shop")).Get(context.Background(), "web", metav1.GetOptions{})
		if err != nil || *d.Spec.Replicas != 6 || d.Status.AvailableReplicas != 6 {
			t.Errorf("pc1 was released while web in pc2 is %v", describeDeployment(d, err))
		}
		released = true
		return true, fmt.Sprint(labels)
	})
	if !released {
		return
	}
	t.Logf("pc1's share runs in pc2 and pc1 is released %s after its syncer stopped (heartbeat timeout %s, grace period %s)",
		time.Since(lost).Round(time.Second), placementHeartbeatTimeout, placementGrace)
	checkMadeBeforeBreak(t, versions(), reports(), keys["pc1"], keys["pc2"], 6)
	if got := p.shares("team", "shop", "web"); len(got) != 1 || got["pc2"] != "" {
		t.Errorf("web after failover: %v, want all on pc2", got)
	}
	if reason := admin.must("--context", "team", "get", "placement", "eu", "-o", `jsonpath={.status.targets[?(@.name=="pc1")].message}`); !strings.Contains(reason, "grace period") {
		t.Errorf("placement eu's pc1 after failover: %q", reason)
	}
	rolledOut(t, admin, 2*time.Minute, "--context", "team", "-n", "shop", "rollout", "status", "deployment/web", "--timeout", "2m")
	waitFor(t, time.Minute, "the hub's 6/6 of web after failover", func() (bool, string) {
		got := admin.must("--context", "team", "-n", "shop", "get", "deployment", "web", "-o",
			`jsonpath={.status.replicas} {.status.availableReplicas} {.status.conditions[?(@.type=="Available")].status}`)
		return got == "6 6 True", got
	})
	// drill's move goes on though its placement is gone: pc1 is released
	// only once pc2 runs both replicas, and then drill is all on pc2.
	p.never(5*time.Second, "org", "drill", "drill", map[string]string{"pc1": "1", "pc2": ""})
	labelNode(t, pc2, "pc2-b")
	p.waitShares("org", "drill", "drill", map[string]string{"pc2": ""})
	waitDownstream(t, pc2, drillNS("pc2"), "drill", 2)
	if got := admin.must("--context", "org", "-n", "drill", "get", "deployment", "drill", "-o",
		"jsonpath={.metadata.annotations."+jsonpathKey(workloadv1alpha1.LeavingAnnotation)+"}"); got != "" {
		t.Errorf("drill still moving off %q after its move ended", got)
	}
	// pc1's copy is stranded until its syncer returns, which removes it.
	if _, err := clusters["pc1"].Client.AppsV1().Deployments(downNS("pc1", "root:org:team", "shop")).Get(context.Background(), "web", metav1.GetOptions{}); err != nil {
		t.Errorf("web in pc1 while its syncer is away: %v", err)
	}
	// Cordoned, pc1 gets nothing new once Ready again: placement eu
	// would otherwise divide web over it at once, and its syncer keep the
	// copy, now assigned, rather than remove it.
	admin.must("--context", "root", "patch", "synctarget", "pc1", "--type", "merge", "-p", `{"spec":{"unschedulable":true}}`)
	syncers["pc1"].start()
	syncers["pc1"].waitReady(time.Minute)
	waitFor(t, time.Minute, "the stranded web and drill in pc1 removed", func() (bool, string) {
		_, err := clusters["pc1"].Client.AppsV1().Deployments(downNS("pc1", "root:org:team", "shop")).Get(context.Background(), "web", metav1.GetOptions{})
		_, drillErr := clusters["pc1"].Client.AppsV1().Deployments(drillNS("pc1")).Get(context.Background(), "drill", metav1.GetOptions{})
		return apierrors.IsNotFound(err) && apierrors.IsNotFound(drillErr), fmt.Sprint(err, drillErr)
	})
}

// addContext adds a context name for logical cluster path, as the admin.
// startTeamHub starts a hub whose SyncTargets turn NotReady heartbeat
// after their last heartbeat, with logical clusters root:org and
// root:org:team, and returns it with the admin's kubectl, which has
// contexts org and team besides addContexts's, and the hub's pki
// directory. flags are more flags of the hub.
func startTeamHub(t *testing.T, heartbeat time.Duration, flags ...string) (*hub, kubectl, string) {
	t.Helper()
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t), flags: append([]string{"--sync-target-heartbeat-timeout", heartbeat.String()}, flags...)}
	h.start(t)
	admin := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalCluster("root", "org")
	admin.addContext(h, pki, "org", "root:org")
	admin.createLogicalCluster("org", "team")
	admin.addContext(h, pki, "team", "root:org:team")
	return h, admin, pki
}

func (k kubectl) addContext(h *hub, pki, name, path string) {
	k.t.Helper()
	k.addContextAs(h, pki, "admin", name, path)
}

// registerTargets registers each of clusters as a SyncTarget in root,
// labelled with its region, and runs its syncer; it returns the targets'
// keys and syncers by cluster name.
func registerTargets(t *testing.T, h *hub, admin kubectl, syncerBin string, clusters map[string]*pcluster.Cluster, regions map[string]string) (map[string]string, map[string]*syncerProcess) {
	t.Helper()
	keys := map[string]string{}
	syncers := map[string]*syncerProcess{}
	for name, c := range clusters {
		admin.apply("root", fmt.Sprintf("apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: %s\n  labels: {region: %s}\n", name, regions[name]))
		keys[name] = workloadv1alpha1.TargetKey("root", name)
		syncers[name] = runSyncer(t, syncerBin, syncerKubeconfig(t, h, "root", name).kubeconfig, c.Kubeconfig, "root:"+name)
	}
	return keys, syncers
}

// startClusters starts physical clusters of two nodes each side by side,
// and stops them when the test ends.
func startClusters(t *testing.T, names ...string) map[string]*pcluster.Cluster {
	t.Helper()
	started := make([]*pcluster.Cluster, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		dir := t.TempDir()
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			started[i], errs[i] = pcluster.Create(ctx, dir, name, pcluster.Options{Nodes: []pcluster.Node{{Name: name + "-a"}, {Name: name + "-b"}}})
		})
	}
	wg.Wait()
	out := map[string]*pcluster.Cluster{}
	for i, c := range started {
		if c == nil {
			continue
		}
		out[names[i]] = c
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := c.Stop(ctx); err != nil {
				t.Errorf("stopping physical cluster %s: %v", c.Name, err)
			}
		})
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("starting physical cluster %s: %v", names[i], err)
		}
	}
	return out
}

// placedDeployment is a Deployment with no assignment of its own.
// euPlacement is root:org:team's placement dividing the replicas of its
// Deployments over region eu.
var euPlacement = fmt.Sprintf(`apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: eu}
spec:
  resources: [{group: apps, resource: deployments}]
  targets: {labelSelector: {matchLabels: {region: eu}}}
  strategy: {type: Divide}
  failover: {gracePeriod: %s}
`, placementGrace)

// labelNode labels node name of physical cluster c drill=on.
func labelNode(t *testing.T, c *pcluster.Cluster, name string) {
	t.Helper()
	if _, err := c.Client.CoreV1().Nodes().Patch(context.Background(), name, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"drill":"on"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

// drillPlacement is root:org's placement dividing the replicas of its
// Deployments over region eu, with namespace drill and Deployment drill,
// whose 2 pods run one a node, on nodes labelled drill=on.
var drillPlacement = fmt.Sprintf(`apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: drill}
spec:
  resources: [{group: apps, resource: deployments}]
  targets: {labelSelector: {matchLabels: {region: eu}}}
  strategy: {type: Divide}
  failover: {gracePeriod: %s}
---
apiVersion: v1
kind: Namespace
metadata: {name: drill}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: drill, namespace: drill}
spec:
  replicas: 2
  selector: {matchLabels: {app: drill}}
  template:
    metadata: {labels: {app: drill}}
    spec:
      nodeSelector: {drill: "on"}
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: drill}}
            topologyKey: kubernetes.io/hostname
      containers: [{name: c, image: nginx:1.27}]
`, placementGrace)

// watchVersions watches Deployment name in namespace of the logical
// cluster of kubeContext from now on, and returns what gives every version
// seen so far, in order.
func watchVersions(t *testing.T, admin kubectl, kubeContext, namespace, name string) func() []appsv1.Deployment {
	t.Helper()
	cs, err := kubernetes.NewForConfig(admin.restConfig(kubeContext))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	deployments := cs.AppsV1().Deployments(namespace)
	d, err := deployments.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := deployments.Watch(ctx, metav1.ListOptions{ResourceVersion: d.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := []appsv1.Deployment{*d}
	var broken error
	go func() {
		for ev := range w.ResultChan() {
			if ev.Type == watch.Error {
				mu.Lock()
				broken = apierrors.FromObject(ev.Object)
				mu.Unlock()
				continue
			}
			if got, ok := ev.Object.(*appsv1.Deployment); ok && got.Name == name {
				mu.Lock()
				seen = append(seen, *got)
				mu.Unlock()
			}
		}
	}()
	return func() []appsv1.Deployment {
		mu.Lock()
		defer mu.Unlock()
		if broken != nil {
			t.Fatalf("the watch of %s/%s broke: %v", namespace, name, broken)
		}
		return slices.Clone(seen)
	}
}

// watchReports watches the StatusReports of namespace in the logical
// cluster of kubeContext from now on, and returns what gives every event
// seen so far, in order, those listed first as added.
func watchReports(t *testing.T, admin kubectl, kubeContext, namespace string) func() []watch.Event {
	t.Helper()
	dc, err := dynamic.NewForConfig(admin.restConfig(kubeContext))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	reports := dc.Resource(workloadv1alpha1.SchemeGroupVersion.WithResource("statusreports")).Namespace(namespace)
	list, err := reports.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := reports.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []watch.Event
	for i := range list.Items {
		seen = append(seen, watch.Event{Type: watch.Added, Object: &list.Items[i]})
	}
	go func() {
		for ev := range w.ResultChan() {
			mu.Lock()
			seen = append(seen, ev)
			mu.Unlock()
		}
	}()
	return func() []watch.Event {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// reportAt is the status target key reported of Deployment d as the hub
// had it in d's version: its annotation, written by an older syncer, or
// the last version of its StatusReport before d's. The hub's resource
// versions are one counter, so they order the two kinds' changes.
func reportAt(reports []watch.Event, d appsv1.Deployment, key string) string {
	if raw, ok := d.Annotations[workloadv1alpha1.StatusAnnotation(key)]; ok {
		return raw
	}
	at, _ := strconv.ParseInt(d.ResourceVersion, 10, 64)
	name := workloadv1alpha1.StatusReportName("deployments.apps", d.Name, key)
	held := ""
	for _, ev := range reports {
		u, ok := ev.Object.(*unstructured.Unstructured)
		if !ok || u.GetName() != name {
			continue
		}
		if rv, _ := strconv.ParseInt(u.GetResourceVersion(), 10, 64); rv > at {
			break
		}
		held = ""
		if status, ok, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "status"); ok && ev.Type != watch.Deleted {
			raw, _ := json.Marshal(status)
			held = string(raw)
		}
	}
	return held
}

// checkMadeBeforeBreak checks, in the versions of a Deployment of
// replicas divided over the targets of from and to, that it was released
// from from only in a version where to had all the replicas assigned and
// to's syncer reported them all available, and that it was first
// assigned them all while still on from.
func checkMadeBeforeBreak(t *testing.T, versions []appsv1.Deployment, reports []watch.Event, from, to string, replicas int32) {
	t.Helper()
	movedWhileOnFrom := false
	for _, d := range versions {
		_, onTo := d.Labels[workloadv1alpha1.StateLabel(to)]
		_, toDivided := d.Annotations[workloadv1alpha1.ReplicasAnnotation(to)]
		allOnTo := onTo && !toDivided
		if _, onFrom := d.Labels[workloadv1alpha1.StateLabel(from)]; onFrom {
			movedWhileOnFrom = movedWhileOnFrom || allOnTo
			continue
		}
		if !movedWhileOnFrom {
			t.Errorf("version %s released %s before assigning all %d replicas to %s while still on it", d.ResourceVersion, from, replicas, to)
		}
		var report struct {
			ObservedGeneration int64 `json:"observedGeneration"`
			AvailableReplicas  int32 `json:"availableReplicas"`
		}
		held := reportAt(reports, d, to)
		if err := json.Unmarshal([]byte(held), &report); err != nil ||
			!allOnTo || report.ObservedGeneration < d.Generation || report.AvailableReplicas < replicas {
			t.Errorf("version %s released %s while %s reported %q (of generation %d)", d.ResourceVersion, from, to, held, d.Generation)
		}
		return
	}
	t.Errorf("no version of %d released %s", len(versions), from)
}

// euOnlyConstraint is root:org's PlacementConstraint allowing only region
// eu, and usPlacement root:org:team's placement of namespace usns on
// region us, which it forbids.
const (
	euOnlyConstraint = `apiVersion: placement.canopy.dev/v1alpha1
kind: PlacementConstraint
metadata: {name: eu-only}
spec:
  allowedTargets: {labelSelector: {matchLabels: {region: eu}}}
`
	usPlacement = `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: us}
spec:
  priority: 10
  namespaceSelector: {matchLabels: {residency: us}}
  targets: {labelSelector: {matchLabels: {region: us}}}
---
apiVersion: v1
kind: Namespace
metadata: {name: usns, labels: {residency: us}}
`
)

func placedDeployment(name, namespace string, replicas int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[1]s, namespace: %[2]s}
spec:
  replicas: %[3]d
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
      containers: [{name: c, image: nginx:1.27}]
`, name, namespace, replicas)
}

// placed reads where the hub's Deployments are assigned.
type placed struct {
	t     *testing.T
	admin kubectl
	keys  map[string]string
}

// shares are the targets, by name, Deployment name is assigned to, with
// the share of replicas in its replicas annotation, empty without one.
func (p placed) shares(context, namespace, name string) map[string]string {
	p.t.Helper()
	out := map[string]string{}
	for target, key := range p.keys {
		got := p.admin.must("--context", context, "-n", namespace, "get", "deployment", name, "-o",
			"jsonpath={.metadata.labels."+jsonpathKey(workloadv1alpha1.StateLabel(key))+"}|{.metadata.annotations."+jsonpathKey(workloadv1alpha1.ReplicasAnnotation(key))+"}")
		label, share, _ := strings.Cut(got, "|")
		if label == workloadv1alpha1.StateSync {
			out[target] = share
		}
	}
	return out
}

func jsonpathKey(k string) string { return strings.ReplaceAll(k, ".", `\.`) }

// waitShares waits until Deployment name is assigned as want says.
func (p placed) waitShares(context, namespace, name string, want map[string]string) {
	p.t.Helper()
	waitFor(p.t, time.Minute, namespace+"/"+name+" placed", func() (bool, string) {
		got := p.shares(context, namespace, name)
		return fmt.Sprint(got) == fmt.Sprint(want), fmt.Sprint(got)
	})
}

// never checks for d that Deployment name stays assigned as want says.
func (p placed) never(d time.Duration, context, namespace, name string, want map[string]string) {
	p.t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(time.Second) {
		if got := p.shares(context, namespace, name); fmt.Sprint(got) != fmt.Sprint(want) {
			p.t.Fatalf("%s/%s is assigned %v, want %v", namespace, name, got, want)
		}
		if time.Now().After(deadline) {
			return
		}
	}
}

// readyIn is the status of SyncTarget name's Ready condition.
func readyIn(admin kubectl, context, name string) string {
	return admin.must("--context", context, "get", "synctarget", name, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
}

// waitDownstream waits until Deployment name in namespace of physical
// cluster c has replicas, all available.
func waitDownstream(t *testing.T, c *pcluster.Cluster, namespace, name string, replicas int32) {
	t.Helper()
	waitFor(t, 2*time.Minute, name+" in "+c.Name, func() (bool, string) {
		d, err := c.Client.AppsV1().Deployments(namespace).Get(context.Background(), name, metav1.GetOptions{})
		return err == nil && *d.Spec.Replicas == replicas && d.Status.AvailableReplicas == replicas, describeDeployment(d, err)
	})
}

func describeDeployment(d *appsv1.Deployment, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d replicas, %d available", *d.Spec.Replicas, d.Status.AvailableReplicas)
}

// waitFor polls check until it holds, failing after timeout with what it
// last said.
func waitFor(t *testing.T, timeout time.Duration, what string, check func() (bool, string)) {
	t.Helper()
	var last string
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		var ok bool
		if ok, last = check(); ok {
			return
		}
	}
	t.Fatalf("%s: not within %s; last %s", what, timeout, last)
}
