package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	canopysync "github.com/canopy-dev/canopy/pkg/sync"
)

// TestSyncer runs a Deployment with its ConfigMap and Secret from
// logical cluster root:a in physical cluster pc1 through a syncer
// process: it runs there, its status and pods show at the hub so that
// kubectl rollout status and get pods work there, an image change rolls out, and deleting it
// at the hub deletes it downstream before the hub object goes. The same
// names in root:b land in a namespace of their own.
func TestSyncer(t *testing.T) {
	t.Parallel()
	admin, pc1, key, _ := setUpSyncer(t)

	// The heartbeat reports the key, Ready and the nodes' capacity.
	admin.eventually("--context", "root", "wait", "synctarget/pc1", "--for", "condition=Ready", "--timeout", "5s")
	pods := pc1.Nodes[0].Status.Allocatable.Pods().DeepCopy()
	for _, n := range pc1.Nodes[1:] {
		pods.Add(*n.Status.Allocatable.Pods())
	}
	if got, want := admin.must("--context", "root", "get", "synctarget", "pc1", "-o", "jsonpath={.status.key} {.status.allocatable.pods}"), key+" "+pods.String(); got != want {
		t.Errorf("SyncTarget pc1 status: key and allocatable pods %q, want %q", got, want)
	}
	// pc1 serves every resource the target accepts, as the hub does.
	for _, r := range workloadv1alpha1.DefaultResources {
		condition := canopysync.CompatibleCondition(r)
		if got := admin.must("--context", "root", "get", "synctarget", "pc1", "-o", `jsonpath={.status.conditions[?(@.type=="`+condition+`")].status}`); got != "True" {
			t.Errorf("SyncTarget pc1 condition %s: %q, want True", condition, got)
		}
	}

	for _, c := range []string{"a", "b"} {
		admin.apply(c, workloadManifest(key, "nginx:1.27"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	nsA := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")
	nsB := workloadv1alpha1.DownstreamNamespace(key, "root:b", "ns1")
	if nsA == nsB {
		t.Fatalf("root:a and root:b map ns1 to the same namespace %s", nsA)
	}

	t.Run("run", func(t *testing.T) {
		for ns, cluster := range map[string]string{nsA: "root:a", nsB: "root:b"} {
			n, err := pc1.Client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
			for ; apierrors.IsNotFound(err) && ctx.Err() == nil; n, err = pc1.Client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}) {
				time.Sleep(200 * time.Millisecond)
			}
			if err != nil {
				t.Fatalf("downstream namespace of %s ns1: %v", cluster, err)
			}
			if got := n.Annotations[workloadv1alpha1.OriginClusterAnnotation] + "/" + n.Annotations[workloadv1alpha1.OriginNamespaceAnnotation]; got != cluster+"/ns1" {
				t.Errorf("namespace %s names its origin %q, want %s/ns1", ns, got, cluster)
			}
			waitPods(ctx, t, pc1, ns, "nginx:1.27")
			cm, err := pc1.Client.CoreV1().ConfigMaps(ns).Get(ctx, "web-config", metav1.GetOptions{})
			if err != nil || cm.Data["GREETING"] != "hello" || cm.Annotations[workloadv1alpha1.OriginClusterAnnotation] != cluster {
				t.Errorf("downstream ConfigMap in %s: %v %v", ns, cm, err)
			}
			if s, err := pc1.Client.CoreV1().Secrets(ns).Get(ctx, "web-secret", metav1.GetOptions{}); err != nil || string(s.Data["password"]) != "s3cret" {
				t.Errorf("downstream Secret in %s: %v", ns, err)
			}
		}
		for _, c := range []string{"a", "b"} {
			if _, err := admin.runWithin(90*time.Second, "--context", c, "rollout", "status", "deploy/web", "-n", "ns1", "--timeout=60s"); err != nil {
				t.Fatalf("rollout status at the hub in %s: %v", c, err)
			}
			if got := admin.must("--context", c, "get", "deploy", "web", "-n", "ns1", "--no-headers"); !strings.Contains(got, "3/3") {
				t.Errorf("kubectl get deploy in %s: %q, want 3/3 ready", c, got)
			}
			if got := admin.must("--context", c, "get", "deploy", "web", "-n", "ns1", "-o", "jsonpath={.metadata.finalizers}"); !strings.Contains(got, workloadv1alpha1.FinalizerPrefix+key) {
				t.Errorf("hub Deployment in %s has finalizers %s, want the syncer's", c, got)
			}
			// The pods running downstream are listed at the hub, each
			// logical cluster seeing its own.
			ns := workloadv1alpha1.DownstreamNamespace(key, "root:"+c, "ns1")
			downPods, err := pc1.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, p := range downPods.Items {
				want = append(want, p.Name+" Running")
			}
			slices.Sort(want)
			var got []string
			for ctx.Err() == nil {
				out := admin.must("--context", c, "get", "pods", "-n", "ns1", "-l", "app=web", "-o", `jsonpath={range .items[*]}{.metadata.name} {.status.phase}{"\n"}{end}`)
				if got = strings.Split(strings.TrimSpace(out), "\n"); slices.Equal(got, want) {
					break
				}
				time.Sleep(300 * time.Millisecond)
			}
			if !slices.Equal(got, want) || len(want) != 3 {
				t.Errorf("pods at the hub in %s: %q, want %q", c, got, want)
			}
		}
	})

	t.Run("events", func(t *testing.T) {
		// The Events of the pods and of the Deployment downstream show at
		// the hub, about the objects of the same names there.
		var got string
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
			got = admin.must("--context", "a", "get", "events", "-n", "ns1", "-l", "workload.canopy.dev/upsynced="+key,
				"-o", `jsonpath={range .items[*]}{.involvedObject.kind}/{.involvedObject.namespace}/{.involvedObject.name} {.reason}{"\n"}{end}`)
			if strings.Contains(got, "Deployment/ns1/web ScalingReplicaSet") && strings.Contains(got, "Pod/ns1/web-") && strings.Contains(got, " Scheduled") {
				break
			}
		}
		if !strings.Contains(got, "Deployment/ns1/web ScalingReplicaSet") || !strings.Contains(got, "Pod/ns1/web-") || !strings.Contains(got, " Scheduled") {
			t.Errorf("upsynced events at the hub in root:a:\n%s\nwant the Deployment's ScalingReplicaSet and its pods' Scheduled", got)
		}
		if table := admin.must("--context", "a", "get", "events", "-n", "ns1"); !strings.Contains(table, "deployment/web") || !strings.Contains(table, "Scheduled") {
			t.Errorf("kubectl get events at the hub in root:a:\n%s", table)
		}
	})

	t.Run("update", func(t *testing.T) {
		admin.must("--context", "a", "set", "image", "deploy/web", "web=nginx:1.28", "-n", "ns1")
		if out, err := admin.runWithin(90*time.Second, "--context", "a", "rollout", "status", "deploy/web", "-n", "ns1", "--timeout=60s"); err != nil {
			t.Fatalf("rollout status at the hub after the image change: %v\n%s", err, out)
		}
		// Rollout status succeeded at the hub: downstream is done too.
		d, err := pc1.Client.AppsV1().Deployments(nsA).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if img := d.Spec.Template.Spec.Containers[0].Image; img != "nginx:1.28" {
			t.Errorf("downstream image %s after the hub's rollout finished", img)
		}
		waitPods(ctx, t, pc1, nsA, "nginx:1.28")
		// root:b is untouched.
		if d, err := pc1.Client.AppsV1().Deployments(nsB).Get(ctx, "web", metav1.GetOptions{}); err != nil || d.Spec.Template.Spec.Containers[0].Image != "nginx:1.27" {
			t.Errorf("root:b's downstream Deployment changed with root:a's: %v", err)
		}
	})

	t.Run("delete", func(t *testing.T) {
		admin.must("--context", "a", "delete", "deploy/web", "configmap/web-config", "secret/web-secret", "-n", "ns1", "--wait=false")
		for ctx.Err() == nil {
			_, errD := pc1.Client.AppsV1().Deployments(nsA).Get(ctx, "web", metav1.GetOptions{})
			_, errC := pc1.Client.CoreV1().ConfigMaps(nsA).Get(ctx, "web-config", metav1.GetOptions{})
			_, errS := pc1.Client.CoreV1().Secrets(nsA).Get(ctx, "web-secret", metav1.GetOptions{})
			out, _ := admin.run("--context", "a", "get", "deploy,configmap,secret,pods", "-n", "ns1", "-o", "name")
			if apierrors.IsNotFound(errD) && apierrors.IsNotFound(errC) && apierrors.IsNotFound(errS) && !strings.Contains(out, "web") {
				break
			}
			time.Sleep(300 * time.Millisecond)
		}
		if ctx.Err() != nil {
			t.Fatal("the deleted objects are not gone downstream and at the hub")
		}
		if _, err := pc1.Client.AppsV1().Deployments(nsB).Get(ctx, "web", metav1.GetOptions{}); err != nil {
			t.Errorf("root:b's downstream Deployment after root:a's was deleted: %v", err)
		}
		// The namespace, empty now, gets content again within the grace
		// period: it stays.
		admin.must("--context", "a", "create", "configmap", "keep", "-n", "ns1")
		admin.must("--context", "a", "label", "configmap", "keep", "-n", "ns1", workloadv1alpha1.StateLabel(key)+"=Sync")
		time.Sleep(namespaceGracePeriod + 2*time.Second)
		if _, err := pc1.Client.CoreV1().ConfigMaps(nsA).Get(ctx, "keep", metav1.GetOptions{}); err != nil {
			t.Fatalf("the namespace that got content within its grace period went: %v", err)
		}
		// Empty again, it stays for the grace period, then goes.
		admin.must("--context", "a", "delete", "configmap", "keep", "-n", "ns1")
		_, err := pc1.Client.CoreV1().ConfigMaps(nsA).Get(ctx, "keep", metav1.GetOptions{})
		for ; err == nil && ctx.Err() == nil; _, err = pc1.Client.CoreV1().ConfigMaps(nsA).Get(ctx, "keep", metav1.GetOptions{}) {
			time.Sleep(100 * time.Millisecond)
		}
		emptied := time.Now()
		ns, err := pc1.Client.CoreV1().Namespaces().Get(ctx, nsA, metav1.GetOptions{})
		for ; err == nil && ns.DeletionTimestamp == nil && ctx.Err() == nil; ns, err = pc1.Client.CoreV1().Namespaces().Get(ctx, nsA, metav1.GetOptions{}) {
			time.Sleep(200 * time.Millisecond)
		}
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
		if waited := time.Since(emptied); waited < namespaceGracePeriod-time.Second || waited > namespaceGracePeriod+20*time.Second {
			t.Errorf("the empty downstream namespace %s went %s after it emptied, want after the grace period of %s", nsA, waited, namespaceGracePeriod)
		}
		if _, err := pc1.Client.CoreV1().Namespaces().Get(ctx, nsB, metav1.GetOptions{}); err != nil {
			t.Errorf("root:b's downstream namespace, not empty: %v", err)
		}
	})

	t.Run("unassign", func(t *testing.T) {
		// Unassigned, the ConfigMap is released at the hub, but stays
		// downstream as long as the synced Deployment takes env from it.
		admin.must("--context", "b", "label", "configmap", "web-config", "-n", "ns1", workloadv1alpha1.StateLabel(key)+"-")
		for admin.must("--context", "b", "get", "configmap", "web-config", "-n", "ns1", "-o", "jsonpath={.metadata.finalizers}") != "" && ctx.Err() == nil {
			time.Sleep(300 * time.Millisecond)
		}
		time.Sleep(time.Second)
		if _, err := pc1.Client.CoreV1().ConfigMaps(nsB).Get(ctx, "web-config", metav1.GetOptions{}); err != nil {
			t.Fatalf("the unassigned ConfigMap the synced Deployment uses is not downstream: %v", err)
		}
		// Unassigning the Deployment too removes both downstream; the
		// Secret, assigned itself, stays.
		admin.must("--context", "b", "label", "deploy", "web", "-n", "ns1", workloadv1alpha1.StateLabel(key)+"-")
		for ctx.Err() == nil {
			_, errD := pc1.Client.AppsV1().Deployments(nsB).Get(ctx, "web", metav1.GetOptions{})
			_, errC := pc1.Client.CoreV1().ConfigMaps(nsB).Get(ctx, "web-config", metav1.GetOptions{})
			finalizers := admin.must("--context", "b", "get", "deploy", "web", "-n", "ns1", "-o", "jsonpath={.metadata.finalizers}")
			if apierrors.IsNotFound(errD) && apierrors.IsNotFound(errC) && finalizers == "" {
				break
			}
			time.Sleep(300 * time.Millisecond)
		}
		if ctx.Err() != nil {
			t.Fatal("the unassigned Deployment or the ConfigMap only it used is still downstream, or the Deployment is still held at the hub")
		}
		if _, err := pc1.Client.CoreV1().Secrets(nsB).Get(ctx, "web-secret", metav1.GetOptions{}); err != nil {
			t.Errorf("the assigned Secret is gone downstream with the Deployment that used it: %v", err)
		}
	})

	t.Run("conflict", func(t *testing.T) {
		// Someone else's ConfigMap where root:b's would go is left alone.
		theirs := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "theirs", Namespace: nsB}, Data: map[string]string{"owner": "someone"}}
		if _, err := pc1.Client.CoreV1().ConfigMaps(nsB).Create(ctx, theirs, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		admin.must("--context", "b", "create", "configmap", "theirs", "-n", "ns1", "--from-literal", "owner=hub")
		admin.must("--context", "b", "label", "configmap", "theirs", "-n", "ns1", workloadv1alpha1.StateLabel(key)+"=Sync")
		// The syncer acts on the label within a second elsewhere in this
		// test; the finalizer tells it has seen this one.
		admin.eventually("--context", "b", "wait", "configmap/theirs", "-n", "ns1", "--for", "jsonpath={.metadata.finalizers[0]}="+workloadv1alpha1.FinalizerPrefix+key, "--timeout", "5s")
		time.Sleep(time.Second)
		cm, err := pc1.Client.CoreV1().ConfigMaps(nsB).Get(ctx, "theirs", metav1.GetOptions{})
		if err != nil || cm.Data["owner"] != "someone" || len(cm.Annotations) != 0 {
			t.Errorf("the syncer changed a downstream ConfigMap it did not create: %v %v", cm, err)
		}
		// The conflict shows at the hub, once, on the hub object.
		events := func() string {
			out := admin.must("--context", "b", "get", "events", "-n", "ns1",
				"-o", `jsonpath={range .items[*]}{.involvedObject.name} {.type} {.reason} {.involvedObject.kind} {.message}{"\n"}{end}`)
			var theirs []string
			for _, l := range strings.Split(out, "\n") {
				if name, e, ok := strings.Cut(l, " "); ok && name == "theirs" {
					theirs = append(theirs, e)
				}
			}
			return strings.Join(theirs, "\n")
		}
		var got string
		for deadline := time.Now().Add(15 * time.Second); got == "" && time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
			got = events()
		}
		if want := "Warning SyncConflict ConfigMap "; !strings.HasPrefix(got, want) || !strings.Contains(got, "root:pc1") || !strings.Contains(got, nsB+"/theirs") || !strings.Contains(got, "left alone") {
			t.Errorf("conflict events at the hub %q, want one %q naming root:pc1, %s/theirs and saying it is left alone", got, want, nsB)
		}
		if table := admin.must("--context", "b", "get", "events", "-n", "ns1"); !strings.Contains(table, "SyncConflict") {
			t.Errorf("kubectl get events at the hub shows no SyncConflict:\n%s", table)
		}
		if n := strings.Count(got, "SyncConflict"); n != 1 {
			t.Errorf("%d SyncConflict events at the hub, want 1: %q", n, got)
		}
		// Once the other object is gone downstream, the hub's is synced.
		if err := pc1.Client.CoreV1().ConfigMaps(nsB).Delete(ctx, "theirs", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		for ctx.Err() == nil {
			cm, err = pc1.Client.CoreV1().ConfigMaps(nsB).Get(ctx, "theirs", metav1.GetOptions{})
			if err == nil && cm.Data["owner"] == "hub" {
				break
			}
			time.Sleep(300 * time.Millisecond)
		}
		if ctx.Err() != nil {
			t.Fatalf("the hub's ConfigMap is not synced after the conflicting one went: %v %v", cm, err)
		}
		if n := strings.Count(events(), "SyncConflict"); n != 1 {
			t.Errorf("%d SyncConflict events at the hub after the conflict was resolved, want 1", n)
		}
	})
}

