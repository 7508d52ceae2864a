package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestSyncerScope checks, with the real kubectl, what the hub credential
// of SyncTarget pc1's syncer reaches, with no RBAC granted anywhere: in
// root:a and root:b, and across every logical cluster, it reads only the
// objects assigned to pc1, the ConfigMaps and Secrets they refer to and
// its own SyncTarget, and writes only their status, its finalizer and
// the pods it copies up, and its report of their status. Everything else, another target's objects
// included, is a 403 saying why.
func TestSyncerScope(t *testing.T) {
	t.Parallel()
	h, admin := startHub(t, buildHub(t), "")
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")
	admin.apply("root", `apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata:
  name: pc1
spec:
  resources:
  - {group: apps, resource: deployments}
  - {resource: configmaps}
---
apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata:
  name: pc2
`)
	pc1 := workloadv1alpha1.TargetKey("root", "pc1")
	pc2 := workloadv1alpha1.TargetKey("root", "pc2")
	for _, c := range []string{"a", "b"} {
		admin.apply(c, scopeManifest(pc1, pc2))
	}
	syncer := syncerKubeconfig(t, h, "root", "pc1")
	mine := workloadv1alpha1.StateLabel(pc1) + "=" + workloadv1alpha1.StateSync
	theirs := workloadv1alpha1.StateLabel(pc2) + "=" + workloadv1alpha1.StateSync

	// The scope reads the hub's watch cache, which the objects just
	// written reach within moments.
	for _, c := range []string{"a", "b"} {
		syncer.eventually("--context", c, "-n", "ns1", "get", "deployment", "mine")
	}
	allowed := [][]string{
		{"get", "deployment", "mine"},
		{"get", "deployment", "mine", "--subresource", "status"},
		{"get", "configmap", "assigned"},
		// The dependencies of deployment mine.
		{"get", "configmap", "env"},
		{"get", "secret", "mounted"},
		{"get", "deployments", "-l", mine},
		{"get", "configmaps", "-l", mine + ",app=web"},
		{"--context", "all", "get", "deployments", "-A", "-l", mine},
		{"--context", "all", "get", "pods", "-A", "-l", workloadv1alpha1.UpsyncedLabel + "=" + pc1},
		{"patch", "deployment", "mine", "--subresource", "status", "--type", "merge", "-p", `{"status":{"replicas":1}}`},
		{"patch", "deployment", "mine", "--type", "json", "-p", `[{"op":"add","path":"/metadata/finalizers","value":["` + workloadv1alpha1.FinalizerPrefix + pc1 + `"]}]`},
		{"annotate", "deployment", "mine", workloadv1alpha1.StatusAnnotation(pc1) + `={"replicas":1}`},
		{"create", "-f", writeFile(t, upsyncedPod("copy", pc1, "deployments.apps/mine"))},
		{"label", "pod", "copy", "extra=1"},
		{"delete", "pod", "copy"},
		{"--context", "root", "get", "synctarget", "pc1"},
		{"--context", "root", "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge", "-p", `{"status":{"key":"` + pc1 + `"}}`},
		{"auth", "whoami"},
		{"api-resources"},
	}
	denied := []struct {
		args []string
		// why is a word of the 403's message.
		why string
	}{
		{[]string{"get", "deployment", "plain"}, "not assigned"},
		{[]string{"get", "deployment", "theirs"}, "not assigned"},
		{[]string{"get", "deployment", "missing"}, "not assigned"},
		{[]string{"get", "configmap", "other"}, "not assigned"},
		// Referred to only by the other target's Deployment.
		{[]string{"get", "secret", "theirs"}, "not assigned"},
		{[]string{"get", "deployments"}, "without requiring the label"},
		{[]string{"get", "deployments", "-l", theirs}, "without requiring the label"},
		{[]string{"get", "deployments", "-l", workloadv1alpha1.StateLabel(pc1) + "!=x"}, "without requiring the label"},
		{[]string{"--context", "all", "get", "deployments", "-A"}, "without requiring the label"},
		{[]string{"--context", "all", "get", "configmaps", "-A", "-l", theirs}, "without requiring the label"},
		// The target does not accept secrets.
		{[]string{"get", "secrets", "-l", mine}, "does not accept"},
		{[]string{"--context", "all", "get", "pods", "-A", "-l", workloadv1alpha1.UpsyncedLabel + "=" + pc2}, "does not accept"},
		{[]string{"get", "pods"}, "does not accept"},
		{[]string{"label", "deployment", "mine", "extra=1"}, "only its status, its finalizer"},
		{[]string{"set", "image", "deployment/mine", "c=nginx:2"}, "only its status, its finalizer"},
		{[]string{"annotate", "deployment", "mine", workloadv1alpha1.StatusAnnotation(pc2) + "={}"}, "which only that syncer writes"},
		{[]string{"scale", "deployment", "mine", "--replicas", "5"}, "writes only status"},
		{[]string{"delete", "deployment", "mine"}, "writes only their status"},
		{[]string{"patch", "deployment", "theirs", "--subresource", "status", "--type", "merge", "-p", `{"status":{"replicas":1}}`}, "not assigned"},
		{[]string{"patch", "deployment", "plain", "--type", "json", "-p", `[{"op":"add","path":"/metadata/finalizers","value":["` + workloadv1alpha1.FinalizerPrefix + pc1 + `"]}]`}, "not assigned"},
		{[]string{"patch", "configmap", "env", "--type", "merge", "-p", `{"data":{"k":"changed"}}`}, "not assigned"},
		{[]string{"create", "configmap", "new"}, "creates only the pods, nodes and Events"},
		{[]string{"create", "-f", writeFile(t, upsyncedPod("forged", pc2, "deployments.apps/mine"))}, "read-only copy"},
		{[]string{"create", "-f", writeFile(t, upsyncedPod("unlabelled", "", "deployments.apps/mine"))}, "writes only the pods, nodes and Events labelled"},
		// A copy names the object it is a pod of, which must be assigned.
		{[]string{"create", "-f", writeFile(t, upsyncedPod("ownerless", pc1, ""))}, "writes only the pods of objects assigned to it"},
		{[]string{"create", "-f", writeFile(t, upsyncedPod("of-theirs", pc1, "deployments.apps/theirs"))}, "writes only the pods of objects assigned to it"},
		{[]string{"create", "-f", writeFile(t, upsyncedPod("of-plain", pc1, "deployments.apps/plain"))}, "writes only the pods of objects assigned to it"},
		{[]string{"create", "-f", writeFile(t, upsyncedPod("of-unaccepted", pc1, "statefulsets.apps/mine"))}, "writes only the pods of objects assigned to it"},
		{[]string{"delete", "pod", "theirs"}, "not assigned"},
		{[]string{"create", "namespace", "x"}, "creates only the pods, nodes and Events"},
		{[]string{"--context", "root", "get", "synctarget", "pc2"}, "its own SyncTarget"},
		{[]string{"--context", "root", "get", "synctargets"}, "does not accept"},
		{[]string{"--context", "root", "patch", "synctarget", "pc2", "--subresource", "status", "--type", "merge", "-p", `{"status":{"key":"x"}}`}, "its own SyncTarget"},
		{[]string{"--context", "root", "patch", "synctarget", "pc1", "--type", "merge", "-p", `{"metadata":{"labels":{"x":"y"}}}`}, "its own SyncTarget"},
		{[]string{"--context", "root", "get", "clusterroles"}, "does not accept"},
		{[]string{"--context", "all", "delete", "deployments", "-A", "-l", mine}, "only lists and watches"},
	}
	for _, c := range []string{"a", "b"} {
		for _, args := range allowed {
			args = inContext(c, args)
			if out, err := syncer.run(args...); err != nil {
				t.Errorf("kubectl %s as pc1's syncer: %v\n%s", strings.Join(args, " "), err, out)
			}
		}
		for _, d := range denied {
			args := inContext(c, d.args)
			out, err := syncer.run(args...)
			if err == nil || !strings.Contains(err.Error(), "Forbidden") && !strings.Contains(err.Error(), "forbidden") || !strings.Contains(err.Error(), d.why) {
				t.Errorf("kubectl %s as pc1's syncer: %v, want a 403 saying %q\n%s", strings.Join(args, " "), err, d.why, out)
			}
		}
	}
	// What it lists is only what is assigned to it, in every logical
	// cluster.
	got := strings.Fields(syncer.must("--context", "all", "get", "deployments,configmaps", "-A", "-l", mine, "-o", "jsonpath={range .items[*]}{.metadata.annotations.canopy\\.dev/cluster}/{.metadata.name} {end}"))
	slices.Sort(got)
	if want := []string{"root:a/assigned", "root:a/mine", "root:b/assigned", "root:b/mine"}; !slices.Equal(got, want) {
		t.Errorf("pc1's syncer lists across logical clusters %v, want %v", got, want)
	}
	// Its writes were the status and finalizer only.
	if got := admin.must("--context", "a", "-n", "ns1", "get", "deployment", "mine", "-o", "jsonpath={.status.replicas} {.metadata.finalizers} {.spec.replicas} {.metadata.labels.extra}"); got != `1 ["`+workloadv1alpha1.FinalizerPrefix+pc1+`"] 3 ` {
		t.Errorf("deployment mine after the syncer's writes: status.replicas, finalizers, spec.replicas, label extra %q", got)
	}
	// The finalizer it holds lets it read an object no longer assigned to
	// it, clear its status and release it, and no more.
	admin.must("--context", "a", "-n", "ns1", "label", "deployment", "mine", workloadv1alpha1.StateLabel(pc1)+"-")
	syncer.must("--context", "a", "-n", "ns1", "get", "deployment", "mine")
	syncer.must("--context", "a", "-n", "ns1", "patch", "deployment", "mine", "--subresource", "status", "--type", "merge", "-p", `{"status":{"replicas":2}}`)
	syncer.must("--context", "a", "-n", "ns1", "patch", "deployment", "mine", "--type", "json", "-p", `[{"op":"remove","path":"/metadata/finalizers"}]`)
	for _, args := range [][]string{
		{"get", "deployment", "mine"},
		{"patch", "deployment", "mine", "--subresource", "status", "--type", "merge", "-p", `{"status":{"replicas":3}}`},
		{"patch", "deployment", "mine", "--type", "json", "-p", `[{"op":"add","path":"/metadata/finalizers","value":["` + workloadv1alpha1.FinalizerPrefix + pc1 + `"]}]`},
	} {
		args = append([]string{"--context", "a", "-n", "ns1"}, args...)
		// Once the watch cache has the released object.
		deadline := time.Now().Add(10 * time.Second)
		out, err := syncer.run(args...)
		for ; (err == nil || !strings.Contains(err.Error(), "not assigned")) && time.Now().Before(deadline); out, err = syncer.run(args...) {
			time.Sleep(200 * time.Millisecond)
		}
		if err == nil || !strings.Contains(err.Error(), "not assigned") {
			t.Errorf("kubectl %s as pc1's syncer, of an object neither assigned to it nor held: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// inContext is args addressed to the logical cluster of context c,
// unless they name a context of their own.
func inContext(c string, args []string) []string {
	if slices.Contains(args, "--context") {
		return args
	}
	return append([]string{"--context", c, "-n", "ns1"}, args...)
}

// scopeManifest is namespace ns1 with Deployments mine, assigned to the
// target of key mine, theirs, assigned to that of key theirs, and plain,
// assigned to none; the ConfigMap and Secret that mine refers to, one
// that theirs refers to, one referred to by none, a ConfigMap assigned to
// mine, and a pod copied up by theirs.
func scopeManifest(mine, theirs string) string {
	deployment := func(name, secret string, labels ...string) string {
		return fmt.Sprintf(`---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: %s
  labels: {app: web%s}
spec:
  replicas: 3
  selector: {matchLabels: {app: %s}}
  template:
    metadata: {labels: {app: %s}}
    spec:
      containers:
      - name: c
        image: nginx:1.27
        envFrom: [{configMapRef: {name: env}}]
      volumes: [{name: s, secret: {secretName: %s}}]
`, name, strings.Join(labels, ""), name, name, secret)
	}
	label := func(key string) string { return ", " + workloadv1alpha1.StateLabel(key) + ": Sync" }
	return `apiVersion: v1
kind: Namespace
metadata: {name: ns1}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: env, namespace: ns1}
data: {k: v}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: other, namespace: ns1}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: assigned, namespace: ns1, labels: {app: web` + label(mine) + `}}
---
apiVersion: v1
kind: Secret
metadata: {name: mounted, namespace: ns1}
---
apiVersion: v1
kind: Secret
metadata: {name: theirs, namespace: ns1}
` + strings.ReplaceAll(deployment("mine", "mounted", label(mine))+deployment("theirs", "theirs", label(theirs))+deployment("plain", "mounted"), "metadata:\n  name:", "metadata:\n  namespace: ns1\n  name:") +
		"---\n" + upsyncedPod("theirs", theirs, "deployments.apps/theirs")
}

// upsyncedPod is a pod in ns1 labelled as copied up by the syncer of key,
// or not labelled so for an empty key, naming owner as the hub object it
// is a pod of, or none for an empty owner.
func upsyncedPod(name, key, owner string) string {
	label, annotation := "", ""
	if key != "" {
		label = ", " + workloadv1alpha1.UpsyncedLabel + ": " + key
	}
	if owner != "" {
		annotation = ", annotations: {" + workloadv1alpha1.OwnerAnnotation + ": " + owner + "}"
	}
	return fmt.Sprintf(`apiVersion: v1
kind: Pod
metadata: {name: %s, namespace: ns1, labels: {app: web%s}%s}
spec:
  containers: [{name: c, image: nginx:1.27}]
`, name, label, annotation)
}
