package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// placementUser is the placement controller's user at the hub
// (pkg/loopback).
const placementUser = "system:canopy:controller:placement"

// TestControllerWritesThroughAdmission checks that the placement
// controller writes its assignments through the API as a user of its own:
// a ValidatingAdmissionPolicy that root:org binds for its descendants,
// forbidding assignment to root:org:team's SyncTarget pc1, stops
// placement from labelling a Deployment of root:org:team for it, and
// kubectl describe shows the refusal; in root:a, which the policy does
// not reach, placement assigns the same Deployment to root:a's pc1, and
// its managedFields name placement. Another policy of root:org keeps the
// namespace controller from deleting a protected ConfigMap in
// root:org:team: the namespace stays Terminating, and kubectl describe
// shows why, until the ConfigMap is no longer protected. The audit log
// names placement's user on both its writes, and the garbage collector's
// and the namespace controller's users on their deletions.
func TestControllerWritesThroughAdmission(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "audit.log")
	_, admin, _ := startTeamHub(t, 40*time.Second, "--audit-log-path", log)
	admin.createLogicalCluster("root", "a")

	teamKey := workloadv1alpha1.TargetKey("root:org:team", "pc1")
	label := workloadv1alpha1.StateLabel(teamKey)
	admin.apply("org", fmt.Sprintf(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: no-team-pc1
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "!has(object.metadata.labels) || !('%[1]s' in object.metadata.labels) || object.metadata.labels['%[1]s'] != 'Sync'"
    message: "Deployments may not run on root:org:team's pc1"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-team-pc1
  labels:
    admission.canopy.dev/inherit: descendants
spec:
  policyName: no-team-pc1
  validationActions: ["Deny"]
`, label))
	for _, context := range []string{"team", "a"} {
		admin.apply(context, `apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata: {name: pc1, labels: {region: eu}}
---
apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: eu}
spec:
  resources: [{group: apps, resource: deployments}]
  targets: {labelSelector: {matchLabels: {region: eu}}}
`)
		// A heartbeat keeps pc1 Ready for the hub's 40s timeout.
		admin.must("--context", context, "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge", "-p", heartbeat(time.Now()))
		admin.must("--context", context, "create", "namespace", "ns1")
	}
	// The policy is in force in root:org:team once it refuses a
	// Deployment assigned to pc1 by hand.
	admin.refusedEventually("Deployments may not run on root:org:team's pc1", "--context", "team", "create", "-f", writeFile(t,
		fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: probe\n  namespace: ns1\n  labels: {%s: Sync}\n"+
			"spec:\n  selector: {matchLabels: {app: probe}}\n  template:\n    metadata: {labels: {app: probe}}\n    spec: {containers: [{name: c, image: nginx}]}\n", label)))
	for _, context := range []string{"team", "a"} {
		admin.apply(context, placedDeployment("web", "ns1", 2))
	}

	// root:a: placed, by placement's own field manager.
	aKey := workloadv1alpha1.TargetKey("root:a", "pc1")
	waitUntil(t, 30*time.Second, "web in root:a assigned to pc1 by placement's field manager", func() string {
		got := admin.must("--context", "a", "get", "deploy", "web", "-n", "ns1", "--show-managed-fields",
			"-o", "jsonpath={.metadata.labels."+jsonpathKey(workloadv1alpha1.StateLabel(aKey))+"} {.metadata.managedFields[*].manager}")
		if !strings.HasPrefix(got, "Sync ") || !slices.Contains(strings.Fields(got), "placement") {
			return got
		}
		return ""
	})

	// root:org:team: refused, and kubectl describe says so.
	var described string
	waitUntil(t, 30*time.Second, "kubectl describe of web in root:org:team showing the refusal", func() string {
		described = admin.must("--context", "team", "describe", "deploy/web", "-n", "ns1")
		for _, want := range []string{"Warning", "AssignmentRefused", "The hub refused placement's assignment of it to SyncTargets [" + teamKey + "]",
			"no-team-pc1", "Deployments may not run on root:org:team's pc1"} {
			if !strings.Contains(described, want) {
				return "no " + want + " in:\n" + described
			}
		}
		return ""
	})
	t.Logf("kubectl describe deploy/web in root:org:team:\n%s", described)
	if got := admin.must("--context", "team", "get", "deploy", "web", "-n", "ns1", "-o", "jsonpath={.metadata.labels}"); strings.Contains(got, label) {
		t.Errorf("web in root:org:team carries %s despite the policy: %s", label, got)
	}

	// The garbage collector and the namespace controller delete as users
	// of their own too.
	g := gc{t: t, k: admin}
	g.owned("a", "ConfigMap", "child", "parent", g.configMap("a", "parent", ""), false, "")
	admin.must("--context", "a", "-n", "default", "delete", "configmap", "parent")
	g.waitGone("a", "configmap", "child")
	// The revision record of a Deployment orphaned loses its
	// ownerReference by the collector's patch, which admission lets the
	// hub's controllers make on what the hub keeps.
	admin.must("--context", "a", "create", "namespace", "orphans")
	admin.must("--context", "a", "create", "deployment", "orphaning", "-n", "orphans", "--image", "nginx")
	records := "jsonpath={.items[*].metadata.ownerReferences[*].name}"
	waitUntil(t, 30*time.Second, "the revision record of Deployment orphaning", func() string {
		if got := admin.must("--context", "a", "get", "rs", "-n", "orphans", "-l", workloadv1alpha1.RevisionRecordLabel, "-o", records); got != "orphaning" {
			return got
		}
		return ""
	})
	admin.must("--context", "a", "delete", "deployment", "orphaning", "-n", "orphans", "--cascade=orphan", "--timeout=30s")
	if got := admin.must("--context", "a", "get", "rs", "-n", "orphans", "-l", workloadv1alpha1.RevisionRecordLabel, "-o", records); got != "" {
		t.Errorf("the orphaned revision record still names its owner %q", got)
	}
	admin.must("--context", "a", "delete", "namespace", "ns1", "--timeout=30s")
	deletedBy := func(e auditv1.Event, controller, resource, name string) bool {
		return e.User.Username == "system:canopy:controller:"+controller && e.Verb == "delete" && e.ObjectRef != nil &&
			e.ObjectRef.Resource == resource && e.ObjectRef.Name == name && e.Annotations["canopy.dev/cluster"] == "root:a" &&
			e.ResponseStatus != nil && e.ResponseStatus.Code == 200
	}
	events := readAuditLog(t, log, func(e auditv1.Event) bool { return deletedBy(e, "namespace", "deployments", "web") })
	if !slices.ContainsFunc(events, func(e auditv1.Event) bool { return deletedBy(e, "garbage-collector", "configmaps", "child") }) {
		t.Error("the audit log has no deletion of ConfigMap child in root:a by the garbage collector's user")
	}

	// root:org's policy keeps a protected ConfigMap from the namespace
	// controller's deletion in root:org:team: the namespace stays
	// Terminating and says why, until the ConfigMap is no longer
	// protected.
	admin.apply("org", `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: protected
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["DELETE"]
      resources: ["configmaps"]
  validations:
  - expression: "oldObject.metadata.?labels.?protected.orValue('') != 'true'"
    message: "protected ConfigMaps may not be deleted"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: protected
  labels:
    admission.canopy.dev/inherit: descendants
spec:
  policyName: protected
  validationActions: ["Deny"]
`)
	admin.must("--context", "team", "create", "namespace", "guarded")
	admin.apply("team", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: keep, namespace: guarded, labels: {protected: \"true\"}}\n")
	admin.refusedEventually("protected ConfigMaps may not be deleted", "--context", "team", "delete", "configmap", "keep", "-n", "guarded")
	admin.must("--context", "team", "delete", "namespace", "guarded", "--wait=false")
	failure := `jsonpath={.status.conditions[?(@.type=="NamespaceDeletionContentFailure")].message}`
	waitUntil(t, 30*time.Second, "namespace guarded saying the policy refused its content's deletion", func() string {
		if got := admin.must("--context", "team", "get", "namespace", "guarded", "-o", failure); !strings.Contains(got, "protected ConfigMaps may not be deleted") {
			return got
		}
		return ""
	})
	described = admin.must("--context", "team", "describe", "namespace", "guarded")
	if !strings.Contains(described, "NamespaceDeletionContentFailure") || !strings.Contains(described, "ValidatingAdmissionPolicy 'protected'") {
		t.Errorf("kubectl describe namespace guarded does not show the refusal:\n%s", described)
	}
	admin.must("--context", "team", "label", "configmap", "keep", "-n", "guarded", "protected-")
	waitUntil(t, 60*time.Second, "namespace guarded gone once its ConfigMap is no longer protected", func() string {
		if out, err := admin.run("--context", "team", "get", "namespace", "guarded", "-o", "name"); err == nil {
			return out
		}
		return ""
	})

	// The audit log names placement's user on both writes.
	outcome := func(e auditv1.Event, cluster string) bool {
		return e.User.Username == placementUser && e.Verb == "patch" && e.ObjectRef != nil && e.ObjectRef.Resource == "deployments" &&
			e.ObjectRef.Name == "web" && e.Annotations["canopy.dev/cluster"] == cluster && e.ResponseStatus != nil
	}
	refused := func(e auditv1.Event) bool { return outcome(e, "root:org:team") && e.ResponseStatus.Code == 403 }
	placed := func(e auditv1.Event) bool { return outcome(e, "root:a") && e.ResponseStatus.Code == 200 }
	events = readAuditLog(t, log, func(e auditv1.Event) bool { return refused(e) })
	if !slices.ContainsFunc(events, placed) {
		t.Errorf("the audit log has no successful patch of web in root:a by %s", placementUser)
	}
	if !slices.ContainsFunc(events, func(e auditv1.Event) bool {
		return e.User.Username == "system:canopy:controller:namespace" && e.Verb == "delete" && e.ObjectRef != nil && e.ObjectRef.Name == "keep" &&
			e.Annotations["canopy.dev/cluster"] == "root:org:team" && e.ResponseStatus != nil && e.ResponseStatus.Code == 403
	}) {
		t.Error("the audit log has no refused deletion of ConfigMap keep in root:org:team by the namespace controller's user")
	}
	for _, e := range events {
		if e.User.Username == placementUser && !slices.Contains(e.User.Groups, "system:canopy:controllers") {
			t.Errorf("an audit event of %s has groups %v, want system:canopy:controllers among them", placementUser, e.User.Groups)
		}
		if e.User.Username == placementUser && !strings.HasPrefix(e.UserAgent, "canopy-hub/placement") {
			t.Errorf("an audit event of %s has user agent %q, want it to name the controller", placementUser, e.UserAgent)
		}
		if outcome(e, "root:org:team") && e.ImpersonatedUser != nil {
			t.Errorf("placement's write was made by impersonation: %+v", e.ImpersonatedUser)
		}
	}
}
