package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"
)

// TestAuditPlacementChanges has a user, not an admin, create, update and
// delete a Placement and a PlacementConstraint in root:a on a hub writing
// an audit log by its default policy, and finds each change in the log
// once: who made it, the verb, the object, its logical cluster, and the
// object sent and stored. Reads and SyncTarget heartbeats are not in it.
func TestAuditPlacementChanges(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "audit.log")
	h, admin, pki := startHubFlags(t, []string{"--audit-log-path", log}, "a")
	alice := userKubeconfig(t, pki, "alice", "team-a")
	alice.addContexts(h, pki, "alice")
	admin.grantEverything("a", "alice")
	alice.eventually("--context", "a", "get", "placements")

	placement := func(region string) string {
		return `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata:
  name: web
spec:
  resources:
  - {group: apps, resource: deployments}
  targets:
    preferenceGroups:
    - name: home
      labelSelector: {matchLabels: {region: ` + region + `}}
`
	}
	constraint := func(regions string) string {
		return `apiVersion: placement.canopy.dev/v1alpha1
kind: PlacementConstraint
metadata:
  name: eu-only
spec:
  allowedTargets:
    labelSelector:
      matchExpressions:
      - {key: region, operator: In, values: [` + regions + `]}
`
	}
	alice.must("--context", "a", "create", "-f", writeFile(t, placement("eu-west")))
	alice.must("--context", "a", "replace", "-f", writeFile(t, placement("eu-central")))
	alice.must("--context", "a", "get", "placement", "web")
	alice.must("--context", "a", "create", "-f", writeFile(t, constraint("eu-west")))
	alice.must("--context", "a", "replace", "-f", writeFile(t, constraint("eu-west, eu-central")))
	alice.must("--context", "a", "get", "placementconstraints")

	// What a syncer does every 10s, by update as the syncer and by patch.
	syncTarget := "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: pc1\n"
	alice.must("--context", "a", "create", "-f", writeFile(t, syncTarget))
	alice.must("--context", "a", "replace", "--subresource", "status", "-f",
		writeFile(t, syncTarget+"status:\n  lastHeartbeatTime: \"2026-01-01T00:00:00Z\"\n"))
	alice.must("--context", "a", "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge",
		"-p", `{"status":{"lastHeartbeatTime":"2026-01-01T00:00:10Z"}}`)

	alice.must("--context", "a", "delete", "placement", "web")
	alice.must("--context", "a", "delete", "placementconstraint", "eu-only")

	events := readAuditLog(t, log, func(e auditv1.Event) bool {
		return e.Verb == "delete" && e.ObjectRef != nil && e.ObjectRef.Name == "eu-only"
	})
	for _, want := range []struct {
		verb, resource, name string
		// sent is in the request object, and stored in the response
		// object; empty for a delete.
		sent string
	}{
		{"create", "placements", "web", "eu-west"},
		{"update", "placements", "web", "eu-central"},
		{"delete", "placements", "web", ""},
		{"create", "placementconstraints", "eu-only", "eu-west"},
		{"update", "placementconstraints", "eu-only", "eu-central"},
		{"delete", "placementconstraints", "eu-only", ""},
	} {
		what := fmt.Sprintf("%s %s %s", want.verb, want.resource, want.name)
		var found []auditv1.Event
		for _, e := range events {
			if e.Verb == want.verb && e.ObjectRef != nil && e.ObjectRef.Resource == want.resource && e.ObjectRef.Name == want.name {
				found = append(found, e)
			}
		}
		if len(found) != 1 {
			t.Errorf("%s: %d audit events, want 1", what, len(found))
			continue
		}
		e := found[0]
		if e.User.Username != "alice" || !slices.Contains(e.User.Groups, "team-a") {
			t.Errorf("%s: by %s in %v, want alice in team-a", what, e.User.Username, e.User.Groups)
		}
		if e.Annotations["canopy.dev/cluster"] != "root:a" {
			t.Errorf("%s: logical cluster annotation %q, want root:a", what, e.Annotations["canopy.dev/cluster"])
		}
		if e.ObjectRef.APIGroup != "placement.canopy.dev" || e.Level != "RequestResponse" || e.Stage != auditv1.StageResponseComplete {
			t.Errorf("%s: group %q, level %s, stage %s; want placement.canopy.dev, RequestResponse, ResponseComplete", what, e.ObjectRef.APIGroup, e.Level, e.Stage)
		}
		if e.ResponseStatus == nil || e.ResponseStatus.Code >= 300 {
			t.Errorf("%s: response status %+v", what, e.ResponseStatus)
		}
		if e.ResponseObject == nil {
			t.Errorf("%s: no response object", what)
		}
		if want.sent == "" {
			continue
		}
		if e.RequestObject == nil || !strings.Contains(string(e.RequestObject.Raw), want.sent) || !strings.Contains(string(e.ResponseObject.Raw), want.sent) {
			t.Errorf("%s: the request and response objects do not hold %q:\n%v\n%v", what, want.sent, e.RequestObject, e.ResponseObject)
		} else if strings.Contains(string(e.ResponseObject.Raw), "managedFields") {
			t.Errorf("%s: the response object has its managedFields:\n%s", what, e.ResponseObject.Raw)
		}
	}

	created := false
	for _, e := range events {
		if e.Verb == "get" || e.Verb == "list" || e.Verb == "watch" {
			t.Errorf("a read is recorded: %s %s", e.Verb, e.RequestURI)
		}
		if e.ObjectRef == nil || e.ObjectRef.Resource != "synctargets" {
			continue
		}
		if e.ObjectRef.Subresource == "status" {
			t.Errorf("a SyncTarget heartbeat is recorded: %s %s", e.Verb, e.RequestURI)
		}
		created = created || (e.Verb == "create" && e.Level == "RequestResponse" && e.Annotations["canopy.dev/cluster"] == "root:a")
	}
	if !created {
		t.Errorf("creating SyncTarget pc1 is not recorded with its object")
	}
}

