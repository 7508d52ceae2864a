package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestPlacementAPI creates, reads and explains placements and their
// constraints with kubectl: defaults stored, table columns, short names,
// field errors that say what to fix, the status subresource, and the
// SyncTarget taints and cordon placement reads.
func TestPlacementAPI(t *testing.T) {
	t.Parallel()
	_, admin, _ := startHubWith(t, "a")

	admin.apply("root", `apiVersion: placement.canopy.dev/v1alpha1
kind: PlacementConstraint
metadata:
  name: eu-only
spec:
  allowedTargets:
    labelSelector:
      matchExpressions:
      - {key: region, operator: In, values: [eu-west, eu-central]}
`)
	if out := admin.must("--context", "root", "get", "placementconstraints"); !strings.Contains(out, "ALLOWED TARGETS") || !strings.Contains(out, "region in (eu-central,eu-west)") {
		t.Errorf("kubectl get placementconstraints:\n%s", out)
	}

	// Server-side apply needs the schema, list map keys included.
	placement := `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata:
  name: web
spec:
  namespaceSelector:
    matchLabels: {env: prod}
  resources:
  - {group: apps, resource: deployments}
  targets:
    expression: "allocatable['cpu'].isGreaterThan(quantity('4'))"
    preferenceGroups:
    - name: west
      labelSelector: {matchLabels: {region: eu-west}}
    - name: any
  tolerations:
  - {key: example.com/maintenance, operator: Exists, effect: NoSchedule}
  strategy:
    type: Divide
    divide:
      weights:
      - labelSelector: {matchLabels: {tier: gold}}
        weight: 2
      - weight: 1
`
	admin.must("--context", "a", "apply", "--server-side", "-f", writeFile(t, placement))
	got := admin.must("--context", "a", "get", "placement", "web", "-o",
		"jsonpath={.spec.strategy.divide.by} {.spec.failover.gracePeriod} {.spec.inheritance} {.metadata.generation}")
	if got != "Weights 5m0s None 1" {
		t.Errorf("stored defaults and generation %q, want Weights 5m0s None 1", got)
	}
	// The placement controller finds no candidate target: no SyncTarget
	// in root:a or root.
	var table string
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		table = admin.must("--context", "a", "get", "pl")
		if strings.Contains(table, "False") || time.Now().After(deadline) {
			break
		}
	}
	if !strings.Contains(table, "STRATEGY") || !strings.Contains(table, "SCHEDULABLE") || !strings.Contains(table, "Divide(Weights)") || !strings.Contains(table, "False") || !strings.Contains(table, "0/0") {
		t.Errorf("kubectl get pl:\n%s", table)
	}
	if out := admin.must("--context", "root", "get", "placements"); strings.Contains(out, "web") {
		t.Errorf("root lists root:a's placement:\n%s", out)
	}
	if out := admin.must("--context", "a", "explain", "placement.spec.strategy.spread.maxSkew"); !strings.Contains(out, "break it") {
		t.Errorf("kubectl explain placement.spec.strategy.spread.maxSkew:\n%s", out)
	}

	// The status subresource: what the placement controller writes.
	admin.must("--context", "a", "patch", "placement", "web", "--subresource", "status", "--type", "merge", "-p",
		`{"status":{"conditions":[{"type":"Schedulable","status":"True","reason":"EligibleTargets","message":"1 eligible: root/pc1","lastTransitionTime":"2026-01-01T00:00:00Z"}],`+
			`"targets":[{"cluster":"root","name":"pc1","key":"k1","reason":"Eligible"},{"cluster":"root","name":"pc3","key":"k3","reason":"Constraint","message":"PlacementConstraint root/eu-only does not allow it"}]}}`)
	if wide := admin.must("--context", "a", "get", "placement", "web", "-o", "wide"); !strings.Contains(wide, "True") || !strings.Contains(wide, "1/2") || !strings.Contains(wide, "1 eligible: root/pc1") {
		t.Errorf("kubectl get placement web -o wide after a status update:\n%s", wide)
	}
	if got := admin.must("--context", "a", "get", "placement", "web", "-o", `jsonpath={.status.targets[?(@.name=="pc3")].reason}`); got != "Constraint" {
		t.Errorf("pc3's reason %q", got)
	}

	for _, tc := range []struct {
		name, manifest string
		want           []string
	}{{
		name: "an expression that is not a bool",
		manifest: `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: bad}
spec:
  targets: {expression: "labels['region']"}
`,
		want: []string{"spec.targets.expression", "must be a bool"},
	}, {
		name: "a Spread without its settings",
		manifest: `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: bad}
spec:
  strategy: {type: Spread}
`,
		want: []string{"spec.strategy.spread: Required value", "topologyKey"},
	}, {
		name: "a constraint allowing everything",
		manifest: `apiVersion: placement.canopy.dev/v1alpha1
kind: PlacementConstraint
metadata: {name: bad}
spec:
  allowedTargets: {}
`,
		want: []string{"spec.allowedTargets: Required value"},
	}, {
		name: "a taint of an effect placement ignores",
		manifest: `apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata: {name: bad}
spec:
  taints: [{key: a, effect: PreferNoSchedule}]
`,
		want: []string{"spec.taints[0].effect", `supported values: "NoSchedule", "NoExecute"`},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := admin.run("--context", "a", "create", "-f", writeFile(t, tc.manifest))
			if err == nil {
				t.Fatalf("created:\n%s", out)
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error does not say %q:\n%v", want, err)
				}
			}
		})
	}

	// A SyncTarget's taints and cordon; the hub records when a NoExecute
	// taint was added, which tolerationSeconds count from.
	admin.apply("root", `apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata:
  name: pc1
  labels: {region: eu-west}
spec:
  unschedulable: true
  taints:
  - {key: example.com/maintenance, value: "yes", effect: NoSchedule}
  - {key: example.com/drain, effect: NoExecute}
`)
	got = admin.must("--context", "root", "get", "synctarget", "pc1", "-o",
		`jsonpath={.spec.unschedulable} {.spec.taints[0].timeAdded}|{.spec.taints[1].timeAdded}`)
	cordoned, added, _ := strings.Cut(got, "|")
	if cordoned != "true " || added == "" {
		t.Errorf("stored cordon and NoExecute timeAdded %q", got)
	}
}
