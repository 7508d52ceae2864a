package e2e

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// identityRequests counts the requests the matrices of this file make,
// for their logs.
type identityRequests int

// run runs kubectl as k, counting it.
func (n *identityRequests) run(k kubectl, args ...string) (string, error) {
	*n++
	return k.run(args...)
}

// impersonationHeaders adds headers to every request it sends.
type impersonationHeaders struct {
	next    http.RoundTripper
	headers http.Header
}

func (w impersonationHeaders) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range w.headers {
		req.Header[k] = v
	}
	return w.next.RoundTrip(req)
}

// createLogicalClusterFor makes LogicalCluster name in the logical cluster
// of context with user its only admin, and waits until it is ready.
func (k kubectl) createLogicalClusterFor(context, name, user string) {
	k.t.Helper()
	k.apply(context, "apiVersion: tenancy.canopy.dev/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: "+name+"\nspec:\n  admins:\n  - kind: User\n    name: "+user+"\n")
	k.must("--context", context, "wait", "--for=jsonpath={.status.phase}=Ready", "logicalcluster/"+name, "--timeout=15s")
}

// TestReservedIdentities checks that a tenant admin, cluster-admin of
// root:a through its LogicalCluster's spec.admins, may not impersonate
// any identity the hub reserves, each refusal a 403 saying why, while
// system:masters may; and that what a tenant admin may impersonate gets
// that identity's rights in root:a, and nothing of another logical
// cluster's ServiceAccount of the same name.
func TestReservedIdentities(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, testReservedIdentities)
}

