package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestSyncerSharedCluster runs two SyncTargets, part-a and part-b, on one
// physical cluster, as an admin partitioning a big cluster does, each
// with its syncer, and one Deployment of root:a assigned to both, 2
// replicas on part-a and 4 on part-b:
//   - each runs its share in a downstream namespace of its own, and
//     part-a, whose namespace an earlier release made under the name
//     without the target's key, keeps running in that one: the same
//     Deployment, by UID, adopted rather than made again;
//   - neither writes the other's objects: the downstream resourceVersions
//     stay put for a while once all runs;
//   - pods, status and Events go up to the hub for the target that runs
//     them, and the nodes both run pods on are copied up once;
//   - a stolen credential of part-a's syncer touches nothing of part-b's
//     at the hub (the matrix);
//   - part-b unassigned, its copy and namespace go, and part-a's copy is
//     not written.
func TestSyncerSharedCluster(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	h, admin := startHub(t, buildHub(t), "")
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	pc := pcluster.Start(t, "pc1", pcluster.Options{Nodes: []pcluster.Node{{Name: "pc1-a"}, {Name: "pc1-b"}}})
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	names := []string{"part-a", "part-b"}
	keys := map[string]string{}
	for _, name := range names {
		admin.apply("root", "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: "+name+"\n")
		keys[name] = workloadv1alpha1.TargetKey("root", name)
	}
	ka, kb := keys["part-a"], keys["part-b"]

	// What a syncer of an earlier release left for part-a: its namespace
	// under the name without the key, and web in it.
	legacy := workloadv1alpha1.LegacyDownstreamNamespace("root:a", "ns1")
	adopted := makeLegacyCopy(ctx, t, pc, ka, legacy)

	// The hub object is there before the syncers start, as it is through
	// an upgrade: a copy whose hub object is gone would be deleted.
	admin.apply("a", sharedDeployment(ka, kb, "nginx:1.27"))
	for _, name := range names {
		runSyncer(t, syncerBin, syncerKubeconfig(t, h, "root", name).kubeconfig, pc.Kubeconfig, "root:"+name).waitReady(2 * time.Minute)
	}
	downNamespace := map[string]string{"part-a": legacy, "part-b": workloadv1alpha1.DownstreamNamespace(kb, "root:a", "ns1")}
	replicas := map[string]int32{"part-a": 2, "part-b": 4}
	deployment := func(name string) (*appsv1.Deployment, error) {
		return pc.Client.AppsV1().Deployments(downNamespace[name]).Get(ctx, "web", metav1.GetOptions{})
	}
	for _, name := range names {
		waitFor(t, 3*time.Minute, fmt.Sprintf("web in %s's namespace %s with %d available", name, downNamespace[name], replicas[name]), func() (bool, string) {
			d, err := deployment(name)
			return err == nil && *d.Spec.Replicas == replicas[name] && d.Status.AvailableReplicas == replicas[name] &&
				d.Status.ObservedGeneration == d.Generation, describeDeployment(d, err)
		})
	}
	if d, err := deployment("part-a"); err != nil || string(d.UID) != adopted {
		t.Errorf("part-a's web in the legacy namespace: %v, want the one made before, UID %s, adopted", describeDeployment(d, err), adopted)
	}
	if _, err := pc.Client.CoreV1().Namespaces().Get(ctx, workloadv1alpha1.DownstreamNamespace(ka, "root:a", "ns1"), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("part-a made a namespace of the new name beside the legacy one it holds: %v", err)
	}
	for _, name := range names {
		ns, err := pc.Client.CoreV1().Namespaces().Get(ctx, downNamespace[name], metav1.GetOptions{})
		if err != nil || ns.Labels[workloadv1alpha1.TargetKeyLabel] != keys[name] {
			t.Errorf("namespace %s of %s: %v, want it labelled with the key %s", downNamespace[name], name, err, keys[name])
		}
	}
	rolledOut(t, admin, 2*time.Minute, "--context", "a", "-n", "ns1", "rollout", "status", "deployment/web", "--timeout", "2m")

	// Pods, status and Events go up for the target that runs them.
	upsynced := func(kind, key string) []string {
		out := admin.must("--context", "a", "-n", "ns1", "get", kind, "-l", workloadv1alpha1.UpsyncedLabel+"="+key, "-o", "jsonpath={.items[*].metadata.name}")
		return strings.Fields(out)
	}
	downstream := func(kind, name string) []string {
		down := kubectl{t: t, kubeconfig: pc.Kubeconfig, home: admin.home}
		return strings.Fields(down.must("get", kind, "-n", downNamespace[name], "-o", "jsonpath={.items[*].metadata.name}"))
	}
	for _, name := range names {
		waitFor(t, 2*time.Minute, "the pods of "+name+" at the hub, as they are downstream", func() (bool, string) {
			up, down := upsynced("pods", keys[name]), downstream("pods", name)
			slices.Sort(up)
			slices.Sort(down)
			return len(up) == int(replicas[name]) && slices.Equal(up, down), fmt.Sprintf("hub %v, downstream %v", up, down)
		})
		waitFor(t, 2*time.Minute, "Events of "+name+" at the hub, each one of its namespace", func() (bool, string) {
			up, down := upsynced("events", keys[name]), downstream("events", name)
			return len(up) > 0 && !slices.ContainsFunc(up, func(e string) bool { return !slices.Contains(down, e) }),
				fmt.Sprintf("hub %v, downstream %v", up, down)
		})
		report := statusReport(admin, "a", "ns1", "deployments.apps", "web", keys[name])
		if want := fmt.Sprintf(`"availableReplicas":%d`, replicas[name]); !strings.Contains(report, want) {
			t.Errorf("%s's report of web's status at the hub: %q, want %s", name, report, want)
		}
	}
	if got := admin.must("--context", "a", "-n", "ns1", "get", "deployment", "web", "-o", "jsonpath={.status.availableReplicas}"); got != "6" {
		t.Errorf("web's available replicas at the hub: %s, want 6", got)
	}
	// Each node a pod at the hub names is there, copied by one of the two.
	holders := map[string]string{}
	waitFor(t, time.Minute, "a copy of each node the pods at the hub run on", func() (bool, string) {
		nodes := admin.must("--context", "a", "get", "nodes", "-o", `jsonpath={range .items[*]}{.metadata.name}={.metadata.labels.workload\.canopy\.dev/upsynced}{" "}{end}`)
		clear(holders)
		for _, n := range strings.Fields(nodes) {
			node, key, _ := strings.Cut(n, "=")
			holders[node] = key
		}
		on := strings.Fields(admin.must("--context", "a", "-n", "ns1", "get", "pods", "-o", "jsonpath={.items[*].spec.nodeName}"))
		return len(on) == 6 && !slices.ContainsFunc(on, func(n string) bool { return holders[n] != ka && holders[n] != kb }),
			fmt.Sprintf("pods on %v, nodes %q", on, nodes)
	})

	// No fight: nothing downstream changes once all runs.
	versions := func() map[string]string {
		v := map[string]string{}
		for _, name := range names {
			d, err := deployment(name)
			ns, nerr := pc.Client.CoreV1().Namespaces().Get(ctx, downNamespace[name], metav1.GetOptions{})
			if err != nil || nerr != nil {
				t.Fatalf("%s downstream: %v %v", name, err, nerr)
			}
			v["deployment of "+name] = d.ResourceVersion
			v["namespace of "+name] = ns.ResourceVersion
		}
		return v
	}
	before := versions()
	time.Sleep(20 * time.Second)
	if after := versions(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("downstream resourceVersions moved while nothing changed at the hub: %v, then %v", before, after)
	}

	// The matrix: part-a's syncer credential, stolen, against part-b's
	// objects at the hub, which share a logical cluster, a Deployment and
	// the nodes with part-a's.
	requests := sharedClusterMatrix(t, h, admin, holders, keys, upsynced("pods", kb)[0], upsynced("events", kb)[0])
	t.Logf("the matrix made %d requests as the other target's syncer", requests)

	// part-b unassigned: its copy goes, with its namespace; part-a's is
	// not written.
	a, err := deployment("part-a")
	if err != nil {
		t.Fatal(err)
	}
	admin.must("--context", "a", "-n", "ns1", "label", "deployment", "web", workloadv1alpha1.StateLabel(kb)+"-")
	admin.must("--context", "a", "-n", "ns1", "annotate", "deployment", "web", workloadv1alpha1.ReplicasAnnotation(kb)+"-")
	waitFor(t, 2*time.Minute, "part-b's namespace gone downstream", func() (bool, string) {
		_, err := pc.Client.CoreV1().Namespaces().Get(ctx, downNamespace["part-b"], metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprint(err)
	})
	waitFor(t, time.Minute, "part-b's pods gone from the hub", func() (bool, string) {
		up := upsynced("pods", kb)
		return len(up) == 0, fmt.Sprint(up)
	})
	if d, err := deployment("part-a"); err != nil || d.UID != a.UID || d.ResourceVersion != a.ResourceVersion {
		t.Errorf("part-a's web after part-b was unassigned: %v, want it untouched, resourceVersion %s", describeDeployment(d, err), a.ResourceVersion)
	}
	if up := upsynced("pods", ka); len(up) != 2 {
		t.Errorf("part-a's pods at the hub after part-b was unassigned: %v, want its 2", up)
	}
}

// makeLegacyCopy makes in pc what a syncer of target key of an earlier
// release made of Deployment web of ns1 of root:a, 2 replicas of
// nginx:1.27: namespace legacy, named without the key, and web in it,
// both labelled with the key and recording their origin; it returns the
// Deployment's UID.
func makeLegacyCopy(ctx context.Context, t *testing.T, pc *pcluster.Cluster, key, legacy string) string {
	t.Helper()
	origin := map[string]string{workloadv1alpha1.OriginClusterAnnotation: "root:a", workloadv1alpha1.OriginNamespaceAnnotation: "ns1"}
	ours := map[string]string{workloadv1alpha1.TargetKeyLabel: key}
	if _, err := pc.Client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: legacy, Labels: ours, Annotations: origin}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	annotations := map[string]string{workloadv1alpha1.OriginNameAnnotation: "web"}
	for k, v := range origin {
		annotations[k] = v
	}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: legacy, Labels: ours, Annotations: annotations},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web", workloadv1alpha1.TargetKeyLabel: key}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1.27"}}},
			},
		},
	}
	made, err := pc.Client.AppsV1().Deployments(legacy).Create(ctx, d, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return string(made.UID)
}

