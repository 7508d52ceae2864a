package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// validationServer is a server answering creates and patches: a logical
// cluster of the hub, or a physical cluster's kube-apiserver, the oracle.
type validationServer struct {
	name   string
	client dynamic.Interface
}

// validationKind is a kind the test sends objects of: a valid one, which
// every server must accept, and changes to it, each a JSON merge patch.
type validationKind struct {
	resource schema.GroupVersionResource
	valid    string
	// invalid changes are refused on create by kube-apiserver.
	invalid map[string]string
	// updates are changes refused on update of the valid object.
	updates map[string]string
}

// validationPod is a pod that needs nothing of the cluster but the
// default namespace: no service account token, no node.
const validationPod = `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "uv", "namespace": "default"},
 "spec": {"automountServiceAccountToken": false, "schedulerName": "none",
  "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "uv", "effect": "NoSchedule"}],
  "activeDeadlineSeconds": 600,
  "containers": [{"name": "app", "image": "busybox", "ports": [{"name": "http", "containerPort": 80}]}]}}`

// validationTemplate is the selector and pod template of the workloads,
// whose pods nothing runs: they have no replicas, or no node to run on.
const validationTemplate = `"selector": {"matchLabels": {"app": "uv"}}, "template": {"metadata": {"labels": {"app": "uv"}},
	"spec": {"containers": [{"name": "app", "image": "busybox"}]}}`