func testReservedIdentities(t *testing.T, h *hub, admin kubectl) {
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalClusterFor("root", "a", "dave")
	admin.createLogicalCluster("root", "b")
	dave := userKubeconfig(t, pki, "dave")
	dave.addContexts(h, pki, "dave")
	dave.eventually("--context", "a", "auth", "can-i", "impersonate", "groups")

	// In root:a, erin may read ConfigMaps and the ServiceAccount builder
	// may too; in root:b, a same-named ServiceAccount may do anything.
	dave.must("--context", "a", "create", "rolebinding", "erin-view", "--clusterrole", "view", "--user", "erin")
	dave.must("--context", "a", "create", "serviceaccount", "builder")
	dave.must("--context", "a", "create", "role", "cm-reader", "--verb", "get,list", "--resource", "configmaps")
	dave.must("--context", "a", "create", "rolebinding", "builder-cm-reader", "--role", "cm-reader", "--serviceaccount", "default:builder")
	dave.must("--context", "a", "create", "secret", "generic", "tenant-secret", "--from-literal", "k=v")
	admin.must("--context", "b", "create", "serviceaccount", "builder")
	admin.must("--context", "b", "create", "clusterrolebinding", "builder-everything", "--clusterrole", "cluster-admin", "--serviceaccount", "default:builder")

	var n identityRequests
	key := workloadv1alpha1.TargetKey("root", "pc1")
	// The identities system:masters may take but that may not ask for a
	// review themselves: a syncer's group without the syncer's user, and a
	// syncer's user and groups without a credential of a live SyncTarget
	// (pkg/syncerscope), which no impersonation can carry.
	mastersRefused := map[string]bool{"syncers": true, "a syncer's whole identity": true}
	// kubectl auth whoami words every refusal alike; a SelfSubjectReview
	// posted raw shows the hub's answer, and who the requester became.
	const review = `{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}`
	whoami := []string{"--context", "a", "create", "--raw", "/clusters/root:a/apis/authentication.k8s.io/v1/selfsubjectreviews", "-f", writeFile(t, review)}
	for _, tc := range []struct {
		name string
		as   []string
		// why is what the refusal says.
		why string
	}{
		// kube-apiserver's constrained impersonation refuses system:masters
		// itself, before the hub is asked, and says so.
		{"system:masters", []string{"--as", "dave", "--as-group", "system:masters"}, "impersonating the system:masters group is not allowed"},
		{"system:masters with a ServiceAccount", []string{"--as", "system:serviceaccount:default:builder", "--as-group", "system:masters"},
			"group system:masters is reserved to the hub: its members may do anything in every logical cluster"},
		{"syncers", []string{"--as", "dave", "--as-group", "canopy:syncers", "--as-group", "canopy:synctarget:root:pc1"}, "group canopy:syncers is reserved to the hub"},
		{"a SyncTarget's group", []string{"--as", "dave", "--as-group", "canopy:synctarget:root:pc1"}, "group canopy:synctarget:root:pc1 is reserved to the hub"},
		{"a syncer's whole identity", []string{"--as", "syncer:" + key, "--as-group", "canopy:syncers", "--as-group", "canopy:synctarget:root:pc1"},
			"user syncer:" + key + " is reserved to the hub: syncer:<key> is the user of a SyncTarget's syncer credential"},
		{"wildcard readers", []string{"--as", "dave", "--as-group", "canopy:wildcard-readers"}, "group canopy:wildcard-readers is reserved to the hub"},
		{"the controller manager", []string{"--as", "system:kube-controller-manager"}, "user system:kube-controller-manager is reserved to the hub"},
		{"the scheduler", []string{"--as", "system:kube-scheduler"}, "user system:kube-scheduler is reserved to the hub"},
		{"system:admin", []string{"--as", "system:admin"}, "user system:admin is reserved to the hub"},
		{"the API server's loopback user", []string{"--as", "system:apiserver"}, "user system:apiserver is reserved to the hub"},
		{"nodes", []string{"--as", "dave", "--as-group", "system:nodes"}, "group system:nodes is reserved to the hub"},
		{"a node", []string{"--as", "system:node:n1"}, "user system:node:n1 is reserved to the hub: system:node:<name> is a node's"},
		{"a hub user", []string{"--as", "canopy:anything"}, "user canopy:anything is reserved to the hub"},
		{"the hub's controllers", []string{"--as", "dave", "--as-group", "system:canopy:controllers"}, "group system:canopy:controllers is reserved to the hub"},
		{"a controller of the hub", []string{"--as", "system:canopy:controller:placement"}, "user system:canopy:controller:placement is reserved to the hub"},
		{"a UID", []string{"--as", "erin", "--as-uid", "7d4b1c2e-1111-4000-8000-000000000000"}, `UID "7d4b1c2e-1111-4000-8000-000000000000" is reserved to the hub`},
	} {
		args := append(append([]string{}, whoami...), tc.as...)
		if _, err := n.run(dave, args...); err == nil || !strings.Contains(err.Error(), `is forbidden: User "dave" cannot impersonate`) || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s: dave: %v; want a 403 saying %q", tc.name, err, tc.why)
		}
		out, err := n.run(admin, args...)
		switch {
		case !mastersRefused[tc.name] && (err != nil || !strings.Contains(out, `"username":"`+tc.as[1]+`"`)):
			t.Errorf("%s: system:masters: %s, %v; want the review of %s", tc.name, out, err, tc.as[1])
		case mastersRefused[tc.name] && (err == nil || !strings.Contains(err.Error(), `User "`+tc.as[1]+`" cannot create resource "selfsubjectreviews"`)):
			t.Errorf("%s: system:masters: %v; want the impersonation to pass and the review of %s refused", tc.name, err, tc.as[1])
		}
	}

	// User extras the hub or Kubernetes give meaning to, which kubectl
	// has no flag for.
	url := "https://127.0.0.1:" + strconv.Itoa(h.port) + "/clusters/root:a/apis/authentication.k8s.io/v1/selfsubjectreviews"
	for _, tc := range []struct{ key, value, why string }{
		{"authentication.kubernetes.io/credential-id", "JTI=abc", "user extra authentication.kubernetes.io/credential-id is reserved to the hub"},
		{"authentication.kubernetes.io/node-name", "n1", "user extra authentication.kubernetes.io/node-name is reserved to the hub"},
		{"canopy.dev/cluster", "root:b", "user extra canopy.dev/cluster is reserved to the hub"},
		{"example.com/team", "web", ""},
	} {
		headers := http.Header{"Impersonate-User": {"erin"}, "Impersonate-Extra-" + strings.ReplaceAll(tc.key, "/", "%2F"): {tc.value}}
		for _, who := range []struct {
			name string
			k    kubectl
		}{{"dave", dave}, {"system:masters", admin}} {
			client := who.k.httpClient("a")
			client.Transport = impersonationHeaders{client.Transport, headers}
			n++
			status, code, raw := send(t, client, http.MethodPost, url, review)
			switch refused := who.name == "dave" && tc.why != ""; {
			case refused && (code != http.StatusForbidden || !strings.Contains(status.Message, tc.why)):
				t.Errorf("extra %s: %s: %d %s; want a 403 saying %q", tc.key, who.name, code, raw, tc.why)
			case !refused && (code != http.StatusCreated || !strings.Contains(string(raw), `"`+tc.key+`":["`+tc.value+`"]`)):
				t.Errorf("extra %s: %s: %d %s; want the review of erin with it", tc.key, who.name, code, raw)
			}
		}
	}

	// What dave may impersonate has what root:a grants it, no more, and
	// a ServiceAccount's name reaches root:a's only.
	for _, tc := range []struct {
		name    string
		args    []string
		refused string
	}{
		{"erin reads ConfigMaps", []string{"--context", "a", "get", "configmaps", "--as", "erin"}, ""},
		{"erin reads no Secrets", []string{"--context", "a", "get", "secrets", "--as", "erin"}, `User "erin" cannot list resource "secrets"`},
		{"erin in ServiceAccounts' groups", []string{"--context", "a", "get", "configmaps", "--as", "erin", "--as-group", "system:serviceaccounts:default", "--as-group", "system:authenticated"}, ""},
		{"builder reads ConfigMaps", []string{"--context", "a", "get", "configmaps", "--as", "system:serviceaccount:default:builder"}, ""},
		{"builder of root:a reads no Secrets, whatever root:b's may",
			[]string{"--context", "a", "get", "secret", "tenant-secret", "--as", "system:serviceaccount:default:builder"}, `User "system:serviceaccount:default:builder" cannot get resource "secrets"`},
		{"builder of root:b is not dave's to impersonate",
			[]string{"--context", "b", "get", "--raw", "/clusters/root:b/api/v1/namespaces/default/secrets", "--as", "system:serviceaccount:default:builder"}, `User "dave" cannot impersonate`},
		{"anonymous, refused by RBAC only", []string{"--context", "a", "get", "configmaps", "--as", "system:anonymous"}, `User "system:anonymous" cannot list resource "configmaps"`},
	} {
		_, err := n.run(dave, tc.args...)
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), "(Forbidden)") || !strings.Contains(err.Error(), tc.refused)):
			t.Errorf("%s: %v; want a 403 saying %q", tc.name, err, tc.refused)
		}
	}
	// kubectl auth can-i answers as the impersonation filter decides.
	for _, tc := range []struct{ what, answer string }{
		{"groups/system:masters", "no - group system:masters is reserved to the hub"},
		{"users/syncer:" + key, "no - user syncer:" + key + " is reserved to the hub"},
		{"groups/developers", "yes"},
	} {
		if out, _ := n.run(dave, "--context", "a", "auth", "can-i", "impersonate", tc.what); !strings.HasPrefix(out, tc.answer) {
			t.Errorf("dave: can-i impersonate %s: %q; want %q", tc.what, out, tc.answer)
		}
	}
	t.Logf("the impersonation matrix made %d requests", n)
}

