package e2e

import (
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"
)

// maxReplicas is a ValidatingAdmissionPolicy and its binding that refuse
// Deployments of more than 5 replicas, saying how many were asked for.
const maxReplicas = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-replicas
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 5"
    messageExpression: "'replicas is ' + string(object.spec.replicas) + ', at most 5 are allowed'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-replicas
spec:
  policyName: max-replicas
  validationActions: ["Deny"]
`

// replicaLimit refuses Deployments of more replicas than the ConfigMap
// replica-limit of their namespace allows, and all of them while there
// is none.
const replicaLimit = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit
spec:
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= int(params.data.max)"
    messageExpression: "'replicas is ' + string(object.spec.replicas) + ', at most ' + params.data.max + ' are allowed'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit
spec:
  policyName: replica-limit
  paramRef:
    name: replica-limit
    parameterNotFoundAction: Deny
  validationActions: ["Deny"]
`

// labelConfigMaps is a MutatingAdmissionPolicy and its binding that label
// every ConfigMap created with its owner.
const labelConfigMaps = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: owner-label
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["configmaps"]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: "Object{metadata: Object.metadata{labels: {'owner': 'team-a'}}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: owner-label
spec:
  policyName: owner-label
`

// noLoadBalancers is a platform policy: no Service of type LoadBalancer,
// bound for the logical cluster it is in and all below it.
const noLoadBalancers = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: no-load-balancers
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["services"]
  validations:
  - expression: "object.spec.type != 'LoadBalancer'"
    message: "Services of type LoadBalancer are not allowed on this platform"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-load-balancers
  labels:
    admission.canopy.dev/inherit: descendants
spec:
  policyName: no-load-balancers
  validationActions: ["Deny"]
`

// TestAdmissionPolicies checks, with the real kubectl, that a
// ValidatingAdmissionPolicy applies in its own logical cluster only, with
// its message; that one a platform admin binds for descendants on
// root:org applies in root:org:team too, where its cluster-admin can
// neither remove nor escape it; and that the API refuses expressions that
// do not compile, naming the field.
func TestAdmissionPolicies(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, testAdmissionPolicies)
}

