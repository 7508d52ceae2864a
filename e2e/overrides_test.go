package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// overridesPlacement puts root:org:team's Deployments on every target,
// rewriting the registry for region us and running one replica, labelled
// track=canary, on a canary target.
const overridesPlacement = `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: everywhere}
spec:
  resources: [{group: apps, resource: deployments}]
  strategy: {type: Duplicate}
  overrides:
  - name: us-registry
    targets: {labelSelector: {matchLabels: {region: us}}}
    image: {registry: registry.us.example.com}
  - name: canary
    targets: {expression: "labels['canary'] == 'true'"}
    replicas: 1
    labels: {track: canary}
`

// TestOverrides (issue 20, acceptance 4) places a Deployment of 3
// replicas on two physical clusters, pc1 (region eu, a canary) and pc2
// (region us), with a Placement whose overrides rewrite the registry for
// region us and give the canary one replica: each downstream Deployment
// carries its target's overrides and no other's, the hub object carries
// none, hub placement explain prints each target's final object, a
// change of the rules reaches the targets, and a rule writing the hub's
// own labels is refused with a message saying so. Two physical clusters
// are the fewest that show an override reaching one target and not
// another.
func TestOverrides(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	h, admin, _ := startTeamHub(t, placementHeartbeatTimeout)
	clusters := startClusters(t, "pc1", "pc2")
	_, syncers := registerTargets(t, h, admin, syncerBin, clusters, map[string]string{"pc1": "eu", "pc2": "us"})
	admin.must("--context", "root", "label", "synctarget", "pc1", "canary=true")
	for _, name := range []string{"pc1", "pc2"} {
		syncers[name].waitReady(2 * time.Minute)
	}

	admin.apply("team", overridesPlacement)
	web := placedDeployment("web", "shop", 3)
	admin.apply("team", "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n"+web)
	shop := func(target string) string { return downNS(target, "root:org:team", "shop") }
	want := map[string]string{
		"pc1": "1 nginx:1.27 canary",
		"pc2": "3 registry.us.example.com/nginx:1.27 ",
	}
	for name, w := range want {
		waitFor(t, 2*time.Minute, "web's overrides in "+name, func() (bool, string) {
			got := downstreamDeployment(clusters[name], shop(name), "web")
			return got == w, got
		})
	}
	if got := admin.must("--context", "team", "-n", "shop", "get", "deployment", "web", "-o",
		`jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.metadata.labels.track}`); got != "3 nginx:1.27 " {
		t.Errorf("the hub object carries overrides: %q, want 3 nginx:1.27 and no track label", got)
	}

	// explain prints each target's final object, computed as the syncers
	// do.
	text := runHub(t, h, "placement", "explain", "-f", writeFile(t, web), "--logical-cluster", "root:org:team", "--data-dir", h.dataDir)
	for _, w := range []string{
		"# root/pc1 receives (overrides canary):", "track: canary", "replicas: 1",
		"# root/pc2 receives (overrides us-registry):", "image: registry.us.example.com/nginx:1.27", "replicas: 3",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("hub placement explain does not print %q:\n%s", w, text)
		}
	}

	// A change of the rules reaches the targets: without the canary rule
	// pc1 runs all 3 replicas, and its track label goes.
	admin.must("--context", "team", "patch", "placement", "everywhere", "--type", "json", "-p", `[{"op":"remove","path":"/spec/overrides/1"}]`)
	waitFor(t, 2*time.Minute, "pc1 without the canary rule", func() (bool, string) {
		got := downstreamDeployment(clusters["pc1"], shop("pc1"), "web")
		return got == "3 nginx:1.27 ", got
	})
	if got := downstreamDeployment(clusters["pc2"], shop("pc2"), "web"); got != want["pc2"] {
		t.Errorf("pc2 after the canary rule went: %q, want %q", got, want["pc2"])
	}

	// Rules may not write what the hub and its syncers keep.
	out, err := admin.run("--context", "team", "patch", "placement", "everywhere", "--type", "json", "-p",
		`[{"op":"add","path":"/spec/overrides/-","value":{"name":"steal","labels":{"state.workload.canopy.dev/x":"Sync"},"jsonPatch":[{"op":"replace","path":"/metadata/name","value":"other"}]}}]`)
	if err == nil {
		t.Fatalf("a rule writing an assignment label was stored:\n%s", out)
	}
	for _, w := range []string{"spec.overrides[1]", "only the hub and its syncers write", "/metadata/name names the object"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the refusal does not say %q: %v", w, err)
		}
	}
}

// downstreamDeployment is Deployment name of namespace in physical
// cluster c as "replicas image track-label", or the error reading it.
func downstreamDeployment(c *pcluster.Cluster, namespace, name string) string {
	d, err := c.Client.AppsV1().Deployments(namespace).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d %s %s", *d.Spec.Replicas, d.Spec.Template.Spec.Containers[0].Image, d.Labels["track"])
}