// platformLoadBalancers refuses Services of type LoadBalancer in the
// logical cluster it is in and all below it, to all but system:masters.
const platformLoadBalancers = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: no-tenant-load-balancers
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["services"]
  matchConditions:
  - name: not-the-platform
    expression: "!('system:masters' in request.userInfo.groups)"
  validations:
  - expression: "object.spec.type != 'LoadBalancer'"
    message: "only the platform makes Services of type LoadBalancer"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-tenant-load-balancers
  labels:
    admission.canopy.dev/inherit: descendants
spec:
  policyName: no-tenant-load-balancers
  validationActions: ["Deny"]
`

// platformLabel labels every ConfigMap created in the logical cluster it
// is in and all below it platform=enforced, and refuses any ConfigMap
// created or updated without that label.
const platformLabel = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: platform-label
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
      expression: "Object{metadata: Object.metadata{labels: {'platform': 'enforced'}}}"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: platform-label
  labels:
    admission.canopy.dev/inherit: descendants
spec:
  policyName: platform-label
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: platform-label
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["configmaps"]
  validations:
  - expression: "has(object.metadata.labels) && 'platform' in object.metadata.labels && object.metadata.labels.platform == 'enforced'"
    message: "ConfigMaps carry label platform=enforced"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: platform-label
  labels:
    admission.canopy.dev/inherit: descendants
spec:
  policyName: platform-label
  validationActions: ["Deny"]
`

// tenantLabels replaces the labels of every ConfigMap created in its
// logical cluster, undoing the platform's if it ran after it.
const tenantLabels = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: tenant-labels
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["configmaps"]
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: "[JSONPatch{op: 'add', path: '/metadata/labels', value: {'platform': 'off', 'tenant': 'yes'}}]"
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: tenant-labels
spec:
  policyName: tenant-labels