// sharedClusterMatrix makes, with the hub credential of each target's
// syncer, the writes a stolen credential would make to the other
// target's objects in root:a: its status report and finalizer on the
// Deployment both run, its pods, Events and node copies, and pods made
// in its name. Each is refused with a 403. holders are the node copies,
// by the key of the syncer holding each. It returns how many requests it
// made.
func sharedClusterMatrix(t *testing.T, h *hub, admin kubectl, holders, keys map[string]string, podOfB, eventOfB string) int {
	t.Helper()
	ka, kb := keys["part-a"], keys["part-b"]
	stolen := map[string]kubectl{}
	for name, key := range keys {
		stolen[key] = syncerKubeconfig(t, h, "root", name)
	}
	a := stolen[ka]
	const notAssigned = "it is not assigned to the SyncTarget"
	foreignPod := fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"forged","namespace":"ns1","labels":{%q:%q},"annotations":{%q:"deployments.apps/web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`,
		workloadv1alpha1.UpsyncedLabel, kb, workloadv1alpha1.OwnerAnnotation)
	type request struct {
		what string
		as   kubectl
		args []string
		why  string
	}
	cases := []request{
		{"part-b's status report on web", a, []string{"annotate", "deployment", "web", workloadv1alpha1.StatusAnnotation(kb) + "={}", "--overwrite"}, "which only that syncer writes"},
		{"part-b's finalizer on web", a, []string{"patch", "deployment", "web", "--type=merge", "-p",
			fmt.Sprintf(`{"metadata":{"finalizers":[%q]}}`, workloadv1alpha1.FinalizerPrefix+ka)}, "only its status"},
		{"part-b's replicas on web", a, []string{"annotate", "deployment", "web", workloadv1alpha1.ReplicasAnnotation(kb) + "=0", "--overwrite"}, "only its status"},
		{"reading part-b's pod", a, []string{"get", "pod", podOfB}, notAssigned},
		{"labelling part-b's pod", a, []string{"label", "pod", podOfB, "stolen=yes"}, notAssigned},
		{"deleting part-b's pod", a, []string{"delete", "pod", podOfB, "--wait=false"}, notAssigned},
		{"deleting part-b's Event", a, []string{"delete", "event", eventOfB, "--wait=false"}, notAssigned},
		{"listing part-b's pods", a, []string{"get", "pods", "-l", workloadv1alpha1.UpsyncedLabel + "=" + kb}, "list pods"},
		{"a pod in part-b's name", a, []string{"create", "-f", writeFile(t, foreignPod)}, "managed by the syncer of target " + kb},
	}
	for node, holder := range holders {
		other := stolen[ka]
		if holder == ka {
			other = stolen[kb]
		}
		cases = append(cases,
			request{"the other's copy of node " + node, other, []string{"label", "node", node, "stolen=yes"}, notAssigned},
			request{"deleting the other's copy of node " + node, other, []string{"delete", "node", node, "--wait=false"}, notAssigned})
	}
	for _, c := range cases {
		out, err := c.as.run(append([]string{"--context", "a", "-n", "ns1"}, c.args...)...)
		checkRefusal(t, c.what, out, err, c.why)
	}
	// None of it landed.
	if got := admin.must("--context", "a", "-n", "ns1", "get", "pod", podOfB, "-o", "jsonpath={.metadata.labels.stolen}"); got != "" {
		t.Errorf("part-b's pod was labelled by part-a's credential: %q", got)
	}
	return len(cases)
}
