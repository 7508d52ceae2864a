package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// quotaObjects are three quotas and the objects they count, in namespace
// quota: compute resources of pods that ask for some, a count of pods
// that ask for none, and counts of objects. Nothing in them makes a
// controller of the physical cluster create more objects: a Deployment
// there would make pods, at the hub only a revision record.
const quotaObjects = `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: quota}
spec:
  scopes: [NotBestEffort]
  hard: {pods: "10", requests.cpu: "4", requests.memory: 4Gi, limits.cpu: "8", limits.memory: 8Gi, cpu: "4", memory: 4Gi}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: besteffort, namespace: quota}
spec:
  scopes: [BestEffort]
  hard: {pods: "5", count/pods: "5"}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: objects, namespace: quota}
spec:
  hard: {pods: "20", count/pods: "20", services: "5", count/services: "5", services.nodeports: "10", services.loadbalancers: "2",
    configmaps: "10", count/configmaps: "10", secrets: "10", count/secrets: "10", resourcequotas: "5", count/resourcequotas: "5",
    count/cronjobs.batch: "3", count/serviceaccounts: "5", count/roles.rbac.authorization.k8s.io: "4", count/deployments.apps: "2",
    requests.ephemeral-storage: 10Gi, requests.example.com/dongle: "3"}
`

// quotaCounted are what the quotas of quotaObjects count.
const quotaCounted = `apiVersion: v1
kind: Pod
metadata: {name: burstable, namespace: quota}
spec:
  containers:
  - name: c
    image: nginx
    resources:
      requests: {cpu: 100m, memory: 64Mi, example.com/dongle: "1"}
      limits: {cpu: 200m, memory: 128Mi, example.com/dongle: "1"}
---
apiVersion: v1
kind: Pod
metadata: {name: guaranteed, namespace: quota}
spec:
  initContainers:
  - name: init
    image: busybox
    resources:
      requests: {cpu: "1", memory: 512Mi}
      limits: {cpu: "1", memory: 512Mi}
  containers:
  - name: c
    image: nginx
    resources:
      requests: {cpu: 250m, memory: 256Mi, ephemeral-storage: 1Gi}
      limits: {cpu: 250m, memory: 256Mi}
---
apiVersion: v1
kind: Pod
metadata: {name: besteffort, namespace: quota}
spec:
  containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: Service
metadata: {name: cluster, namespace: quota}
spec:
  ports: [{name: a, port: 80}, {name: b, port: 81}]
---
apiVersion: v1
kind: Service
metadata: {name: nodeport, namespace: quota}
spec:
  type: NodePort
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: balanced, namespace: quota}
spec:
  type: LoadBalancer
  ports: [{name: a, port: 80}, {name: b, port: 81}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: quota}
---
apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: quota}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: quota}
spec:
  schedule: "0 3 * * *"
  suspend: true
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: quota}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
`

