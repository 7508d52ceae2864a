package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKubeconfigCommands drives `hub kubeconfig` as a user would: the built
// binary edits a kubeconfig that the real kubectl then uses, and the same
// binary answers `kubectl lc` through a kubectl-lc symlink on PATH.
func TestKubeconfigCommands(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	bin := buildHub(t)
	h, k := startHub(t, bin, "")
	run := func(env []string, name string, args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Env = append(k.environ(), env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return stdout.String(), fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
		}
		return stdout.String(), nil
	}
	lc := func(args ...string) (string, error) {
		return run(nil, bin, append([]string{"kubeconfig", "--kubeconfig", k.kubeconfig}, args...)...)
	}
	// expect runs hub kubeconfig and checks all it printed.
	expect := func(want string, args ...string) {
		t.Helper()
		out, err := lc(args...)
		if err != nil {
			t.Fatal(err)
		}
		if out != want {
			t.Fatalf("hub kubeconfig %s printed %q; want %q", strings.Join(args, " "), out, want)
		}
	}
	currentContext := func() string {
		t.Helper()
		return strings.TrimSpace(k.must("config", "current-context"))
	}

	expect("Current logical cluster is root.\n", "current")
	expect("Logical cluster root:a is ready.\nCurrent logical cluster is root:a.\n", "create", "a", "--enter")
	if got := currentContext(); got != "root:a" {
		t.Fatalf("after create --enter, the current context is %q", got)
	}
	if got := k.must("config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}"); got != fmt.Sprintf("https://127.0.0.1:%d/clusters/root:a", h.port) {
		t.Errorf("context root:a points at %q", got)
	}
	// The new logical cluster is set up, and plain kubectl works there.
	if got := strings.Join(strings.Fields(k.must("get", "ns", "-o", "name")), " "); got != "namespace/default namespace/kube-public namespace/kube-system" {
		t.Errorf("root:a has namespaces %q", got)
	}

	// create without --enter stays where it is.
	expect("Logical cluster root:a:child is ready.\n", "create", "child")
	if got := currentContext(); got != "root:a" {
		t.Errorf("after create, the current context is %q", got)
	}
	if got := k.must("get", "logicalcluster", "child", "-o", "jsonpath={.status.phase}"); got != "Ready" {
		t.Errorf("root:a's LogicalCluster child is %q", got)
	}

	expect("Current logical cluster is root.\n", "use", "..")
	expect("Logical cluster root:b is ready.\n", "create", "b")
	expect("root\n├── a\n│   └── child\n└── b\n", "tree")
	expect("Current logical cluster is root:a.\n", "use", "-")
	expect("root:a\n└── child\n", "tree")
	// "-" goes back and forth, as cd - does.
	expect("Current logical cluster is root.\n", "use", "-")
	expect("Current logical cluster is root:a:child.\n", "use", "a:child")
	k.must("create", "configmap", "in-child")
	if got := strings.Join(k.names("root:a:child", "configmaps"), " "); got != "in-child kube-root-ca.crt" {
		t.Errorf("context root:a:child has configmaps %q", got)
	}

	// Nothing is written for a logical cluster that does not exist, and
	// the hub's answer says how to make it.
	if out, err := lc("use", "root:nope"); err == nil || !strings.Contains(err.Error(), "root:nope") || !strings.Contains(err.Error(), "does not exist: create a LogicalCluster") {
		t.Errorf("use root:nope printed %q, %v", out, err)
	}
	if out, err := lc("use", "..:..:.."); err == nil || !strings.Contains(err.Error(), "root has no parent") {
		t.Errorf("use ..:..:.. from root:a:child printed %q, %v", out, err)
	}
	if out, err := lc("create", "Bad"); err == nil || !strings.Contains(err.Error(), "invalid logical cluster name") {
		t.Errorf("create Bad printed %q, %v", out, err)
	}
	if got := currentContext(); got != "root:a:child" {
		t.Errorf("after failed switches, the current context is %q", got)
	}
	expect("Current logical cluster is root:a:child.\n", "current")

	// The same binary as kubectl plugin lc, found by kubectl on PATH and
	// reading the kubeconfig from KUBECONFIG as kubectl does.
	pluginDir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(pluginDir, "kubectl-lc")); err != nil {
		t.Fatal(err)
	}
	pluginEnv := []string{"KUBECONFIG=" + k.kubeconfig, "PATH=" + pluginDir + string(os.PathListSeparator) + os.Getenv("PATH")}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lc", "current"}, "Current logical cluster is root:a:child.\n"},
		{[]string{"lc", "use", ".."}, "Current logical cluster is root:a.\n"},
		{[]string{"lc"}, "Current logical cluster is root:a.\n"},
		{[]string{"lc", "tree"}, "root:a\n└── child\n"},
	} {
		out, err := run(pluginEnv, "kubectl", tc.args...)
		if err != nil {
			t.Fatal(err)
		}
		if out != tc.want {
			t.Errorf("kubectl %s printed %q; want %q", strings.Join(tc.args, " "), out, tc.want)
		}
	}
	if got := strings.Join(k.names("root:a", "configmaps"), " "); got != "kube-root-ca.crt" {
		t.Errorf("root:a has configmaps %q", got)
	}
}
