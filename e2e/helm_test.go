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

// helm runs the real Helm, built from its Go module, with the admin's
// kubeconfig and homes of its own.
type helm struct {
	t          *testing.T
	bin        string
	kubeconfig string
	env        []string
	// timeout bounds each run; zero means a minute.
	timeout time.Duration
}

// newHelm is the helm that component of hack/tools/build.sh builds.
func newHelm(t *testing.T, k kubectl, component string) helm {
	t.Helper()
	home := t.TempDir()
	return helm{t: t, bin: builtTool(t, component)["helm"], kubeconfig: k.kubeconfig, env: append(os.Environ(),
		"HOME="+home,
		"HELM_CACHE_HOME="+filepath.Join(home, "cache"),
		"HELM_CONFIG_HOME="+filepath.Join(home, "config"),
		"HELM_DATA_HOME="+filepath.Join(home, "data"),
	)}
}

// run runs helm in the logical cluster of kubeContext, in namespace
// default.
func (h helm) run(kubeContext string, args ...string) (string, error) {
	timeout := h.timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.bin, append([]string{"--kubeconfig", h.kubeconfig, "--kube-context", kubeContext, "--namespace", "default"}, args...)...)
	cmd.Env = h.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("helm %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

func (h helm) must(kubeContext string, args ...string) string {
	h.t.Helper()
	out, err := h.run(kubeContext, args...)
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// Helm 3 and Helm 4, built from their Go modules, install, upgrade, roll
// back and uninstall a chart with a CustomResourceDefinition, one of its
// objects, a Deployment, a Service and a ConfigMap in root:a, through a
// kubeconfig context whose server is root:a's URL; root:b sees none of
// it. Helm 3 changes objects with three-way strategic merge patches (merge
// patches for custom resources), Helm 4 with server-side apply.
//
// --wait is not used: nothing runs workloads at the hub (no syncer here),
// so the Deployment never becomes available and helm would wait forever.
func TestHelm(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ component, operation string }{{"helm", "Update"}, {"helm4", "Apply"}} {
		t.Run(c.component, func(t *testing.T) { testHelm(t, c.component, c.operation) })
	}
}

// testHelm drives the helm of component, whose writes are managedFields
// operations of kind operation.
func testHelm(t *testing.T, component, operation string) {
	_, k, _ := startHubWith(t, "a", "b")
	h := newHelm(t, k, component)
	chart := filepath.Join("testdata", "helm", "gadgets")
	get := func(resource, jsonpath string) string {
		t.Helper()
		return k.must("--context", "a", "get", resource, "-n", "default", "-o", "jsonpath="+jsonpath)
	}
	// state is the release's objects in root:a as one line.
	state := func() string {
		t.Helper()
		return strings.Join([]string{
			get("deploy/shop-web", "{.spec.replicas} {.spec.template.spec.containers[0].image}"),
			get("cm/shop-config", "{.data.mode}"),
			get("gadget/shop-gadget", "{.spec.size} {.spec.color}"),
			get("svc/shop-web", "{.spec.type} {.spec.ports[0].port}"),
		}, "; ")
	}
	nothingInB := func(step string) {
		t.Helper()
		if out, err := k.run("--context", "b", "get", "crd", "gadgets.example.com"); err == nil || !strings.Contains(err.Error(), "NotFound") {
			t.Errorf("after %s, root:b has root:a's definition: %s %v", step, out, err)
		}
		if left := k.must("--context", "b", "get", "deploy,svc,cm,secrets", "-n", "default", "-o", "name"); strings.Contains(left, "shop") {
			t.Errorf("after %s, root:b has: %s", step, left)
		}
		if list := h.must("b", "list", "-q"); list != "" {
			t.Errorf("after %s, helm list in root:b printed %q", step, list)
		}
	}

	install := h.must("a", "install", "shop", chart)
	if !strings.Contains(install, "STATUS: deployed") || !strings.Contains(install, "REVISION: 1") {
		t.Errorf("helm install printed:\n%s", install)
	}
	k.must("--context", "a", "wait", "--for=condition=Established", "crd/gadgets.example.com", "--timeout=10s")
	// The Gadget's color is its schema's default.
	if got := state(); got != "2 nginx:1.25; initial; 3 blue; ClusterIP 80" {
		t.Errorf("after helm install: %s", got)
	}
	// The release is Helm's Secret in the namespace.
	if got := k.must("--context", "a", "get", "secrets", "-n", "default", "-l", "owner=helm,name=shop", "-o", "jsonpath={.items[*].metadata.labels.status}"); got != "deployed" {
		t.Errorf("helm's release secrets have statuses %q", got)
	}
	nothingInB("helm install")

	// A change made outside Helm to a field the chart does not set
	// survives the upgrade.
	k.must("--context", "a", "annotate", "deploy", "shop-web", "-n", "default", "team=shop")
	k.must("--context", "a", "label", "gadget", "shop-gadget", "-n", "default", "tier=gold")
	upgrade := h.must("a", "upgrade", "shop", chart, "--set", "replicas=3,image=nginx:1.26,mode=upgraded,gadgetSize=5")
	if !strings.Contains(upgrade, "STATUS: deployed") || !strings.Contains(upgrade, "REVISION: 2") {
		t.Errorf("helm upgrade printed:\n%s", upgrade)
	}
	if got := state(); got != "3 nginx:1.26; upgraded; 5 blue; ClusterIP 80" {
		t.Errorf("after helm upgrade: %s", got)
	}
	if got := get("deploy/shop-web", "{.metadata.annotations.team}") + " " + get("gadget/shop-gadget", "{.metadata.labels.tier}"); got != "shop gold" {
		t.Errorf("helm upgrade dropped changes made outside it: %q", got)
	}
	for _, object := range []string{"deploy/shop-web", "gadget/shop-gadget"} {
		if got := get(object, `{.metadata.managedFields[?(@.manager=="helm")].operation}`); got != operation {
			t.Errorf("helm's managedFields of %s are of operation %q, want %s", object, got, operation)
		}
	}
	if got := h.must("a", "get", "values", "shop", "-o", "json"); got != `{"gadgetSize":5,"image":"nginx:1.26","mode":"upgraded","replicas":3}`+"\n" {
		t.Errorf("helm get values printed %q", got)
	}

	rollback := h.must("a", "rollback", "shop", "1")
	if !strings.Contains(rollback, "Rollback was a success") {
		t.Errorf("helm rollback printed:\n%s", rollback)
	}
	if got := state(); got != "2 nginx:1.25; initial; 3 blue; ClusterIP 80" {
		t.Errorf("after helm rollback: %s", got)
	}
	status := h.must("a", "status", "shop")
	for _, want := range []string{"NAME: shop", "NAMESPACE: default", "STATUS: deployed", "REVISION: 3"} {
		if !strings.Contains(status, want) {
			t.Errorf("helm status lacks %q:\n%s", want, status)
		}
	}
	history := h.must("a", "history", "shop")
	for _, want := range []string{"1 superseded gadgets-0.1.0 1.25 Install complete", "2 superseded gadgets-0.1.0 1.25 Upgrade complete", "3 deployed gadgets-0.1.0 1.25 Rollback to 1"} {
		found := false
		for _, line := range strings.Split(history, "\n") {
			fields := strings.Fields(line)
			// REVISION UPDATED(5 fields) STATUS CHART APP VERSION DESCRIPTION
			if len(fields) > 6 && strings.Join(append(fields[:1:1], fields[6:]...), " ") == want {
				found = true
			}
		}
		if !found {
			t.Errorf("helm history lacks %q:\n%s", want, history)
		}
	}
	nothingInB("helm rollback")

	uninstall := h.must("a", "uninstall", "shop")
	if !strings.Contains(uninstall, `release "shop" uninstalled`) {
		t.Errorf("helm uninstall printed:\n%s", uninstall)
	}
	if left := k.must("--context", "a", "get", "deploy,svc,cm,gadgets", "-n", "default", "-o", "name"); strings.Contains(left, "shop") {
		t.Errorf("after helm uninstall, root:a has:\n%s", left)
	}
	// As in any cluster, Helm leaves the definitions of crds/ in place.
	k.must("--context", "a", "get", "crd", "gadgets.example.com")
	if list := h.must("a", "list", "-q"); list != "" {
		t.Errorf("after helm uninstall, helm list printed %q", list)
	}
	nothingInB("helm uninstall")
}