// TestKubeControllersAgainstKube does the same to a logical cluster and
// to the real kube-apiserver and kube-controller-manager of a physical
// cluster, and compares: the status of ResourceQuotas, as they are
// computed and as they change; a status patch of a Namespace, which
// keeps the metadata it carries; the kube-root-ca.crt ConfigMap's
// annotations; and the deletion of a namespace, pods first.
func TestKubeControllersAgainstKube(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "audit.log")
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t), flags: []string{"--audit-log-path", log}}
	h.start(t)
	hubK := h.admin(t)
	hubK.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	hubK.createLogicalCluster("root", "a")
	pc := pcluster.Start(t, "kubectl", pcluster.Options{})
	kube := kubectl{t: t, kubeconfig: filepath.Join(t.TempDir(), "kubeconfig"), home: t.TempDir()}
	config, err := os.ReadFile(pc.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kube.kubeconfig, config, 0o600); err != nil {
		t.Fatal(err)
	}
	kube.must("config", "rename-context", strings.TrimSpace(kube.must("config", "current-context")), "a")
	both := map[string]kubectl{"the hub": hubK, "kube": kube}

	{ // quota status
		for _, k := range both {
			k.must("--context", "a", "create", "namespace", "quota")
			k.apply("a", quotaObjects)
		}
		// Kube's quota admission lets nothing in until the quotas' status
		// is known, and each pod needs the default ServiceAccount.
		for _, quota := range []string{"compute", "besteffort", "objects"} {
			waitFor(t, time.Minute, "kube computing quota "+quota, func() (bool, string) {
				out, _ := kube.run("--context", "a", "-n", "quota", "get", "resourcequota", quota, "-o", "jsonpath={.status.used}")
				return out != "", out
			})
		}
		waitFor(t, time.Minute, "kube's namespace quota having its default ServiceAccount", func() (bool, string) {
			out, err := kube.run("--context", "a", "-n", "quota", "get", "serviceaccount", "default", "-o", "name")
			return err == nil, out
		})
		for _, k := range both {
			k.apply("a", quotaCounted)
		}
		sameQuotaStatus(t, hubK, kube, "once its objects are made", "count/pods", "3")

		for _, k := range both {
			k.must("--context", "a", "-n", "quota", "delete", "pod", "burstable", "--wait=false")
			k.must("--context", "a", "-n", "quota", "delete", "service", "balanced")
			k.must("--context", "a", "-n", "quota", "delete", "secret", "creds")
			k.must("--context", "a", "-n", "quota", "patch", "resourcequota", "objects", "--type=merge", "-p", `{"spec":{"hard":{"count/secrets":null,"secrets":"7"}}}`)
		}
		sameQuotaStatus(t, hubK, kube, "once some objects are deleted and a quota changed", "count/pods", "2")
	}

	{ // namespace status patch
		results := map[string]string{}
		for name, k := range both {
			k.must("--context", "a", "create", "namespace", "patched")
			k.must("--context", "a", "patch", "namespace", "patched", "--subresource=status", "--type=merge", "-p",
				`{"metadata":{"labels":{"team":"blue"},"annotations":{"note":"kept"}},"spec":{"finalizers":[]},"status":{"conditions":[{"type":"Custom","status":"True"}]}}`)
			_, err := k.run("--context", "a", "patch", "namespace", "patched", "--subresource=status", "--type=merge", "-p", `{"status":{"phase":"Terminating"}}`)
			results[name] = k.must("--context", "a", "get", "namespace", "patched", "-o",
				`go-template={{.metadata.labels}} {{.metadata.annotations.note}} {{.spec.finalizers}} {{.status.phase}} {{range .status.conditions}}{{.type}}={{.status}}{{end}}`) +
				fmt.Sprintf("; a Terminating phase: %v", err)
		}
		t.Logf("after status patches of a Namespace, the hub has %s", results["the hub"])
		if results["the hub"] != results["kube"] {
			t.Errorf("a status patch of a Namespace leaves at the hub:\n%s\nand at kube:\n%s", results["the hub"], results["kube"])
		}
		if !strings.Contains(results["kube"], "team:blue") {
			t.Errorf("kube dropped the label a status patch carries: %s", results["kube"])
		}
	}

	{ // kube-root-ca.crt
		annotations := map[string]string{}
		for name, k := range both {
			waitFor(t, 30*time.Second, name+" publishing kube-root-ca.crt in namespace quota", func() (bool, string) {
				out, err := k.run("--context", "a", "-n", "quota", "get", "configmap", "kube-root-ca.crt", "-o", "jsonpath={.metadata.annotations}")
				annotations[name] = out
				return err == nil, out
			})
		}
		var hubAnnotations, kubeAnnotations map[string]string
		for _, a := range []struct {
			json string
			into *map[string]string
		}{{annotations["the hub"], &hubAnnotations}, {annotations["kube"], &kubeAnnotations}} {
			if err := json.Unmarshal([]byte(a.json), a.into); err != nil {
				t.Fatalf("annotations %q: %v", a.json, err)
			}
		}
		delete(hubAnnotations, "canopy.dev/cluster")
		if !reflect.DeepEqual(hubAnnotations, kubeAnnotations) {
			t.Errorf("kube-root-ca.crt is annotated %v at the hub, %v by kube", hubAnnotations, kubeAnnotations)
		}
	}

	{ // ordered namespace deletion
		// A finalizer holds the pod: until it goes, nothing else of the
		// namespace may.
		for name, k := range both {
			k.must("--context", "a", "create", "namespace", "ordered")
			waitFor(t, time.Minute, name+"'s namespace ordered having its default ServiceAccount", func() (bool, string) {
				out, err := k.run("--context", "a", "-n", "ordered", "get", "serviceaccount", "default", "-o", "name")
				return err == nil, out
			})
			k.apply("a", `apiVersion: v1
kind: Pod
metadata: {name: held, namespace: ordered, finalizers: [example.com/hold]}
spec:
  containers: [{name: c, image: nginx}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: ordered}
---
apiVersion: v1
kind: Secret
metadata: {name: creds, namespace: ordered}
`)
			k.must("--context", "a", "delete", "namespace", "ordered", "--wait=false")
			waitFor(t, time.Minute, name+" deleting pod held", func() (bool, string) {
				out := k.must("--context", "a", "-n", "ordered", "get", "pod", "held", "-o", "jsonpath={.metadata.deletionTimestamp}")
				return out != "", "no deletionTimestamp"
			})
		}
		for name, k := range both {
			if got := k.must("--context", "a", "-n", "ordered", "get", "configmap,secret", "-o", "name"); !strings.Contains(got, "configmap/settings") || !strings.Contains(got, "secret/creds") {
				t.Errorf("%s deleted the rest of namespace ordered before its pod was gone; it has:\n%s", name, got)
			}
		}
		for _, k := range both {
			k.must("--context", "a", "-n", "ordered", "patch", "pod", "held", "--type=json", "-p", `[{"op":"remove","path":"/metadata/finalizers"}]`)
			k.must("--context", "a", "wait", "--for=delete", "namespace/ordered", "--timeout=60s")
		}
		// The hub's namespace controller deleted the pod before anything
		// else.
		deleted := func(e auditv1.Event) bool {
			return e.User.Username == "system:canopy:controller:namespace" && e.Verb == "delete" && e.ObjectRef != nil &&
				e.ObjectRef.Namespace == "ordered" && e.ResponseStatus != nil && e.ResponseStatus.Code < 300 && e.Stage == auditv1.StageResponseComplete
		}
		events := readAuditLog(t, log, func(e auditv1.Event) bool { return deleted(e) && e.ObjectRef.Resource == "secrets" })
		var order []string
		for _, e := range events {
			if deleted(e) {
				order = append(order, e.ObjectRef.Resource+"/"+e.ObjectRef.Name)
			}
		}
		if len(order) == 0 || order[0] != "pods/held" || slices.Index(order, "pods/held") != slices.IndexFunc(order, func(s string) bool { return strings.HasPrefix(s, "pods/") }) {
			t.Errorf("the namespace controller deleted, in order: %v; want pods/held first", order)
		}
	}
}