// setUpSyncer starts a hub with logical clusters root:a and root:b, a
// physical cluster pc1 of two nodes, SyncTarget pc1 in root and its
// syncer, and returns the hub's admin, pc1, the target's key and the
// syncer.
func setUpSyncer(t *testing.T) (kubectl, *pcluster.Cluster, string, *syncerProcess) {
	t.Helper()
	return setUpSyncerWith(t, false)
}

// setUpSyncerWith is setUpSyncer with pc1's audit log if audit, and
// flags added to the syncer's.
func setUpSyncerWith(t *testing.T, audit bool, flags ...string) (kubectl, *pcluster.Cluster, string, *syncerProcess) {
	t.Helper()
	_, admin, pc1, key, p := setUpSyncerHub(t, syncerSetup{cluster: pcluster.Options{Audit: audit}, syncerFlags: flags})
	return admin, pc1, key, p
}

// syncerSetup is what a test changes of what setUpSyncerHub starts.
type syncerSetup struct {
	// cluster shapes pc1, but for its nodes.
	cluster pcluster.Options
	// hubFlags and syncerFlags are more flags for hub start and for the
	// syncer.
	hubFlags, syncerFlags []string
}

// setUpSyncerHub is setUpSyncer, shaped by s, returning the hub too.
func setUpSyncerHub(t *testing.T, s syncerSetup) (*hub, kubectl, *pcluster.Cluster, string, *syncerProcess) {
	t.Helper()
	h, admin, syncerBin := startSyncersHub(t, s.hubFlags...)
	opts := s.cluster
	opts.Nodes = []pcluster.Node{
		{Name: "pc1-a", Labels: map[string]string{"region": "eu", "zone": "eu-a"}},
		{Name: "pc1-b", Labels: map[string]string{"region": "eu", "zone": "eu-b"}},
	}
	pc1 := pcluster.Start(t, "pc1", opts)

	admin.apply("root", `apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata:
  name: pc1
  labels:
    region: eu
`)
	key := workloadv1alpha1.TargetKey("root", "pc1")
	syncer := syncerKubeconfig(t, h, "root", "pc1")
	p := runSyncer(t, syncerBin, syncer.kubeconfig, pc1.Kubeconfig, "root:pc1", s.syncerFlags...)
	return h, admin, pc1, key, p
}

