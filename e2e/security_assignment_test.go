package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/apps"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
	canopysync "github.com/canopy-dev/canopy/pkg/sync"
)

// assignmentField is where a write names a target: the assignment label,
// a replicas share or the assignment label of the pod template.
type assignmentField struct {
	name string
	// set puts the field for key on d.
	set func(d *appsv1.Deployment, key string)
	// patch is the merge (and strategic merge) patch setting it, and
	// jsonPath the JSON patch path of it.
	patch    func(key string) string
	jsonPath func(key string) string
	// value is what the field is set to.
	value string
	// command is the kubectl command setting it alone, label or
	// annotate, if there is one.
	command string
	// annotation is the name of the field for key, if it is an
	// annotation.
	annotation func(key string) string
}

// annotationField is the field that annotation names for a key, set to
// value.
func annotationField(name string, annotation func(key string) string, value string) assignmentField {
	return assignmentField{
		name: name,
		set:  func(d *appsv1.Deployment, key string) { d.Annotations[annotation(key)] = value },
		patch: func(key string) string {
			return fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, annotation(key), value)
		},
		jsonPath:   func(key string) string { return "/metadata/annotations/" + escapeJSONPointer(annotation(key)) },
		value:      value,
		command:    "annotate",
		annotation: annotation,
	}
}

// recordFields are placement's record of what each target receives,
// which only placement writes: the overrides it resolved for a target,
// the revision a target runs and the spec of a revision. Written by
// hand, they would send a physical cluster a spec the logical cluster's
// admission never judged.
var recordFields = []assignmentField{
	annotationField("overrides", workloadv1alpha1.OverridesAnnotation, `[{"replicas":5}]`),
	annotationField("revision pin", workloadv1alpha1.RevisionAnnotation, "7f3a"),
	annotationField("spec of a revision", func(string) string { return workloadv1alpha1.SpecAnnotation("7f3a") },
		`{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"hostNetwork":true,"containers":[{"name":"web","image":"evil"}]}}}`),
}

// escapeJSONPointer escapes a label or annotation name for a JSON patch
// path.
func escapeJSONPointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

var assignmentFields = []assignmentField{
	{
		name: "label",
		set: func(d *appsv1.Deployment, key string) {
			d.Labels[workloadv1alpha1.StateLabel(key)] = workloadv1alpha1.StateSync
		},
		patch: func(key string) string {
			return fmt.Sprintf(`{"metadata":{"labels":{%q:"Sync"}}}`, workloadv1alpha1.StateLabel(key))
		},
		jsonPath: func(key string) string {
			return "/metadata/labels/" + escapeJSONPointer(workloadv1alpha1.StateLabel(key))
		},
		value:   workloadv1alpha1.StateSync,
		command: "label",
	},
	annotationField("replicas share", workloadv1alpha1.ReplicasAnnotation, "1"),
	{
		name: "pod template label",
		set: func(d *appsv1.Deployment, key string) {
			d.Spec.Template.Labels[workloadv1alpha1.StateLabel(key)] = workloadv1alpha1.StateSync
		},
		patch: func(key string) string {
			return fmt.Sprintf(`{"spec":{"template":{"metadata":{"labels":{%q:"Sync"}}}}}`, workloadv1alpha1.StateLabel(key))
		},
		jsonPath: func(key string) string {
			return "/spec/template/metadata/labels/" + escapeJSONPointer(workloadv1alpha1.StateLabel(key))
		},
		value: workloadv1alpha1.StateSync,
	},
}

// webDeployment is Deployment name in ns1 as the tenant wrote it, with
// an annotation so that JSON patches may add to the annotations.
func webDeployment(name string) *appsv1.Deployment {
	labels := map[string]string{"app": "web"}
	d := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns1", Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"owner": "team-a"}},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			},
		},
	}
	return d
}

// manifest is d as a file for kubectl.
func manifest(t *testing.T, d *appsv1.Deployment) string {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, string(b))
}