// TestAuditPolicyFile gives the hub, through --config, a policy of its
// own: the log has what that policy records, at its level, and not what
// the default one would.
func TestAuditPolicyFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.log")
	policy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policy, []byte(`apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Request
  verbs: [get]
  resources:
  - group: placement.canopy.dev
    resources: [placementconstraints]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	config := writeFile(t, "audit-log-path: "+log+"\naudit-policy-file: "+policy+"\n")
	_, admin, _ := startHubFlags(t, []string{"--config", config}, "a")
	// Not apply, which reads the object first.
	admin.must("--context", "a", "create", "-f", writeFile(t, `apiVersion: placement.canopy.dev/v1alpha1
kind: PlacementConstraint
metadata:
  name: eu-only
spec:
  allowedTargets:
    labelSelector: {matchLabels: {region: eu}}
`))
	admin.must("--context", "a", "get", "placementconstraint", "eu-only")

	events := readAuditLog(t, log, func(e auditv1.Event) bool { return e.Verb == "get" })
	if len(events) != 1 {
		t.Fatalf("%d audit events, want only the get: %+v", len(events), events)
	}
	e := events[0]
	if e.Level != "Request" || e.ObjectRef == nil || e.ObjectRef.Name != "eu-only" || e.Annotations["canopy.dev/cluster"] != "root:a" || e.User.Username != "admin" {
		t.Errorf("the get's event: %+v", e)
	}
}

// TestAuditPolicyMalformed starts the hub with policies that are not
// audit.k8s.io/v1 Policies: it stops at once, naming the flag, the file
// and what is wrong.
func TestAuditPolicyMalformed(t *testing.T) {
	t.Parallel()
	bin := buildHub(t)
	for _, tc := range []struct{ name, policy, want string }{
		{"an unknown level", "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n", "Unsupported value"},
		{"not YAML", "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [\n", "yaml: line 3"},
		{"no rules", "apiVersion: audit.k8s.io/v1\nkind: Policy\n", "0 rules"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			policy := writeFile(t, tc.policy)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, bin, "start", "--data-dir", t.TempDir(), "--secure-port", strconv.Itoa(freePort(t)),
				"--audit-log-path", filepath.Join(t.TempDir(), "audit.log"), "--audit-policy-file", policy).CombinedOutput()
			if err == nil || ctx.Err() != nil {
				t.Fatalf("the hub started with the policy, or did not stop: %v\n%s", err, out)
			}
			for _, want := range []string{"--audit-policy-file", policy, tc.want, "audit.k8s.io/v1 Policy"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("the hub's error does not say %q:\n%s", want, out)
				}
			}
		})
	}
}

// readAuditLog waits up to 10s for an event done says is the last one the
// test needs, and returns the events of the audit log at path then.
func readAuditLog(t *testing.T, path string, done func(auditv1.Event) bool) []auditv1.Event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		events := parseAuditLog(t, path)
		if slices.ContainsFunc(events, done) {
			return events
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10s the audit log has not the last event expected; it has %d:\n%+v", len(events), events)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// parseAuditLog reads the audit log at path, one JSON event a line, but
// for a last line the hub is still writing.
func parseAuditLog(t *testing.T, path string) []auditv1.Event {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var events []auditv1.Event
	for _, line := range lines[:len(lines)-1] {
		var e auditv1.Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("an audit log line is not an Event: %v\n%s", err, line)
		}
		if e.APIVersion != "audit.k8s.io/v1" || e.Kind != "Event" {
			t.Fatalf("an audit log line is a %s %s", e.APIVersion, e.Kind)
		}
		events = append(events, e)
	}
	return events
}
