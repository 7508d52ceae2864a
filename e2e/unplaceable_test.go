package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestUnplaceable places, in root:a, the Deployment and ConfigMap of a
// namespace admin who may read them but not Placements, where no
// SyncTarget can take them: pc1 is cordoned, pc2 has never reported.
// kubectl describe shows the admin why: the Deployment's condition
// Placed=False and, on both, one Warning Event Unplaceable naming each
// target's reason, recorded once however often the objects are placed
// again for the same reasons. Once pc1 is uncordoned and Ready, the
// Deployment is placed there and the condition goes. Then, for each
// other reason a lone target may have not to take an object (a taint,
// spec.logicalClusters), a Deployment created shows it.
func TestUnplaceable(t *testing.T) {
	t.Parallel()
	h, admin, pki := startHubWith(t, "a")
	bob := userKubeconfig(t, pki, "bob")
	bob.addContexts(h, pki, "bob")
	admin.must("--context", "a", "create", "namespace", "ns1")
	admin.must("--context", "a", "create", "rolebinding", "bob-admin", "--clusterrole", "admin", "--user", "bob", "-n", "ns1")
	admin.apply("a", `apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata: {name: pc1, labels: {region: eu}}
spec: {unschedulable: true}
---
apiVersion: workload.canopy.dev/v1alpha1
kind: SyncTarget
metadata: {name: pc2, labels: {region: eu}}
---
apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: eu}
spec:
  resources: [{group: apps, resource: deployments}, {resource: configmaps}]
  targets: {labelSelector: {matchLabels: {region: eu}}}
`)
	bob.apply("a", placedDeployment("web", "ns1", 2))
	bob.must("--context", "a", "create", "configmap", "web-config", "-n", "ns1", "--from-literal=k=v")

	requests := 0
	for _, tc := range []struct{ verb, resource string }{{"get", "placements"}, {"list", "placements"}, {"get", "synctargets"}} {
		requests++
		if out, _ := bob.run("--context", "a", "auth", "can-i", tc.verb, tc.resource); strings.TrimSpace(out) != "no" {
			t.Fatalf("bob may %s %s in root:a (%q); the test wants a user who may not", tc.verb, tc.resource, out)
		}
	}

	placed := `jsonpath={.status.conditions[?(@.type=="Placed")].status} {.status.conditions[?(@.type=="Placed")].reason}`
	waitUntil(t, 30*time.Second, "web's Placed condition False, for bob", func() string {
		requests++
		if got := bob.must("--context", "a", "get", "deploy", "web", "-n", "ns1", "-o", placed); got != "False NoEligibleTarget" {
			return got
		}
		return ""
	})
	for _, obj := range []string{"deploy/web", "configmap/web-config"} {
		var out string
		waitUntil(t, 30*time.Second, "kubectl describe "+obj+" showing why, for bob", func() string {
			requests++
			out = bob.must("--context", "a", "describe", obj, "-n", "ns1")
			for _, want := range []string{"Warning", "Unplaceable", "Placement root:a:eu selects it, but no SyncTarget can take it", "Cordoned root:a/pc1", "NotReady root:a/pc2"} {
				if !strings.Contains(out, want) {
					return "no " + want + " in:\n" + out
				}
			}
			return ""
		})
		t.Logf("kubectl describe %s, as bob:\n%s", obj, out)
	}
	if out := bob.must("--context", "a", "describe", "deploy/web", "-n", "ns1"); !strings.Contains(out, "Placed") || !strings.Contains(out, "NoEligibleTarget") {
		t.Errorf("kubectl describe deploy/web shows no Placed condition:\n%s", out)
	}

	// Placed again for the same reasons, as after an edit, nothing more
	// is recorded.
	unplaceable := func(name string) int {
		requests++
		out := bob.must("--context", "a", "get", "events", "-n", "ns1", "--field-selector", "reason=Unplaceable,involvedObject.name="+name, "-o", "name")
		return len(strings.Fields(out))
	}
	bob.must("--context", "a", "label", "deploy/web", "-n", "ns1", "touched=yes")
	bob.must("--context", "a", "label", "configmap/web-config", "-n", "ns1", "touched=yes")
	time.Sleep(3 * time.Second)
	for _, name := range []string{"web", "web-config"} {
		if n := unplaceable(name); n != 1 {
			t.Errorf("%d Unplaceable Events of %s after it was placed again for the same reasons, want 1", n, name)
		}
	}

	// pc1 uncordoned and Ready takes them, and the condition goes.
	admin.must("--context", "a", "patch", "synctarget", "pc1", "--type", "merge", "-p", `{"spec":{"unschedulable":false}}`)
	admin.must("--context", "a", "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge", "-p", heartbeat(time.Now()))
	waitUntil(t, 30*time.Second, "web assigned to pc1 and its Placed condition gone", func() string {
		requests++
		got := admin.must("--context", "a", "get", "deploy", "web", "-n", "ns1", "-o", `jsonpath={.metadata.labels}`+placed[len("jsonpath="):])
		if !strings.Contains(got, `"state.workload.canopy.dev/`) || strings.Contains(got, "False") {
			return got
		}
		return ""
	})

	// Each reason a lone target may have not to take an object shows as
	// the condition's reason, for a Deployment created then.
	admin.must("--context", "a", "delete", "synctarget", "pc2")
	for i, tc := range []struct {
		name, spec, reason string
	}{
		{"cordoned", `{"spec":{"unschedulable":true}}`, "Cordoned"},
		{"tainted", `{"spec":{"taints":[{"key":"dedicated","value":"gpu","effect":"NoSchedule"}]}}`, "Taint"},
		{"serving another logical cluster", `{"spec":{"logicalClusters":["root:a:other"]}}`, "NoCandidateTarget"},
	} {
		// A heartbeat now keeps pc1 Ready for the hub's 40s timeout.
		admin.must("--context", "a", "patch", "synctarget", "pc1", "--subresource", "status", "--type", "merge", "-p", heartbeat(time.Now()))
		admin.must("--context", "a", "patch", "synctarget", "pc1", "--type", "merge", "-p", tc.spec)
		name := fmt.Sprintf("web-%d", i)
		bob.apply("a", placedDeployment(name, "ns1", 1))
		waitUntil(t, 30*time.Second, name+", "+tc.name+", Placed=False "+tc.reason, func() string {
			requests++
			if got := bob.must("--context", "a", "get", "deploy", name, "-n", "ns1", "-o", placed); got != "False "+tc.reason {
				return got
			}
			return ""
		})
		t.Logf("%s: %s", tc.name, bob.must("--context", "a", "get", "deploy", name, "-n", "ns1", "-o", `jsonpath={.status.conditions[?(@.type=="Placed")].message}`))
		admin.must("--context", "a", "patch", "synctarget", "pc1", "--type", "json", "-p", `[{"op":"replace","path":"/spec","value":{}}]`)
		waitUntil(t, 30*time.Second, name+" placed once pc1 takes it", func() string {
			requests++
			if got := bob.must("--context", "a", "get", "deploy", name, "-n", "ns1", "-o", placed); got != " " {
				return got
			}
			return ""
		})
	}
	t.Logf("%d requests", requests)
}