// assignmentWrite is one way of writing a field, as kubectl args in the
// logical cluster of context a.
type assignmentWrite struct {
	name string
	args func(t *testing.T, f assignmentField, key string, n int) []string
}

var assignmentWrites = []assignmentWrite{
	{"create", func(t *testing.T, f assignmentField, key string, n int) []string {
		d := webDeployment(fmt.Sprintf("web-%d", n))
		f.set(d, key)
		return []string{"create", "-f", manifest(t, d)}
	}},
	{"update", func(t *testing.T, f assignmentField, key string, _ int) []string {
		d := webDeployment("web")
		f.set(d, key)
		return []string{"replace", "-f", manifest(t, d)}
	}},
	{"JSON patch", func(_ *testing.T, f assignmentField, key string, _ int) []string {
		return []string{"patch", "deployment", "web", "--type", "json", "-p",
			fmt.Sprintf(`[{"op":"add","path":%q,"value":%q}]`, f.jsonPath(key), f.value)}
	}},
	{"merge patch", func(_ *testing.T, f assignmentField, key string, _ int) []string {
		return []string{"patch", "deployment", "web", "--type", "merge", "-p", f.patch(key)}
	}},
	{"strategic merge patch", func(_ *testing.T, f assignmentField, key string, _ int) []string {
		return []string{"patch", "deployment", "web", "--type", "strategic", "-p", f.patch(key)}
	}},
	{"client-side apply", func(t *testing.T, f assignmentField, key string, _ int) []string {
		d := webDeployment("web")
		f.set(d, key)
		return []string{"apply", "-f", manifest(t, d)}
	}},
	{"server-side apply", func(t *testing.T, f assignmentField, key string, _ int) []string {
		d := webDeployment("web")
		f.set(d, key)
		return []string{"apply", "--server-side", "--force-conflicts", "--field-manager", "tenant", "-f", manifest(t, d)}
	}},
	{"label or annotate", func(_ *testing.T, f assignmentField, key string, _ int) []string {
		if f.command == "" {
			return nil
		}
		name := workloadv1alpha1.StateLabel(key)
		if f.annotation != nil {
			name = f.annotation(key)
		}
		return []string{f.command, "deployment", "web", name + "=" + f.value}
	}},
}

// TestSecurityAssignment attacks the assignment of workloads to
// SyncTargets: the label key is a hash anyone can compute, so a tenant
// must not be able to put its workload on a physical cluster it was not
// given. root:a's admin, alice, not system:masters, tries every way of
// writing each assignment field for a target of another tenant (root:b's
// pc2) and one of the platform (root's shared) she has no use on: every
// write is refused, naming the grant she lacks. bob, granted use on the
// platform's targets, may assign to shared, and is refused a cordoned
// target, a NoExecute taint, a target a PlacementConstraint of root
// excludes and targets whose spec.logicalClusters leave root:a out. A
// ServiceAccount of root:a named as one root granted use gets nothing
// from that grant. Placement's record of what each target receives
// (overrides, revision pins, revisions' specs) is refused to everyone
// but placement, and a target's status report to everyone but its
// syncer, written any way.
func TestSecurityAssignment(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, testSecurityAssignment)
}

