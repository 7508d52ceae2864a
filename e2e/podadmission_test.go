package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPodAdmission checks that kube-apiserver's admission plugins for
// pods run in a logical cluster, each on that cluster's own objects: a
// pod comes out with the default ServiceAccount and its token volume,
// the priority of its PriorityClass, the tolerations of not-ready and
// unreachable nodes and its namespace's LimitRange defaults, and is
// refused, as kube-apiserver refuses it, for a PriorityClass or a
// ServiceAccount that does not exist there, or for breaking the Pod
// Security Standard its namespace's label enforces. Each logical cluster
// has the system PriorityClasses.
func TestPodAdmission(t *testing.T) {
	t.Parallel()
	h, admin := startHub(t, buildHub(t), "")
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")
	a := admin.with("a", "default")

	if got := a.must("get", "priorityclasses", "-o", "jsonpath={range .items[*]}{.metadata.name}={.value} {end}"); got != "system-cluster-critical=2000000000 system-node-critical=2000001000 " {
		t.Errorf("logical cluster a has PriorityClasses %q", got)
	}
	a.must("create", "namespace", "shop")
	// The default ServiceAccount comes from the hub's controller, soon.
	a.eventually("get", "serviceaccount", "default", "-n", "shop")
	a.apply("a", `apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: shop}
spec:
  limits: [{type: Container, default: {cpu: 500m}, defaultRequest: {cpu: 100m}}]
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
`)
	a.apply("a", `apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  priorityClassName: high
  containers: [{name: web, image: nginx}]
`)
	for path, want := range map[string]string{
		"{.spec.serviceAccountName}":                           "default",
		"{.spec.priority}":                                     "1000",
		"{.spec.preemptionPolicy}":                             "PreemptLowerPriority",
		"{.spec.containers[0].resources.requests.cpu}":         "100m",
		"{.spec.containers[0].resources.limits.cpu}":           "500m",
		"{.spec.tolerations[*].key}":                           "node.kubernetes.io/not-ready node.kubernetes.io/unreachable",
		"{.spec.containers[0].volumeMounts[0].mountPath}":      "/var/run/secrets/kubernetes.io/serviceaccount",
		"{.metadata.annotations.kubernetes\\.io/limit-ranger}": "LimitRanger plugin set: cpu request for container web; cpu limit for container web",
	} {
		if got := a.must("get", "pod", "web", "-n", "shop", "-o", "jsonpath="+path); got != want {
			t.Errorf("pod web's %s is %q, want %q", path, got, want)
		}
	}
	if got := a.must("get", "pod", "web", "-n", "shop", "-o", "jsonpath={.spec.volumes[0].name}"); !strings.HasPrefix(got, "kube-api-access-") {
		t.Errorf("pod web's first volume is %q, want the ServiceAccount's token volume", got)
	}

	// Logical cluster b has neither the PriorityClass nor the
	// ServiceAccount a has.
	b := admin.with("b", "default")
	b.must("create", "namespace", "shop")
	b.eventually("get", "serviceaccount", "default", "-n", "shop")
	for manifest, want := range map[string]string{
		`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "shop"}, "spec": {"priorityClassName": "high", "containers": [{"name": "c", "image": "nginx"}]}}`:   `pods "p" is forbidden: no PriorityClass with name high was found`,
		`{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "shop"}, "spec": {"serviceAccountName": "robot", "containers": [{"name": "c", "image": "nginx"}]}}`: `pods "p" is forbidden: error looking up service account shop/robot: serviceaccount "robot" not found`,
	} {
		if _, err := b.run("create", "-f", writeFile(t, manifest)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("creating a pod in logical cluster b: %v, want refused with %q", err, want)
		}
	}
	out := b.must("create", "-f", writeFile(t, `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "critical", "namespace": "shop"}, "spec": {"priorityClassName": "system-node-critical", "containers": [{"name": "c", "image": "nginx"}]}}`))
	if !strings.Contains(out, "created") {
		t.Errorf("creating a system-node-critical pod: %q", out)
	}
	if got := b.must("get", "pod", "critical", "-n", "shop", "-o", "jsonpath={.spec.priority} {.spec.containers[0].resources}"); got != "2000001000 {}" {
		t.Errorf("pod critical in b has priority and resources %q, want 2000001000 and none of a's LimitRange", got)
	}

	// Pod Security Admission enforces the level a namespace's label
	// names, in that namespace only.
	privileged := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "root", "namespace": "shop"}, "spec": {"containers": [{"name": "c", "image": "nginx", "securityContext": {"privileged": true}}]}}`
	b.must("label", "namespace", "shop", "pod-security.kubernetes.io/enforce=baseline")
	want := `pods "root" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)`
	if _, err := b.run("create", "-f", writeFile(t, privileged)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("creating a privileged pod in a baseline namespace: %v, want refused with %q", err, want)
	}
	a.must("--context", "a", "create", "-f", writeFile(t, privileged))
}