// downNS is the downstream namespace of namespace of logical cluster
// cluster for SyncTarget target of root, as the e2e tests name each
// physical cluster's target after it.
func downNS(target, cluster, namespace string) string {
	return workloadv1alpha1.DownstreamNamespace(workloadv1alpha1.TargetKey("root", target), cluster, namespace)
}

// startSyncersHub starts a hub with logical clusters root:a and root:b
// and more flags for hub start, after checking the physical clusters'
// binaries are there, and returns it, its admin and the syncer's binary.
func startSyncersHub(t *testing.T, hubFlags ...string) (*hub, kubectl, string) {
	t.Helper()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	h, admin, _ := startHubFlags(t, hubFlags, "a", "b")
	return h, admin, syncerBin
}

// workloadManifest is namespace ns1 with a ConfigMap, a Secret and a
// Deployment of image using both, all assigned to the target of key.
func workloadManifest(key, image string) string {
	label := workloadv1alpha1.StateLabel(key) + ": Sync"
	return fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata:
  name: ns1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: ns1
  labels: {%[1]s}
data:
  GREETING: hello
---
apiVersion: v1
kind: Secret
metadata:
  name: web-secret
  namespace: ns1
  labels: {%[1]s}
stringData:
  password: s3cret
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ns1
  labels: {%[1]s}
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: %[2]s
        envFrom:
        - configMapRef: {name: web-config}
        volumeMounts:
        - {name: secret, mountPath: /etc/secret}
      volumes:
      - name: secret
        secret: {secretName: web-secret}
`, label, image)
}

// waitPods waits for 3 Running pods of image in namespace ns, each on a
// kwok node of c.
func waitPods(ctx context.Context, t *testing.T, c *pcluster.Cluster, ns, image string) {
	t.Helper()
	selector := labels.Set{"app": "web"}.String()
	var last string
	for ctx.Err() == nil {
		pods, err := c.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			t.Fatal(err)
		}
		running := 0
		var states []string
		for _, p := range pods.Items {
			states = append(states, p.Name+" "+string(p.Status.Phase)+" on "+p.Spec.NodeName)
			if p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil && p.Spec.Containers[0].Image == image && strings.HasPrefix(p.Spec.NodeName, c.Name+"-") {
				running++
			}
		}
		if running == 3 && len(pods.Items) == 3 {
			return
		}
		last = strings.Join(states, ", ")
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatalf("no 3 Running pods of %s in %s: %s", image, ns, last)
}

// syncerKubeconfig is the hub credential of the syncer of SyncTarget
// name in logical cluster cluster, as hub synctarget create issues it: a
// client certificate that the hub confines to the target's scope, with a
// context per logical cluster and the target's current.
func syncerKubeconfig(t *testing.T, h *hub, cluster, name string) kubectl {
	t.Helper()
	pki := filepath.Join(h.dataDir, "pki")
	user := workloadv1alpha1.SyncerUser(workloadv1alpha1.TargetKey(cluster, name))
	syncer := userKubeconfig(t, pki, user, workloadv1alpha1.SyncersGroup, workloadv1alpha1.SyncTargetGroup(cluster, name),
		workloadv1alpha1.SyncTargetUIDGroup(syncTargetUID(t, h, cluster, name)))
	syncer.addContexts(h, pki, user)
	syncer.must("config", "use-context", strings.TrimPrefix(cluster, "root:"))
	return syncer
}

// syncTargetUID is the UID of SyncTarget name in logical cluster
// cluster, which the credential of its syncer names.
func syncTargetUID(t *testing.T, h *hub, cluster, name string) string {
	t.Helper()
	admin := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
	return admin.must("--server", "https://127.0.0.1:"+strconv.Itoa(h.port)+"/clusters/"+cluster, "get", "synctarget", name, "-o", "jsonpath={.metadata.uid}")
}

func buildSyncer(t *testing.T) string { return mustBuild(t, syncerBinary) }

// syncerProcess is a syncer run by a test, which may kill and start it
// again.
type syncerProcess struct {
	t    *testing.T
	args []string
	cmd  *exec.Cmd
	log  *lockedBuffer
	// metrics is the host:port of its /metrics, the same across restarts.
	metrics string
}

// lockedBuffer is a log written by a process while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *lockedBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
}

// namespaceGracePeriod is how long the syncers of the tests keep an empty
// downstream namespace they made.
const namespaceGracePeriod = 3 * time.Second

// runSyncer runs the syncer of target, with more flags if given, until
// the test ends, and logs what it printed if the test failed. It serves
// its metrics on a port of its own, not the default one that every
// syncer would share.
func runSyncer(t *testing.T, bin, hubKubeconfig, clusterKubeconfig, target string, flags ...string) *syncerProcess {
	t.Helper()
	metrics := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	args := append([]string{bin, "--hub-kubeconfig", hubKubeconfig, "--cluster-kubeconfig", clusterKubeconfig, "--sync-target", target,
		"--namespace-grace-period", namespaceGracePeriod.String(), "--metrics-bind-address", metrics}, flags...)
	p := &syncerProcess{t: t, args: args, log: &lockedBuffer{}, metrics: metrics}
	p.start()
	t.Cleanup(func() {
		if p.cmd != nil {
			_ = p.cmd.Process.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() {
				_ = p.cmd.Wait()
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				_ = p.cmd.Process.Kill()
				<-done
				t.Errorf("the syncer did not stop within 15s of an interrupt")
			}
		}
		if t.Failed() {
			t.Logf("syncer log:\n%s", p.log.String())
		}
	})
	return p
}

// start starts the syncer, logging into the same log as before.
func (p *syncerProcess) start() {
	p.t.Helper()
	fmt.Fprintf(p.log, "--- syncer started by the test at %s\n", time.Now().Format(time.RFC3339Nano))
	p.cmd = exec.Command(p.args[0], p.args[1:]...)
	p.cmd.Stdout, p.cmd.Stderr = p.log, p.log
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
}

// kill kills the syncer with SIGKILL, giving it no chance to tidy up.
func (p *syncerProcess) kill() {
	p.t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		p.t.Fatal(err)
	}
	_ = p.cmd.Wait()
	p.cmd = nil
	fmt.Fprintf(p.log, "--- syncer killed by the test at %s\n", time.Now().Format(time.RFC3339Nano))
}

// waitReady waits until the syncer, started last, says its informers have
// listed everything and it starts working.
func (p *syncerProcess) waitReady(timeout time.Duration) {
	p.t.Helper()
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		log := p.log.String()
		if strings.Contains(log[strings.LastIndex(log, "--- syncer started"):], "Syncer ready") {
			return
		}
	}
	p.t.Fatalf("the syncer was not ready within %s", timeout)
}