func testSecurityAssignment(t *testing.T, h *hub, admin kubectl) {
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")
	// target makes SyncTarget name in the logical cluster of context,
	// in region, with spec, and returns its key.
	target := func(context, name, region, spec string) string {
		admin.apply(context, fmt.Sprintf("apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: %s\n  labels: {region: %s}\nspec: {%s}\n",
			name, region, spec))
		return workloadv1alpha1.TargetKey(map[string]string{"root": "root", "a": "root:a", "b": "root:b"}[context], name)
	}
	pc2 := target("b", "pc2", "eu", "")
	shared := target("root", "shared", "eu", "")
	cordoned := target("root", "cordoned", "eu", "unschedulable: true")
	tainted := target("root", "tainted", "eu", "taints: [{key: drain, effect: NoExecute}]")
	us := target("root", "us", "us", "")
	onlyC := target("root", "only-c", "eu", "logicalClusters: [root:c]")
	own := target("a", "own", "eu", "")
	admin.apply("root", `apiVersion: placement.canopy.dev/v1alpha1
kind: PlacementConstraint
metadata:
  name: eu-only
spec:
  allowedTargets:
    labelSelector: {matchLabels: {region: eu}}
`)
	useRole := `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: synctarget-users
rules:
- apiGroups: [workload.canopy.dev]
  resources: [synctargets]
  verbs: [use]
`
	admin.apply("root", useRole)
	admin.must("--context", "root", "create", "clusterrolebinding", "bob-uses-synctargets", "--clusterrole", "synctarget-users", "--user", "bob")
	admin.apply("b", useRole)
	admin.must("--context", "b", "create", "clusterrolebinding", "bob-uses-synctargets", "--clusterrole", "synctarget-users", "--user", "bob")
	users := map[string]kubectl{}
	for _, name := range []string{"alice", "bob"} {
		users[name] = userKubeconfig(t, pki, name)
		users[name].addContexts(h, pki, name)
		admin.grantEverything("a", name)
	}
	alice, bob := users["alice"], users["bob"]
	admin.must("--context", "a", "create", "namespace", "ns1")
	admin.must("--context", "a", "create", "-f", manifest(t, webDeployment("web")))

	requests := 0
	write := func(k kubectl, args ...string) error {
		t.Helper()
		requests++
		_, err := k.run(append([]string{"--context", "a", "-n", "ns1"}, args...)...)
		return err
	}
	refused := func(what string, err error, wants ...string) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: allowed", what)
			return
		}
		for _, want := range append([]string{"is forbidden"}, wants...) {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the refusal lacks %q: %v", what, want, err)
			}
		}
	}

	// Every way alice writes a field for a target she may not use is
	// refused, naming the grant.
	n := 0
	for _, tc := range []struct{ target, cluster, name, key string }{
		{"another tenant's", "root:b", "pc2", pc2},
		{"the platform's", "root", "shared", shared},
	} {
		for _, f := range assignmentFields {
			for _, w := range assignmentWrites {
				n++
				args := w.args(t, f, tc.key, n)
				if args == nil {
					continue
				}
				refused(fmt.Sprintf("alice: %s of the %s for %s target %s", w.name, f.name, tc.target, tc.name), write(alice, args...),
					fmt.Sprintf(`user "alice" may not assign objects to SyncTarget %s:%s`, tc.cluster, tc.name),
					fmt.Sprintf(`it needs "use" on synctargets %q in logical cluster %s`, tc.name, tc.cluster))
			}
		}
	}
	if got := admin.must("--context", "a", "-n", "ns1", "get", "deployments", "-o", "jsonpath={.items[*].metadata.name}"); got != "web" {
		t.Errorf("deployments after the refused writes: %q, want web alone", got)
	}
	if got := admin.must("--context", "a", "-n", "ns1", "get", "deployment", "web", "-o",
		"jsonpath={.metadata.labels} {.metadata.annotations} {.spec.template.metadata.labels}"); strings.Contains(got, "workload.canopy.dev") {
		t.Errorf("web after the refused writes: %s", got)
	}
	// Only placement writes its bookkeeping.
	refused("alice: placed annotation", write(alice, "annotate", "deployment", "web", workloadv1alpha1.PlacedAnnotation+"="+shared),
		`user "alice" may not assign objects to SyncTarget root:shared`)
	refused("alice: a key no SyncTarget has", write(alice, "label", "deployment", "web", workloadv1alpha1.StateLabel("0123456789abcdef")+"=Sync"),
		"no SyncTarget has key 0123456789abcdef")
	// Placement's record of what each target receives is placement's
	// alone: no write of it passes, not even with use on the target nor
	// as system:masters.
	for _, f := range recordFields {
		for who, k := range map[string]kubectl{"alice": alice, "bob": bob, "system:masters": admin} {
			for _, w := range assignmentWrites {
				n++
				args := w.args(t, f, shared, n)
				refused(fmt.Sprintf("%s: %s of the %s", who, w.name, f.name), write(k, args...),
					"annotation "+f.annotation(shared)+" is placement's record of what a target receives")
			}
		}
	}
	// A target's report of web's status is its syncer's alone: written
	// by hand, a healthy report would push a rollout past a wave that is
	// not. No write of it passes, not even as system:masters.
	forged := annotationField("status report", workloadv1alpha1.StatusAnnotation,
		`{"observedGeneration":99,"replicas":1,"updatedReplicas":1,"availableReplicas":1}`)
	for who, k := range map[string]kubectl{"alice": alice, "bob": bob, "system:masters": admin} {
		for _, w := range assignmentWrites {
			n++
			refused(fmt.Sprintf("%s: %s of the %s", who, w.name, forged.name), write(k, w.args(t, forged, shared, n)...),
				"annotation "+forged.annotation(shared)+" is the report of the syncer of the SyncTarget of key "+shared,
				"which only that syncer writes")
		}
	}
	if got := admin.must("--context", "a", "-n", "ns1", "get", "deployment", "web", "-o", "jsonpath={.metadata.annotations}"); strings.Contains(got, "workload.canopy.dev") {
		t.Errorf("web after the refused writes of placement's record and of a status report: %s", got)
	}
	// A target of her own logical cluster is hers to use.
	if err := write(alice, "label", "deployment", "web", workloadv1alpha1.StateLabel(own)+"=Sync"); err != nil {
		t.Errorf("alice assigning to a SyncTarget of her own logical cluster: %v", err)
	}

	// bob, with use, assigns by every field and every write to shared.
	for _, f := range assignmentFields {
		for _, w := range assignmentWrites[1:] {
			args := w.args(t, f, shared, 0)
			if args == nil {
				continue
			}
			if err := write(bob, args...); err != nil {
				t.Errorf("bob: %s of the %s for shared: %v", w.name, f.name, err)
			}
			// Each write starts from web without the field. kubectl
			// replaces what it reads, so a controller's write in between
			// (placement's, the revision annotation's) is a conflict to
			// retry, as any client does.
			requests++
			admin.eventually("--context", "a", "-n", "ns1", "replace", "-f", manifest(t, webDeployment("web")))
		}
	}
	// The gates that keep new objects off a target keep bob's labels off
	// too, whichever way they are written.
	for _, tc := range []struct {
		name, key string
		wants     []string
	}{
		{"cordoned", cordoned, []string{"SyncTarget root:cordoned", "cordoned"}},
		{"tainted", tainted, []string{"SyncTarget root:tainted", "taint drain:NoExecute is not tolerated", "tolerates no taint"}},
		{"excluded by a constraint", us, []string{"SyncTarget root:us", "PlacementConstraint root/eu-only does not allow it"}},
		{"for root:c only", onlyC, []string{"SyncTarget root:only-c", "spec.logicalClusters [root:c] does not include logical cluster root:a"}},
		{"of root:b", pc2, []string{"SyncTarget root:b:pc2", "its own logical cluster root:b and those below it", "does not include logical cluster root:a"}},
	} {
		for _, w := range assignmentWrites {
			n++
			refused(fmt.Sprintf("bob: %s of the label for a target %s", w.name, tc.name), write(bob, w.args(t, assignmentFields[0], tc.key, n)...), tc.wants...)
		}
	}
	// Releasing needs no grant: alice removes bob's assignment.
	if err := write(bob, "label", "deployment", "web", workloadv1alpha1.StateLabel(shared)+"=Sync"); err != nil {
		t.Fatalf("bob assigning to shared: %v", err)
	}
	if err := write(alice, "label", "deployment", "web", workloadv1alpha1.StateLabel(shared)+"-"); err != nil {
		t.Errorf("alice releasing web from shared: %v", err)
	}

	// A ServiceAccount of root:a named as one root granted use gets
	// nothing from that grant: it is another ServiceAccount.
	for _, context := range []string{"root", "a"} {
		admin.must("--context", context, "create", "namespace", "ci")
		admin.must("--context", context, "create", "serviceaccount", "deployer", "-n", "ci")
	}
	admin.must("--context", "root", "create", "clusterrolebinding", "deployer-uses-synctargets", "--clusterrole", "synctarget-users", "--serviceaccount", "ci:deployer")
	admin.must("--context", "a", "create", "clusterrolebinding", "deployer-everything", "--clusterrole", "everything", "--serviceaccount", "ci:deployer")
	deployer := kubectl{t: t, kubeconfig: filepath.Join(t.TempDir(), "kubeconfig"), home: t.TempDir()}
	deployer.must("config", "set-credentials", "deployer", "--token", strings.TrimSpace(admin.must("--context", "a", "create", "token", "deployer", "-n", "ci")))
	deployer.addContexts(h, pki, "deployer")
	refused("root:a's ServiceAccount named as root's", write(deployer, "label", "deployment", "web", workloadv1alpha1.StateLabel(shared)+"=Sync"),
		`user "system:serviceaccount:ci:deployer" may not assign objects to SyncTarget root:shared`,
		"a ServiceAccount of logical cluster root:a may assign objects only to the SyncTargets of root:a")
	if err := write(deployer, "label", "--overwrite", "deployment", "web", workloadv1alpha1.StateLabel(own)+"=Sync"); err != nil {
		t.Errorf("root:a's ServiceAccount assigning to a SyncTarget of root:a: %v", err)
	}
	t.Logf("the matrix made %d write requests", requests)
}