// validationKinds are the cases: what the hub's hand-written validation
// let through before it ran upstream's (affinity, security contexts,
// tolerations, topology spread, volume sources, probe ports, resource
// names, ephemeral containers), and answers that changed with it.
var validationKinds = []validationKind{
	{
		resource: schema.GroupVersionResource{Version: "v1", Resource: "pods"},
		valid:    validationPod,
		invalid: map[string]string{
			"node affinity operator": `{"spec": {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
				{"matchExpressions": [{"key": "zone", "operator": "Within", "values": ["a"]}]}]}}}}}`,
			"pod anti-affinity without topology key": `{"spec": {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
				{"labelSelector": {"matchLabels": {"app": "uv"}}, "topologyKey": ""}]}}}}`,
			"negative runAsUser": `{"spec": {"securityContext": {"runAsUser": -1}}}`,
			"sysctl name":        `{"spec": {"securityContext": {"sysctls": [{"name": "not a sysctl", "value": "1"}]}}}`,
			"privileged, no escalation": `{"spec": {"containers": [{"name": "app", "image": "busybox",
				"securityContext": {"privileged": true, "allowPrivilegeEscalation": false}}]}}`,
			"capability and seccomp": `{"spec": {"containers": [{"name": "app", "image": "busybox",
				"securityContext": {"seccompProfile": {"type": "Localhost"}, "procMount": "Sometimes"}}]}}`,
			"toleration Exists with a value": `{"spec": {"tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]}}`,
			"toleration effect":              `{"spec": {"tolerations": [{"key": "k", "operator": "Equal", "value": "v", "effect": "Sometimes"}]}}`,
			"topology spread": `{"spec": {"topologySpreadConstraints": [{"maxSkew": 0, "topologyKey": "zone",
				"whenUnsatisfiable": "Maybe", "labelSelector": {"matchLabels": {"app": "uv"}}}]}}`,
			"configMap item path": `{"spec": {"volumes": [{"name": "c", "configMap": {"name": "cm", "items": [{"key": "k", "path": "../escape"}]}}]}}`,
			"hostPath and secret mode": `{"spec": {"volumes": [{"name": "h", "hostPath": {"path": ""}},
				{"name": "s", "secret": {"secretName": "s", "defaultMode": 4096}}]}}`,
			"two volume sources": `{"spec": {"volumes": [{"name": "v", "emptyDir": {}, "configMap": {"name": "cm"}}]}}`,
			"probe ports": `{"spec": {"containers": [{"name": "app", "image": "busybox",
				"livenessProbe": {"httpGet": {"port": 0}}, "readinessProbe": {"tcpSocket": {"port": "not_a_name"}},
				"startupProbe": {"grpc": {"port": 70000}}}]}}`,
			"resource name":        `{"spec": {"containers": [{"name": "app", "image": "busybox", "resources": {"requests": {"foo": "1"}}}]}}`,
			"ephemeral containers": `{"spec": {"ephemeralContainers": [{"name": "debug", "image": "busybox"}]}}`,
			"hostname":             `{"spec": {"hostname": "Not_A_Host"}}`,
			"dns policy None":      `{"spec": {"dnsPolicy": "None"}}`,
			"image with a space":   `{"spec": {"containers": [{"name": "app", "image": " busybox"}]}}`,
		},
		updates: map[string]string{
			"toleration removed": `{"spec": {"tolerations": null}}`,
			"longer deadline":    `{"spec": {"activeDeadlineSeconds": 6000}}`,
			"container ports":    `{"spec": {"containers": [{"name": "app", "image": "busybox", "ports": [{"name": "http", "containerPort": 81}]}]}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Version: "v1", Resource: "services"},
		valid: `{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "uv", "namespace": "default"},
			"spec": {"selector": {"app": "uv"}, "ports": [{"name": "http", "port": 80}]}}`,
		invalid: map[string]string{
			"port 0":                 `{"spec": {"ports": [{"port": 0}]}}`,
			"node port of ClusterIP": `{"spec": {"ports": [{"name": "http", "port": 80, "nodePort": 30080}]}}`,
			"external name":          `{"spec": {"type": "ExternalName", "clusterIP": null, "externalName": "not a name"}}`,
			"affinity timeout":       `{"spec": {"sessionAffinity": "ClientIP", "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 0}}}}`,
		},
		updates: map[string]string{
			"cluster IP changed": `{"spec": {"clusterIP": "10.96.200.11", "clusterIPs": ["10.96.200.11"]}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
		valid:    `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "uv", "namespace": "default"}, "immutable": true, "data": {"a": "b"}}`,
		invalid: map[string]string{
			"key": `{"data": {"not a key": "b"}}`,
		},
		updates: map[string]string{
			"immutable data": `{"data": {"a": "c"}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Version: "v1", Resource: "secrets"},
		valid:    `{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "uv", "namespace": "default"}, "type": "kubernetes.io/tls", "stringData": {"tls.crt": "c", "tls.key": "k"}}`,
		invalid: map[string]string{
			"tls without key": `{"stringData": {"tls.key": null}}`,
			"dockercfg":       `{"type": "kubernetes.io/dockercfg", "stringData": {".dockercfg": "not json"}}`,
		},
		updates: map[string]string{
			"type": `{"type": "Opaque"}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Version: "v1", Resource: "limitranges"},
		valid: `{"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "uv", "namespace": "default"},
			"spec": {"limits": [{"type": "Container", "max": {"cpu": "2"}, "min": {"cpu": "100m"}}]}}`,
		invalid: map[string]string{
			"min over max":  `{"spec": {"limits": [{"type": "Container", "max": {"cpu": "2"}, "min": {"cpu": "3"}}]}}`,
			"resource name": `{"spec": {"limits": [{"type": "Container", "max": {"gpu": "1"}}]}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Version: "v1", Resource: "resourcequotas"},
		valid:    `{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "uv", "namespace": "default"}, "spec": {"hard": {"pods": "10"}}}`,
		invalid: map[string]string{
			"scope":    `{"spec": {"scopes": ["Cheap"]}}`,
			"resource": `{"spec": {"hard": {"podz": "1"}}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Version: "v1", Resource: "events"},
		valid: `{"apiVersion": "v1", "kind": "Event", "metadata": {"name": "uv", "namespace": "default"}, "reason": "Checked",
			"involvedObject": {"kind": "Pod", "name": "uv", "namespace": "default"}}`,
		invalid: map[string]string{
			"elsewhere":            `{"involvedObject": {"namespace": "other"}}`,
			"new without reporter": `{"eventTime": "2026-01-01T00:00:00.000000Z", "action": "Check", "type": "Normal"}`,
		},
	},
	// The kinds of the other groups, wired to upstream's strategies
	// after core: what their hand-written validation let through, or
	// answered otherwise.
	{
		resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
		valid:    `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "uv", "namespace": "default"}, "spec": {"paused": true, "replicas": 0, ` + validationTemplate + `}}`,
		invalid: map[string]string{
			"template toleration effect": `{"spec": {"template": {"spec": {"tolerations": [{"key": "k", "operator": "Equal", "value": "v", "effect": "Sometimes"}]}}}}`,
			"template anti-affinity without topology key": `{"spec": {"template": {"spec": {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
				{"labelSelector": {"matchLabels": {"app": "uv"}}, "topologyKey": ""}]}}}}}}`,
			"progress deadline within minReadySeconds": `{"spec": {"minReadySeconds": 10, "progressDeadlineSeconds": 5}}`,
		},
		updates: map[string]string{
			"selector": `{"spec": {"selector": {"matchLabels": {"app": "uv", "tier": "x"}}, "template": {"metadata": {"labels": {"app": "uv", "tier": "x"}}}}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"},
		valid:    `{"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "uv", "namespace": "default"}, "spec": {"replicas": 0, ` + validationTemplate + `}}`,
		invalid: map[string]string{
			"template runAsUser": `{"spec": {"template": {"spec": {"securityContext": {"runAsUser": -1}}}}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"},
		valid:    `{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "uv", "namespace": "default"}, "spec": {"replicas": 0, "serviceName": "uv", ` + validationTemplate + `}}`,
		invalid: map[string]string{
			"claim template without storage": `{"spec": {"volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"]}}]}}`,
		},
		updates: map[string]string{
			"service name": `{"spec": {"serviceName": "other"}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "daemonsets"},
		valid:    `{"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "uv", "namespace": "default"}, "spec": {` + validationTemplate + `}}`,
		invalid: map[string]string{
			"template ephemeral containers": `{"spec": {"template": {"spec": {"ephemeralContainers": [{"name": "debug", "image": "busybox"}]}}}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "controllerrevisions"},
		valid:    `{"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": {"name": "uv", "namespace": "default"}, "revision": 1, "data": {"a": 1}}`,
		invalid: map[string]string{
			"negative revision": `{"revision": -1}`,
		},
		updates: map[string]string{
			"data": `{"data": {"a": 2}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"},
		valid: `{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "uv", "namespace": "default"}, "spec": {"suspend": true,
			"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "app", "image": "busybox"}]}}}}`,
		invalid: map[string]string{
			"backoff limit per index, not indexed": `{"spec": {"backoffLimitPerIndex": 1}}`,
			"pod failure policy action":            `{"spec": {"podFailurePolicy": {"rules": [{"action": "Explode", "onExitCodes": {"operator": "In", "values": [1]}}]}}}`,
		},
		updates: map[string]string{
			"completion mode": `{"spec": {"completionMode": "Indexed", "completions": 1}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "cronjobs"},
		valid: `{"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "uv", "namespace": "default"}, "spec": {"schedule": "0 * * * *", "suspend": true,
			"jobTemplate": {"spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "app", "image": "busybox"}]}}}}}}`,
		invalid: map[string]string{
			"schedule out of range":   `{"spec": {"schedule": "0 25 * * *"}}`,
			"job template toleration": `{"spec": {"jobTemplate": {"spec": {"template": {"spec": {"tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]}}}}}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies"},
		valid: `{"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {"name": "uv", "namespace": "default"},
			"spec": {"podSelector": {}, "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8"}}]}]}}`,
		invalid: map[string]string{
			"CIDR with host bits":     `{"spec": {"ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.1/8"}}]}]}}`,
			"except outside its CIDR": `{"spec": {"ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["11.0.0.0/16"]}}]}]}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "ingresses"},
		valid: `{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "uv", "namespace": "default"},
			"spec": {"defaultBackend": {"service": {"name": "uv", "port": {"number": 80}}}}}`,
		invalid: map[string]string{
			"TLS host with an inner wildcard": `{"spec": {"tls": [{"hosts": ["a.*.example.com"]}]}}`,
			"backend port name":               `{"spec": {"defaultBackend": {"service": {"name": "uv", "port": {"name": "Not_A_Port"}}}}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"},
		valid:    `{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "uv", "namespace": "default"}, "spec": {"minAvailable": 1}}`,
		invalid: map[string]string{
			"over 100%":       `{"spec": {"minAvailable": null, "maxUnavailable": "150%"}}`,
			"both":            `{"spec": {"maxUnavailable": 1}}`,
			"eviction policy": `{"spec": {"unhealthyPodEvictionPolicy": "Never"}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "autoscaling", Version: "v2", Resource: "horizontalpodautoscalers"},
		valid: `{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "uv", "namespace": "default"},
			"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "uv"}, "maxReplicas": 3}}`,
		invalid: map[string]string{
			"utilization without a value":   `{"spec": {"metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization"}}}]}}`,
			"policy period over 30 minutes": `{"spec": {"behavior": {"scaleUp": {"policies": [{"type": "Pods", "value": 1, "periodSeconds": 3600}]}}}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"},
		valid:    `{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "uv", "namespace": "default"}, "spec": {"holderIdentity": "a", "leaseDurationSeconds": 10}}`,
		invalid: map[string]string{
			"duration 0":           `{"spec": {"leaseDurationSeconds": 0}}`,
			"negative transitions": `{"spec": {"leaseTransitions": -1}}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices"},
		valid: `{"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": {"name": "uv", "namespace": "default"},
			"addressType": "IPv4", "endpoints": [{"addresses": ["10.0.0.1"]}], "ports": [{"name": "http", "port": 80}]}`,
		invalid: map[string]string{
			"address with leading zeros": `{"endpoints": [{"addresses": ["010.0.0.1"]}]}`,
			"IPv6 address":               `{"endpoints": [{"addresses": ["fd00::1"]}]}`,
		},
		updates: map[string]string{
			"address type": `{"addressType": "IPv6", "endpoints": [{"addresses": ["fd00::1"]}]}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"},
		valid: `{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "uv", "namespace": "default"},
			"rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]}`,
		invalid: map[string]string{
			"non-resource URL": `{"rules": [{"nonResourceURLs": ["/healthz"], "verbs": ["get"]}]}`,
			"no verbs":         `{"rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": []}]}`,
		},
	},
	{
		resource: schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
		valid: `{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "uv", "namespace": "default"},
			"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "uv"}, "subjects": [{"kind": "User", "name": "alice"}]}`,
		invalid: map[string]string{
			"subject kind": `{"subjects": [{"kind": "Robot", "name": "x"}]}`,
			"role kind":    `{"roleRef": {"kind": "Pod"}}`,
		},
		updates: map[string]string{
			"role": `{"roleRef": {"name": "other"}}`,
		},
	},
}

// TestUpstreamValidation sends the same objects to a logical cluster and
// to a physical cluster's kube-apiserver, and compares their answers: a
// valid object of each core kind is accepted by both, and each invalid
// change, on create and on update, is refused by both with the same code,
// reason, message and causes (field paths, types and messages), since the
// hub now validates with upstream's own code.
func TestUpstreamValidation(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	pc := pcluster.Start(t, "uv", pcluster.Options{})
	_, admin, _ := startHubWith(t, "a")
	servers := []validationServer{
		{"kube-apiserver", dynamic.NewForConfigOrDie(pc.Config)},
		{"the hub", dynamic.NewForConfigOrDie(admin.restConfig("a"))},
	}
	ctx := t.Context()
	compared := 0
	for _, kind := range validationKinds {
		for _, s := range servers {
			// kube-apiserver takes pods only once its controllers made
			// the namespace's default service account.
			waitFor(t, 60*time.Second, fmt.Sprintf("%s to create a valid %s", s.name, kind.resource.Resource), func() (bool, string) {
				_, err := s.client.Resource(kind.resource).Namespace("default").Create(ctx, object(t, kind.valid, "{}"), metav1.CreateOptions{})
				return err == nil, fmt.Sprint(err)
			})
		}
		for name, change := range kind.invalid {
			compared++
			compareAnswers(t, kind.resource.Resource+" created with "+name, servers, func(c dynamic.ResourceInterface) error {
				obj := object(t, kind.valid, change)
				obj.SetName("uv-invalid")
				_, err := c.Create(ctx, obj, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
				return err
			}, kind.resource)
		}
		for name, change := range kind.updates {
			compared++
			compareAnswers(t, kind.resource.Resource+" updated with "+name, servers, func(c dynamic.ResourceInterface) error {
				_, err := c.Patch(ctx, "uv", types.MergePatchType, []byte(change), metav1.PatchOptions{DryRun: []string{metav1.DryRunAll}})
				return err
			}, kind.resource)
		}
	}
	t.Logf("compared %d refusals of each server", compared)
}

// object is the object of JSON valid after the merge patch change.
func object(t *testing.T, valid, change string) *unstructured.Unstructured {
	t.Helper()
	patched, err := jsonpatch.MergePatch([]byte(valid), []byte(change))
	if err != nil {
		t.Fatalf("patching %s with %s: %v", valid, change, err)
	}
	obj := &unstructured.Unstructured{}
	if err := json.Unmarshal(patched, &obj.Object); err != nil {
		t.Fatal(err)
	}
	return obj
}

// compareAnswers sends request to every server and checks that
// kube-apiserver, the first, refuses it, and that every other refuses it
// with the same Status.
func compareAnswers(t *testing.T, what string, servers []validationServer, request func(dynamic.ResourceInterface) error, gvr schema.GroupVersionResource) {
	t.Helper()
	var want *metav1.Status
	for _, s := range servers {
		err := request(s.client.Resource(gvr).Namespace("default"))
		var status apierrors.APIStatus
		if !errors.As(err, &status) {
			t.Errorf("%s: %s answered %v; want a refusal", what, s.name, err)
			return
		}
		got := status.Status()
		if want == nil {
			want = &got
			continue
		}
		if got.Code != want.Code || got.Reason != want.Reason || got.Message != want.Message || !reflect.DeepEqual(got.Details, want.Details) {
			t.Errorf("%s: %s answered\n%d %s %q %+v\nkube-apiserver answered\n%d %s %q %+v",
				what, s.name, got.Code, got.Reason, got.Message, got.Details, want.Code, want.Reason, want.Message, want.Details)
		}
	}
}
