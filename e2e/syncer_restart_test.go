package e2e

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestSyncerDependenciesDriftRestart checks that the ConfigMaps, Secrets
// and ServiceAccount a synced Deployment uses follow it downstream without
// being assigned, and go when it no longer uses them; that edits made
// downstream are reverted; and that a syncer killed while the hub changes
// converges when started again, the pods it upsynced included, and that
// starting it once more with nothing changed writes nothing on either
// side.
func TestSyncerDependenciesDriftRestart(t *testing.T) {
	t.Parallel()
	admin, pc1, key, syncer := setUpSyncer(t)
	admin.apply("a", dependentManifest(key))
	ns := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	// eventually polls cond until it holds or the test's time is up.
	eventually := func(what string, cond func() bool) {
		t.Helper()
		for !cond() {
			if ctx.Err() != nil {
				t.Fatalf("%s: not within the test's time", what)
			}
			time.Sleep(300 * time.Millisecond)
		}
	}
	exists := func(err error) bool {
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
		return err == nil
	}
	configMap := func(name string) (map[string]string, bool) {
		cm, err := pc1.Client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if !exists(err) {
			return nil, false
		}
		return cm.Data, true
	}

	t.Run("dependencies", func(t *testing.T) {
		eventually("the Deployment and all it uses downstream", func() bool {
			_, d := pc1.Client.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
			_, sa := pc1.Client.CoreV1().ServiceAccounts(ns).Get(ctx, "runner", metav1.GetOptions{})
			_, pull := pc1.Client.CoreV1().Secrets(ns).Get(ctx, "pull", metav1.GetOptions{})
			_, sec := pc1.Client.CoreV1().Secrets(ns).Get(ctx, "web-secret", metav1.GetOptions{})
			_, env := configMap("env-config")
			_, vol := configMap("vol-config")
			return exists(d) && exists(sa) && exists(pull) && exists(sec) && env && vol
		})
		// Dependencies are not assigned, so the syncer holds no finalizer
		// on them.
		if f := admin.must("--context", "a", "get", "configmap", "env-config", "-n", "ns1", "-o", "jsonpath={.metadata.finalizers}"); f != "" {
			t.Errorf("the syncer holds finalizers %s on a ConfigMap only used by a synced Deployment", f)
		}
		// A change of a dependency travels with the next change of the
		// workload, here one that stops using vol-config.
		admin.must("--context", "a", "patch", "configmap", "env-config", "-n", "ns1", "-p", `{"data":{"GREETING":"bonjour"}}`)
		admin.must("--context", "a", "patch", "deploy", "web", "-n", "ns1", "--type", "json", "-p",
			`[{"op":"test","path":"/spec/template/spec/volumes/1/name","value":"config"},{"op":"remove","path":"/spec/template/spec/volumes/1"}]`)
		eventually("vol-config gone and env-config updated downstream", func() bool {
			_, vol := configMap("vol-config")
			env, _ := configMap("env-config")
			return !vol && env["GREETING"] == "bonjour"
		})
		if _, err := admin.run("--context", "a", "get", "configmap", "vol-config", "-n", "ns1"); err != nil {
			t.Errorf("vol-config at the hub after the Deployment stopped using it: %v", err)
		}
		if out, err := admin.runWithin(90*time.Second, "--context", "a", "rollout", "status", "deploy/web", "-n", "ns1", "--timeout=60s"); err != nil {
			t.Fatalf("rollout status at the hub: %v\n%s", err, out)
		}
	})

	t.Run("drift", func(t *testing.T) {
		deployments := pc1.Client.AppsV1().Deployments(ns)
		if _, err := deployments.Patch(ctx, "web", types.MergePatchType, []byte(`{"metadata":{"labels":{"tier":"edited"}},"spec":{"replicas":1}}`), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := pc1.Client.CoreV1().ConfigMaps(ns).Patch(ctx, "env-config", types.MergePatchType, []byte(`{"data":{"GREETING":"edited"}}`), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually("the downstream edits reverted", func() bool {
			d, err := deployments.Get(ctx, "web", metav1.GetOptions{})
			env, _ := configMap("env-config")
			return exists(err) && *d.Spec.Replicas == 3 && d.Labels["tier"] == "web" && env["GREETING"] == "bonjour"
		})
	})

	t.Run("restart", func(t *testing.T) {
		syncer.kill()
		admin.must("--context", "a", "set", "image", "deploy/web", "web=nginx:1.28", "-n", "ns1")
		admin.must("--context", "a", "label", "configmap", "extra", "-n", "ns1", workloadv1alpha1.StateLabel(key)+"-")
		syncer.start()
		eventually("the syncer converged after a kill", func() bool {
			d, err := pc1.Client.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
			_, extra := configMap("extra")
			finalizers := admin.must("--context", "a", "get", "configmap", "extra", "-n", "ns1", "-o", "jsonpath={.metadata.finalizers}")
			return exists(err) && d.Spec.Template.Spec.Containers[0].Image == "nginx:1.28" && !extra && finalizers == ""
		})
		if out, err := admin.runWithin(90*time.Second, "--context", "a", "rollout", "status", "deploy/web", "-n", "ns1", "--timeout=60s"); err != nil {
			t.Fatalf("rollout status at the hub after the restart: %v\n%s", err, out)
		}

		// Once everything has settled, a restart must write nothing. The
		// SyncTarget's status, the heartbeat, is not looked at: it is
		// written every few seconds by design.
		// The pods replaced while the syncer was away are gone at the hub
		// too: the hub lists the pods running downstream.
		down := kubectl{t: t, kubeconfig: pc1.Kubeconfig, home: admin.home}
		podNames := `jsonpath={range .items[*]}{.metadata.name} {.spec.containers[0].image}{"\n"}{end}`
		eventually("the hub's pods those downstream", func() bool {
			hub := admin.must("--context", "a", "get", "pods", "-n", "ns1", "-o", podNames)
			return hub == down.must("get", "pods", "-n", ns, "-o", podNames) && strings.Count(hub, "nginx:1.28") == 3
		})
		var before map[string]string
		eventually("both sides settled", func() bool {
			first := resourceVersions(admin, pc1, ns)
			time.Sleep(5 * time.Second)
			before = resourceVersions(admin, pc1, ns)
			return maps.Equal(first, before)
		})
		for _, k := range []string{"hub Deployment/web", "hub ConfigMap/env-config", "hub Secret/web-secret", "hub ServiceAccount/runner",
			"downstream Deployment/web", "downstream ConfigMap/env-config", "downstream Secret/pull", "downstream Secret/web-secret",
			"downstream ServiceAccount/runner", "downstream Namespace/" + ns} {
			if before[k] == "" {
				t.Fatalf("no resourceVersion of %s among %v", k, before)
			}
		}
		if n := len(slices.DeleteFunc(slices.Collect(maps.Keys(before)), func(k string) bool { return !strings.HasPrefix(k, "hub Pod/") })); n != 3 {
			t.Fatalf("%d upsynced pods at the hub among %v, want 3", n, before)
		}
		if n := len(slices.DeleteFunc(slices.Collect(maps.Keys(before)), func(k string) bool { return !strings.HasPrefix(k, "hub Event/") })); n == 0 {
			t.Fatalf("no upsynced Events at the hub among %v", before)
		}
		syncer.kill()
		syncer.start()
		syncer.waitReady(time.Minute)
		time.Sleep(10 * time.Second)
		after := resourceVersions(admin, pc1, ns)
		for _, k := range slices.Sorted(maps.Keys(before)) {
			if after[k] != before[k] {
				t.Errorf("%s: resourceVersion %s before the restart, %s after", k, before[k], after[k])
			}
		}
		for k := range after {
			if _, ok := before[k]; !ok {
				t.Errorf("%s appeared with the restart", k)
			}
		}
	})
}

// resourceVersions are the resourceVersions of the objects in ns1 of
// root:a at the hub, the upsynced pods and Events included, and of the syncer's objects and namespace ns
// downstream, by side, kind and name.
func resourceVersions(admin kubectl, pc1 *pcluster.Cluster, ns string) map[string]string {
	admin.t.Helper()
	rvs := map[string]string{}
	collect := func(side string, k kubectl, args ...string) {
		out := k.must(append(args, "-o", `jsonpath={range .items[*]}{.kind}/{.metadata.name}={.metadata.resourceVersion}{"\n"}{end}`)...)
		for _, line := range strings.Fields(out) {
			kind, rv, _ := strings.Cut(line, "=")
			rvs[side+" "+kind] = rv
		}
	}
	kinds := "deployments,configmaps,secrets,serviceaccounts"
	// At the hub, the pods and Events are the syncer's copies; downstream,
	// kwok's and the physical cluster's.
	collect("hub", admin, "--context", "a", "get", kinds+",pods,events", "-n", "ns1")
	down := kubectl{t: admin.t, kubeconfig: pc1.Kubeconfig, home: admin.home}
	ours := workloadv1alpha1.TargetKeyLabel + "=" + workloadv1alpha1.TargetKey("root", "pc1")
	collect("downstream", down, "get", kinds, "-n", ns, "-l", ours)
	collect("downstream", down, "get", "namespaces", "--field-selector", "metadata.name="+ns)
	return rvs
}

// dependentManifest is namespace ns1 with a Deployment of nginx:1.27 assigned
// to the target of key, what it uses, none of it assigned but the Secret
// web-secret, and ConfigMap extra, assigned and used by nothing.
func dependentManifest(key string) string {
	label := workloadv1alpha1.StateLabel(key) + ": Sync"
	return fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata:
  name: ns1
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: runner
  namespace: ns1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: env-config
  namespace: ns1
data:
  GREETING: hello
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: vol-config
  namespace: ns1
data:
  file: content
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
  namespace: ns1
  labels: {%[1]s}
data:
  unused: "true"
---
apiVersion: v1
kind: Secret
metadata:
  name: pull
  namespace: ns1
type: kubernetes.io/dockerconfigjson
stringData:
  .dockerconfigjson: '{"auths":{}}'
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
  labels: {%[1]s, tier: web}
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      serviceAccountName: runner
      imagePullSecrets: [{name: pull}]
      containers:
      - name: web
        image: nginx:1.27
        envFrom:
        - configMapRef: {name: env-config}
        volumeMounts:
        - {name: secret, mountPath: /etc/secret}
      volumes:
      - name: secret
        secret: {secretName: web-secret}
      - name: config
        configMap: {name: vol-config}
`, label)
}