// TestSecurityAssignmentSyncer checks the syncer's own defence: a
// workload that reached the hub's store without admission, assigned to a
// target from a logical cluster the target's spec.logicalClusters leaves
// out, is never applied in the physical cluster, and the syncer says why
// in a Warning Event on it at the hub. The test writes it straight into
// the hub's PostgreSQL database, through the registry's store and codec
// as the hub itself would, from its own process: what a bug, or anyone
// with the database's credentials, could do. When the platform admin
// changes the target's logical clusters, the copies of those shut out
// are deleted downstream and their hub objects released.
func TestSecurityAssignmentSyncer(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	datastore := pgtest.Shared(t).NewDatabase(t)
	h, admin := startHub(t, buildHub(t), datastore)
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")
	pc1 := pcluster.Start(t, "pc1", pcluster.Options{Nodes: []pcluster.Node{{Name: "pc1-a"}}})
	admin.apply("root", "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: pc1\nspec:\n  logicalClusters: [root:b]\n")
	key := workloadv1alpha1.TargetKey("root", "pc1")
	runSyncer(t, syncerBin, syncerKubeconfig(t, h, "root", "pc1").kubeconfig, pc1.Kubeconfig, "root:pc1").waitReady(time.Minute)
	assigned := func(name string) *appsv1.Deployment {
		d := webDeployment(name)
		d.Labels[workloadv1alpha1.StateLabel(key)] = workloadv1alpha1.StateSync
		return d
	}
	requests := 0
	for _, c := range []string{"a", "b"} {
		requests++
		admin.must("--context", c, "create", "namespace", "ns1")
	}

	// From root:b the target runs it; from root:a the hub refuses it,
	// even to system:masters.
	requests++
	admin.must("--context", "b", "create", "-f", manifest(t, assigned("web")))
	waitPresence(t, pc1, "root:b", "web", true)
	requests++
	if _, err := admin.run("--context", "a", "create", "-f", manifest(t, assigned("web"))); err == nil ||
		!strings.Contains(err.Error(), "spec.logicalClusters [root:b] does not include logical cluster root:a") {
		t.Errorf("assigning from root:a, which the target does not serve: %v", err)
	}

	// Slipped into the store past admission, it stays out of pc1, and
	// the syncer says why at the hub.
	slipIn(t, datastore, "root:a", assigned("slipped"))
	requests++
	waitEvent(t, admin, "a", "slipped", canopysync.RefusedReason, "SyncTarget root:pc1 does not sync objects of logical cluster root:a")
	waitPresence(t, pc1, "root:a", "slipped", false)

	// The target moves to root:a: root:b's copy goes, with an Event and
	// the finalizer released, and root:a's object runs.
	requests++
	admin.must("--context", "root", "patch", "synctarget", "pc1", "--type", "merge", "-p", `{"spec":{"logicalClusters":["root:a"]}}`)
	waitPresence(t, pc1, "root:b", "web", false)
	waitEvent(t, admin, "b", "web", canopysync.RefusedReason, "SyncTarget root:pc1 does not sync objects of logical cluster root:b")
	waitPresence(t, pc1, "root:a", "slipped", true)
	requests++
	if got := admin.must("--context", "b", "-n", "ns1", "get", "deployment", "web", "-o", "jsonpath={.metadata.finalizers}"); strings.Contains(got, key) {
		t.Errorf("web in root:b, shut out, still has the syncer's finalizer: %s", got)
	}
	t.Logf("the test made %d requests besides its polls", requests)
}