func testAdmissionPolicies(t *testing.T, h *hub, admin kubectl) {
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	for _, name := range []string{"a", "b", "org"} {
		admin.createLogicalCluster("root", name)
	}

	// A policy in root:a refuses a Deployment of 6 replicas there, and
	// nowhere else.
	admin.apply("a", maxReplicas)
	if got := admin.must("--context", "a", "get", "validatingadmissionpolicybindings"); !strings.Contains(got, "max-replicas   max-replicas") {
		t.Errorf("kubectl get validatingadmissionpolicybindings:\n%s", got)
	}
	const tooMany = `ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' denied request: replicas is 6, at most 5 are allowed`
	admin.refusedEventually(tooMany, "--context", "a", "create", "deployment", "web", "--image", "nginx", "--replicas", "6")
	// As kube-apiserver, a 422 Status whose message quotes the policy.
	status, code := sendStatus(t, admin.httpClient("a"), http.MethodPost, "https://127.0.0.1:"+strconv.Itoa(h.port)+"/clusters/root:a/apis/apps/v1/namespaces/default/deployments",
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":6,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}}`)
	if code != http.StatusUnprocessableEntity || status.Reason != metav1.StatusReasonInvalid || status.Message != `deployments.apps "web" is forbidden: `+tooMany {
		t.Errorf("a Deployment of 6 replicas in root:a: %d %s %q", code, status.Reason, status.Message)
	}
	admin.must("--context", "a", "create", "deployment", "small", "--image", "nginx", "--replicas", "3")
	if _, err := admin.run("--context", "a", "patch", "deployment", "small", "-p", `{"spec":{"replicas":7}}`); err == nil || !strings.Contains(err.Error(), "replicas is 7") {
		t.Errorf("updating a deployment past 5 replicas in root:a: %v", err)
	}
	admin.must("--context", "b", "create", "deployment", "web", "--image", "nginx", "--replicas", "6")
	if got := admin.must("--context", "b", "explain", "validatingadmissionpolicy.spec.validations.messageExpression"); !strings.Contains(got, "FIELD: messageExpression <string>") {
		t.Errorf("kubectl explain validatingadmissionpolicy.spec.validations.messageExpression:\n%s", got)
	}
	if got := admin.must("--context", "b", "get", "validatingadmissionpolicies", "-o", "name"); got != "" {
		t.Errorf("root:b sees policies %q", got)
	}

	// Expressions are compiled before they are stored.
	bad := strings.Replace(maxReplicas, `"object.spec.replicas <= 5"`, `"object.spec.replicas <="`, 1)
	bad = strings.Replace(bad, "name: max-replicas\nspec:\n  matchConstraints", "name: broken\nspec:\n  matchConstraints", 1)
	if _, err := admin.run("--context", "a", "create", "-f", writeFile(t, bad)); err == nil ||
		!strings.Contains(err.Error(), `ValidatingAdmissionPolicy.admissionregistration.k8s.io "broken" is invalid: spec.validations[0].expression: Invalid value: "object.spec.replicas <=": compilation failed`) {
		t.Errorf("a policy whose expression does not compile: %v", err)
	}

	// Deleted, the policy no longer applies.
	admin.must("--context", "a", "delete", "validatingadmissionpolicy", "max-replicas")
	admin.eventually("--context", "a", "create", "deployment", "web", "--image", "nginx", "--replicas", "6")

	// A MutatingAdmissionPolicy in root:a labels the ConfigMaps created
	// there, and only there.
	admin.apply("a", labelConfigMaps)
	deadline := time.Now().Add(10 * time.Second)
	for {
		out := admin.must("--context", "a", "create", "configmap", "probe", "--dry-run=server", "-o", "jsonpath={.metadata.labels.owner}")
		if out == "team-a" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a ConfigMap created in root:a 10s after its MutatingAdmissionPolicy has owner label %q", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	admin.must("--context", "a", "create", "configmap", "settings", "--from-literal", "k=v")
	admin.must("--context", "b", "create", "configmap", "settings", "--from-literal", "k=v")
	for context, want := range map[string]string{"a": "team-a", "b": ""} {
		if got := admin.must("--context", context, "get", "configmap", "settings", "-o", "jsonpath={.metadata.labels.owner}"); got != want {
			t.Errorf("ConfigMap settings in %s has owner %q, want %q", context, got, want)
		}
	}

	// A policy may read its limit from params, a ConfigMap of its logical
	// cluster, as they are when each request comes.
	admin.apply("a", replicaLimit)
	admin.refusedEventually("ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
		"--context", "a", "create", "deployment", "web2", "--image", "nginx", "--replicas", "5")
	admin.must("--context", "a", "create", "configmap", "replica-limit", "--from-literal", "max=4")
	admin.refusedEventually("denied request: replicas is 5, at most 4 are allowed", "--context", "a", "create", "deployment", "web2", "--image", "nginx", "--replicas", "5")
	admin.must("--context", "a", "patch", "configmap", "replica-limit", "-p", `{"data":{"max":"8"}}`)
	admin.eventually("--context", "a", "create", "deployment", "web2", "--image", "nginx", "--replicas", "5")

	// A platform admin sets a policy on root:org for it and every logical
	// cluster below; dave is cluster-admin of root:org:team only.
	admin.addContext(h, pki, "org", "root:org")
	admin.addContext(h, pki, "team", "root:org:team")
	admin.apply("org", "apiVersion: tenancy.canopy.dev/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: team\nspec:\n  admins:\n  - kind: User\n    name: dave\n")
	admin.must("--context", "org", "wait", "--for=jsonpath={.status.phase}=Ready", "logicalcluster/team", "--timeout=15s")
	dave := userKubeconfig(t, pki, "dave")
	dave.addContextAs(h, pki, "dave", "org", "root:org")
	dave.addContextAs(h, pki, "dave", "team", "root:org:team")
	dave.eventually("--context", "team", "auth", "can-i", "create", "services")
	admin.apply("org", noLoadBalancers)

	const denied = `ValidatingAdmissionPolicy 'no-load-balancers' with binding 'no-load-balancers' denied request: Services of type LoadBalancer are not allowed on this platform`
	dave.refusedEventually(denied, "--context", "team", "create", "service", "loadbalancer", "lb", "--tcp", "80")
	for _, context := range []string{"org", "team"} {
		if _, err := admin.run("--context", context, "create", "service", "loadbalancer", "lb", "--tcp", "80"); err == nil || !strings.Contains(err.Error(), denied) {
			t.Errorf("a LoadBalancer Service by system:masters in %s: %v", context, err)
		}
	}
	dave.must("--context", "team", "create", "service", "clusterip", "web", "--tcp", "80")
	admin.must("--context", "b", "create", "service", "loadbalancer", "lb", "--tcp", "80")

	// Dave can neither remove nor change it: it lives in root:org.
	for _, args := range [][]string{
		{"delete", "validatingadmissionpolicy", "no-load-balancers"},
		{"delete", "validatingadmissionpolicybinding", "no-load-balancers"},
		{"patch", "validatingadmissionpolicybinding", "no-load-balancers", "--type", "merge", "-p", `{"spec":{"validationActions":["Audit"]}}`},
		{"label", "validatingadmissionpolicybinding", "no-load-balancers", "admission.canopy.dev/inherit-"},
	} {
		if _, err := dave.run(append([]string{"--context", "org"}, args...)...); err == nil || !strings.Contains(err.Error(), "(Forbidden)") {
			t.Errorf("dave: kubectl %s in root:org: %v", strings.Join(args, " "), err)
		}
	}
	if _, err := dave.run("--context", "team", "delete", "validatingadmissionpolicy", "no-load-balancers"); err == nil || !strings.Contains(err.Error(), "NotFound") {
		t.Errorf("dave deleting the platform policy in root:org:team: %v", err)
	}

	// Nor escape it with policies of his own in root:org:team: a
	// same-named policy that allows everything, bound for warnings only,
	// adds to the platform's and takes nothing from it.
	dave.apply("team", strings.NewReplacer(
		"object.spec.type != 'LoadBalancer'", "true",
		`["Deny"]`, `["Warn"]`,
		"    admission.canopy.dev/inherit: descendants\n", "",
	).Replace(noLoadBalancers))
	time.Sleep(time.Second)
	if _, err := dave.run("--context", "team", "create", "service", "loadbalancer", "lb2", "--tcp", "80"); err == nil || !strings.Contains(err.Error(), denied) {
		t.Errorf("dave's own policies in root:org:team let a LoadBalancer Service through: %v", err)
	}

	paramsNeedReadAccess(t, admin)
}

// paramsNeedReadAccess checks, as kube-apiserver does, that whoever writes
// a policy with params may read them: alice, who may write policies and
// read ConfigMaps in root:b but not Secrets, may not make a policy read
// Secrets for her.
func paramsNeedReadAccess(t *testing.T, admin kubectl) {
	t.Helper()
	admin.must("--context", "b", "create", "clusterrole", "policy-writer", "--verb", "create,get,list",
		"--resource", "validatingadmissionpolicies.admissionregistration.k8s.io,validatingadmissionpolicybindings.admissionregistration.k8s.io,configmaps")
	admin.must("--context", "b", "create", "clusterrolebinding", "policy-writer", "--clusterrole", "policy-writer", "--user", "alice")
	admin.eventually("--context", "b", "--as", "alice", "auth", "can-i", "create", "validatingadmissionpolicies.admissionregistration.k8s.io")
	secrets := strings.Replace(replicaLimit, "kind: ConfigMap", "kind: Secret", 1)
	if _, err := admin.run("--context", "b", "--as", "alice", "create", "-f", writeFile(t, secrets)); err == nil ||
		!strings.Contains(err.Error(), `spec.paramKind: Forbidden: user`) || !strings.Contains(err.Error(), `must have "get" permission on all objects of the referenced paramKind (kind=Secret, apiVersion=v1)`) {
		t.Errorf("alice, who may not read Secrets, creating a policy of Secret params: %v", err)
	}
	// ConfigMaps she may read: the policy's paramKind resolves to them
	// alone, and its binding's paramRef names one.
	admin.must("--context", "b", "--as", "alice", "create", "-f", writeFile(t, replicaLimit))
}

// refusedEventually waits, for up to 10s, until kubectl refuses a dry run
// of args saying want, then runs them to check they are refused: policies
// apply once the hub has seen them, shortly after they are stored.
func (k kubectl) refusedEventually(want string, args ...string) {
	k.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := k.run(append(args, "--dry-run=server")...)
		if err != nil && strings.Contains(err.Error(), want) {
			break
		}
		if time.Now().After(deadline) {
			k.t.Fatalf("kubectl %s --dry-run=server: %v; want an error saying %q", strings.Join(args, " "), err, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := k.run(args...); err == nil || !strings.Contains(err.Error(), want) {
		k.t.Fatalf("kubectl %s: %v; want an error saying %q", strings.Join(args, " "), err, want)
	}
}

// TestAdmissionPolicyAudit checks that a binding's Audit action records
// the failed validation in the audit log, as kube-apiserver does, and
// lets the request through.
func TestAdmissionPolicyAudit(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "audit.log")
	_, admin, _ := startHubFlags(t, []string{"--audit-log-path", log}, "a")
	// The Deny binding, for probes only, is watched after the Audit one:
	// once it applies, so does the other.
	admin.apply("a", `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: owned
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["configmaps"]
  validations:
  - expression: "has(object.metadata.labels) && 'owner' in object.metadata.labels"
    message: "ConfigMaps must have an owner label"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: audit
spec:
  policyName: owned
  validationActions: ["Audit"]
`)
	admin.apply("a", `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: deny-probes
spec:
  policyName: owned
  validationActions: ["Deny"]
  matchResources:
    objectSelector:
      matchLabels: {probe: "true"}
`)
	admin.refusedEventually("ConfigMaps must have an owner label", "--context", "a", "create", "-f", writeFile(t,
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: probe\n  labels: {probe: \"true\"}\n"))
	admin.must("--context", "a", "create", "configmap", "plain")

	const key = "validation.policy.admission.k8s.io/validation_failure"
	events := readAuditLog(t, log, func(e auditv1.Event) bool {
		return e.Verb == "create" && e.ObjectRef != nil && e.ObjectRef.Name == "plain"
	})
	for _, e := range events {
		if e.Verb == "create" && e.ObjectRef != nil && e.ObjectRef.Name == "plain" {
			if got := e.Annotations[key]; !strings.Contains(got, `"message":"ConfigMaps must have an owner label","policy":"owned","binding":"audit"`) {
				t.Errorf("the audit event of ConfigMap plain has %s %q; annotations %v", key, got, e.Annotations)
			}
		}
	}
}
