package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
)

// explained is what hub placement explain -o json prints.
type explained struct {
	Placement *struct {
		LogicalCluster string `json:"logicalCluster"`
		Name           string `json:"name"`
		Inherited      bool   `json:"inherited"`
	} `json:"placement"`
	Placed   bool                             `json:"placed"`
	Message  string                           `json:"message"`
	Selected []placementv1alpha1.TargetStatus `json:"selected"`
	Targets  []placementv1alpha1.TargetStatus `json:"targets"`
}

// TestPlacementExplain predicts, with hub placement explain against a
// real hub and without any physical cluster, where a Deployment would go
// before it is created: a placement of root:org:team divides its 6
// replicas over region eu, 3 on pc1 and 3 on pc2, and says pc3 is not in
// eu; with a constraint of root:org allowing only eu, a team placement
// selecting region us places it nowhere, saying Constraint for pc3. The
// Deployment is never created.
func TestPlacementExplain(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	// Heartbeats written once keep the targets Ready for the whole test.
	h, admin, _ := startTeamHub(t, time.Hour)
	for name, region := range map[string]string{"pc1": "eu", "pc2": "eu", "pc3": "us"} {
		admin.apply("root", fmt.Sprintf("apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: %s\n  labels: {region: %s}\n", name, region))
		admin.must("--context", "root", "patch", "synctarget", name, "--subresource", "status", "--type", "merge", "-p", heartbeat(time.Now()))
	}
	admin.apply("team", euPlacement+"---\napiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n")
	web := writeFile(t, placedDeployment("web", "shop", 6))

	// 1. Division, predicted.
	x := explain(t, h, "-f", web, "--logical-cluster", "root:org:team", "--data-dir", h.dataDir, "-o", "json")
	if x.Placement == nil || x.Placement.Name != "eu" || x.Placement.LogicalCluster != "root:org:team" || x.Placement.Inherited {
		t.Errorf("placement %+v, want eu of root:org:team, its own", x.Placement)
	}
	if !x.Placed || x.Message != "" {
		t.Errorf("placed %v, message %q", x.Placed, x.Message)
	}
	if got := explainedShares(x.Selected); got != "pc1=3 pc2=3" {
		t.Errorf("selected %s, want pc1=3 pc2=3", got)
	}
	if r := reasonOf(x, "pc3"); r.Reason != placementv1alpha1.ReasonLabelMismatch || !strings.Contains(r.Message, "region=eu") {
		t.Errorf("pc3: %s %q, want LabelMismatch naming region=eu", r.Reason, r.Message)
	}

	// The same as text, through a kubeconfig's context, whose logical
	// cluster is the default.
	text := runHub(t, h, "placement", "explain", "-f", web, "--kubeconfig", admin.kubeconfig, "--context", "team")
	for _, want := range []string{"Placement:  eu, of root:org:team", "root/pc1 (3 replicas), root/pc2 (3 replicas)", "root/pc3  LabelMismatch"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text explanation lacks %q:\n%s", want, text)
		}
	}

	// 2. Residency, predicted.
	admin.apply("org", euOnlyConstraint)
	admin.apply("team", usPlacement)
	x = explain(t, h, "-f", writeFile(t, placedDeployment("api", "usns", 2)), "--logical-cluster", "root:org:team", "--data-dir", h.dataDir, "-o", "json")
	if x.Placement == nil || x.Placement.Name != "us" {
		t.Errorf("placement %+v, want us", x.Placement)
	}
	if x.Placed || len(x.Selected) != 0 || !strings.Contains(x.Message, "no eligible target") {
		t.Errorf("placed %v on %s, message %q; want nowhere, saying why", x.Placed, explainedShares(x.Selected), x.Message)
	}
	if r := reasonOf(x, "pc3"); r.Reason != placementv1alpha1.ReasonConstraint || !strings.Contains(r.Message, "root:org/eu-only") {
		t.Errorf("pc3: %s %q, want Constraint naming root:org/eu-only", r.Reason, r.Message)
	}
	for _, name := range []string{"pc1", "pc2"} {
		if r := reasonOf(x, name); r.Reason != placementv1alpha1.ReasonLabelMismatch {
			t.Errorf("%s: %s %q, want LabelMismatch", name, r.Reason, r.Message)
		}
	}

	// Explaining wrote nothing.
	if got := admin.must("--context", "team", "get", "deployments", "--all-namespaces", "-o", "name"); got != "" {
		t.Errorf("explaining created %q", got)
	}

	// Errors say what to fix.
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown logical cluster", []string{"-f", web, "--logical-cluster", "root:org:nope", "--data-dir", h.dataDir}, `does not exist: create a LogicalCluster`},
		{"no kind", []string{"-f", writeFile(t, "metadata: {name: x}\n"), "--data-dir", h.dataDir}, "no apiVersion or kind"},
		{"not YAML", []string{"-f", writeFile(t, "kind: [\n"), "--data-dir", h.dataDir}, "is not one object"},
		{"missing file", []string{"-f", filepath.Join(t.TempDir(), "none.yaml"), "--data-dir", h.dataDir}, "no such file"},
		{"unknown kind", []string{"-f", writeFile(t, "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n"), "--data-dir", h.dataDir, "--logical-cluster", "root:org:team"}, "serves no kind Gadget"},
	} {
		out, err := hubCommand(h, append([]string{"placement", "explain"}, tc.args...)...)
		if err == nil || !strings.Contains(out, tc.want) {
			t.Errorf("%s: err %v, output %q; want an error saying %q", tc.name, err, out, tc.want)
		}
	}
}

// explain runs hub placement explain with args, ending in -o json.
func explain(t *testing.T, h *hub, args ...string) explained {
	t.Helper()
	out := runHub(t, h, append([]string{"placement", "explain"}, args...)...)
	var x explained
	if err := json.Unmarshal([]byte(out), &x); err != nil {
		t.Fatalf("the JSON explanation: %v\n%s", err, out)
	}
	return x
}

func runHub(t *testing.T, h *hub, args ...string) string {
	t.Helper()
	out, err := hubCommand(h, args...)
	if err != nil {
		t.Fatalf("hub %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// hubCommand runs the hub binary with args, away from any kubeconfig of
// the user's, and returns its output.
func hubCommand(h *hub, args ...string) (string, error) {
	cmd := exec.Command(h.bin, args...)
	cmd.Env = append(os.Environ(), "HOME="+h.dataDir, "KUBECONFIG=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// explainedShares are the targets of selected as name=replicas, by name.
func explainedShares(selected []placementv1alpha1.TargetStatus) string {
	parts := make([]string, len(selected))
	for i, s := range selected {
		parts[i] = fmt.Sprintf("%s=%d", s.Name, s.Replicas)
	}
	return strings.Join(parts, " ")
}

// reasonOf is the explanation of candidate target name in x.
func reasonOf(x explained, name string) placementv1alpha1.TargetStatus {
	for _, t := range x.Targets {
		if t.Name == name {
			return t
		}
	}
	return placementv1alpha1.TargetStatus{Reason: "missing"}
}