`

// TestInheritedPoliciesHold checks that the policies root:org binds for
// its descendants hold against the admin of root:org:team: a validation
// that exempts system:masters, though the admin tries to impersonate it,
// and a mutation the admin's own mutation cannot undo, whichever was
// stored first, checked by an inherited validation of the final object.
func TestInheritedPoliciesHold(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, testInheritedPoliciesHold)
}

func testInheritedPoliciesHold(t *testing.T, h *hub, admin kubectl) {
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalCluster("root", "org")
	admin.addContext(h, pki, "org", "root:org")
	dave := userKubeconfig(t, pki, "dave")
	for _, team := range []string{"team", "team2"} {
		admin.createLogicalClusterFor("org", team, "dave")
		admin.addContext(h, pki, team, "root:org:"+team)
		dave.addContextAs(h, pki, "dave", team, "root:org:"+team)
	}
	dave.eventually("--context", "team", "auth", "can-i", "impersonate", "groups")
	var n identityRequests

	// The platform's LoadBalancer policy, which exempts system:masters.
	admin.apply("org", platformLoadBalancers)
	const onlyPlatform = "only the platform makes Services of type LoadBalancer"
	dave.refusedEventually(onlyPlatform, "--context", "team", "create", "service", "loadbalancer", "lb", "--tcp", "80")
	for _, as := range [][]string{
		{"--as", "dave", "--as-group", "system:masters"},
		{"--as", "system:admin", "--as-group", "system:masters"},
		{"--as", "system:serviceaccount:default:default", "--as-group", "system:masters"},
		{"--as", "system:apiserver"},
	} {
		args := append([]string{"--context", "team", "create", "service", "loadbalancer", "lb", "--tcp", "80"}, as...)
		if _, err := n.run(dave, args...); err == nil || !strings.Contains(err.Error(), `is forbidden: User "dave" cannot impersonate`) ||
			!strings.Contains(err.Error(), "reserved to the hub") && !strings.Contains(err.Error(), "impersonating the system:masters group is not allowed") {
			t.Errorf("dave %s: %v; want a 403 for impersonating a reserved identity", strings.Join(as, " "), err)
		}
	}
	if _, err := n.run(dave, "--context", "team", "get", "service", "lb"); err == nil || !strings.Contains(err.Error(), "NotFound") {
		t.Errorf("a LoadBalancer Service of dave's exists: %v", err)
	}
	if _, err := n.run(admin, "--context", "team", "create", "service", "loadbalancer", "lb", "--tcp", "80"); err != nil {
		t.Errorf("the platform's LoadBalancer Service: %v", err)
	}

	// The tenant's mutation stored first, in root:org:team: until the
	// platform's is seen, it sets the labels alone.
	// labels waits until a ConfigMap created in context, as a dry run,
	// gets labels want.
	labels := func(what, context, want string) {
		waitFor(t, 10*time.Second, what, func() (bool, string) {
			out, err := n.run(dave, "--context", context, "create", "configmap", "probe", "--dry-run=server", "-o", "jsonpath={.metadata.labels}")
			return out == want, out + " " + fmt.Sprint(err)
		})
	}
	const tenantOnly, both = `{"platform":"off","tenant":"yes"}`, `{"platform":"enforced","tenant":"yes"}`
	dave.apply("team", tenantLabels)
	labels("the tenant's labels in root:org:team", "team", tenantOnly)
	admin.apply("org", platformLabel)
	labels("the platform's label over the tenant's in root:org:team", "team", both)
	// The platform's stored first, for root:org:team2.
	dave.apply("team2", tenantLabels)
	labels("the tenant's labels under the platform's in root:org:team2", "team2", both)

	for _, team := range []string{"team", "team2"} {
		if _, err := n.run(dave, "--context", team, "create", "configmap", "settings", "--from-literal", "k=v"); err != nil {
			t.Errorf("%s: creating a ConfigMap: %v", team, err)
			continue
		}
		if out, err := n.run(dave, "--context", team, "get", "configmap", "settings", "-o", "jsonpath={.metadata.labels}"); err != nil || out != both {
			t.Errorf("%s: the stored ConfigMap has labels %s, %v; want %s", team, out, err, both)
		}
		// The inherited validation judges what is stored: an update
		// that drops the label, which no mutation restores, is refused.
		if _, err := n.run(dave, "--context", team, "label", "configmap", "settings", "platform=off", "--overwrite"); err == nil ||
			!strings.Contains(err.Error(), "ConfigMaps carry label platform=enforced") {
			t.Errorf("%s: relabelling the ConfigMap platform=off: %v", team, err)
		}
	}
	t.Logf("the inherited-policy matrix made %d requests", n)
}