// slipIn creates d in logical cluster cluster straight in the hub's
// database at datastore, through the registry's store, which the hub
// serves from, and past the hub's admission.
func slipIn(t *testing.T, datastore string, cluster logicalcluster.Name, d *appsv1.Deployment) {
	t.Helper()
	ctx := context.Background()
	backend, err := sqlstorage.Open(ctx, datastore, sqlstorage.Options{CompactInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer backend.Close()
	scheme := runtime.NewScheme()
	if err := apps.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	metav1.AddToGroupVersion(scheme, schema.GroupVersion{Version: "v1"})
	group, err := apps.NewStorage(&registry.Factory{Backend: backend, Serializer: serializer.NewCodecFactory(scheme)}, scheme)
	if err != nil {
		t.Fatal(err)
	}
	store := group.Storage["deployments"].(*registry.Served).Store
	defer store.DestroyFunc()
	// The hub defaults what it decodes from a request, before the store.
	scheme.Default(d)
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, d.Namespace), cluster)
	if _, err := store.Create(ctx, d, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil {
		t.Fatalf("writing %s/%s into the database: %v", cluster, d.Name, err)
	}
}

// waitPresence waits up to a minute for Deployment name of ns1 in
// logical cluster cluster to be in c, or to be gone from it.
func waitPresence(t *testing.T, c *pcluster.Cluster, cluster logicalcluster.Name, name string, present bool) {
	t.Helper()
	ns := downNS(c.Name, string(cluster), "ns1")
	waitFor(t, time.Minute, fmt.Sprintf("%s/ns1/%s downstream: %v", cluster, name, present), func() (bool, string) {
		_, err := c.Client.AppsV1().Deployments(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
		return (err == nil) == present, fmt.Sprintf("present %v", err == nil)
	})
}

// waitEvent waits up to a minute for a Warning Event of reason on object
// name in ns1 of the logical cluster of context whose message has
// message.
func waitEvent(t *testing.T, admin kubectl, context, name, reason, message string) {
	t.Helper()
	waitFor(t, time.Minute, fmt.Sprintf("a Warning Event %s on %s in %s saying %q", reason, name, context, message), func() (bool, string) {
		events := admin.must("--context", context, "-n", "ns1", "get", "events", "-o",
			`jsonpath={range .items[*]}{.type}|{.reason}|{.involvedObject.name}|{.message}{"\n"}{end}`)
		for line := range strings.SplitSeq(events, "\n") {
			if strings.HasPrefix(line, "Warning|"+reason+"|"+name+"|") && strings.Contains(line, message) {
				return true, ""
			}
		}
		return false, "events:\n" + events
	})
}