// sameQuotaStatus waits until the hub's quotas of namespace quota have
// the status kube computes for its own, once kube's quota objects has
// used[resource] = value.
func sameQuotaStatus(t *testing.T, hubK, kube kubectl, when string, resource, value string) {
	t.Helper()
	status := func(k kubectl) map[string]any {
		out, err := k.run("--context", "a", "-n", "quota", "get", "resourcequota", "-o", "json")
		if err != nil {
			return map[string]any{"error": err.Error()}
		}
		var list struct {
			Items []struct {
				Metadata struct{ Name string }
				Status   any
			}
		}
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			return map[string]any{"error": err.Error()}
		}
		byName := map[string]any{}
		for _, q := range list.Items {
			byName[q.Metadata.Name] = q.Status
		}
		return byName
	}
	var want map[string]any
	waitFor(t, time.Minute, "kube's quota objects counting "+resource+"="+value+" "+when, func() (bool, string) {
		want = status(kube)
		objects, _ := want["objects"].(map[string]any)
		used, _ := objects["used"].(map[string]any)
		return used[resource] == value, fmt.Sprint(want["objects"])
	})
	waitFor(t, 30*time.Second, "the hub's quotas having kube's status "+when, func() (bool, string) {
		got := status(hubK)
		return reflect.DeepEqual(got, want), fmt.Sprintf("the hub's:\n%v\nkube's:\n%v", got, want)
	})
	t.Logf("the quotas' status %s, at the hub as at kube: %v", when, want)
}
