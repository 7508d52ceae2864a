package e2e

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// gitopsManifests is the directory a team keeps in git: an API of its own
// and an object of it, a namespace, a Deployment and a ConfigMap.
var gitopsManifests = map[string]string{
	"crd.yaml": `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  names: {kind: Gadget, listKind: GadgetList, plural: gadgets, singular: gadget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, minimum: 1}
              color: {type: string, default: blue}
`,
	"namespace.yaml": `apiVersion: v1
kind: Namespace
metadata:
  name: shop
`,
	"gadget.yaml": `apiVersion: example.com/v1
kind: Gadget
metadata:
  name: big
  namespace: shop
spec:
  size: 7
`,
	"deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`,
	"configmap.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: shop
data:
  mode: gitops
`,
}

// artifacts serves tarballs of manifests over HTTP, as Flux's source
// controllers do, and publishes each as the ExternalArtifact "manifests"
// in namespace flux-system: Flux's API for producers of its sources.
type artifacts struct {
	t      *testing.T
	k      kubectl
	server *httptest.Server
	mu     sync.Mutex
	files  map[string][]byte
}

func serveArtifacts(t *testing.T, k kubectl) *artifacts {
	a := &artifacts{t: t, k: k, files: map[string][]byte{}}
	a.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		body, ok := a.files[r.URL.Path]
		a.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(a.server.Close)
	return a
}

// publish makes a tarball of manifests the artifact of revision.
func (a *artifacts) publish(kubeContext, revision string, manifests map[string]string) {
	a.t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	names := make([]string, 0, len(manifests))
	for name := range manifests {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(manifests[name])), Typeflag: tar.TypeReg}); err != nil {
			a.t.Fatal(err)
		}
		if _, err := tw.Write([]byte(manifests[name])); err != nil {
			a.t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		a.t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		a.t.Fatal(err)
	}
	sum := sha256.Sum256(buf.Bytes())
	path := "/" + revision + ".tar.gz"
	a.mu.Lock()
	a.files[path] = buf.Bytes()
	a.mu.Unlock()

	a.k.must("--context", kubeContext, "apply", "--server-side", "-f", writeFile(a.t, `apiVersion: source.toolkit.fluxcd.io/v1
kind: ExternalArtifact
metadata:
  name: manifests
  namespace: flux-system
`))
	now := time.Now().UTC().Format(time.RFC3339)
	url := a.server.URL + path
	a.k.must("--context", kubeContext, "patch", "externalartifact", "manifests", "-n", "flux-system", "--subresource", "status", "--type", "merge", "-p",
		fmt.Sprintf(`{"status":{"artifact":{"path":%q,"url":%q,"revision":%q,"digest":"sha256:%s","lastUpdateTime":%q,"size":%d},`+
			`"conditions":[{"type":"Ready","status":"True","reason":"Succeeded","message":"published %s","lastTransitionTime":%q}]}}`,
			path, url, revision, hex.EncodeToString(sum[:]), now, buf.Len(), revision, now))
}

// startKustomizeController runs Flux's kustomize-controller, built from
// its Go module, as a process whose kubeconfig reaches the logical
// cluster of context and nothing else. It runs alone: its leader election
// takes its namespace from the pod it expects to run in.
func startKustomizeController(t *testing.T, k kubectl, bin, kubeContext string) {
	t.Helper()
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	raw := k.must("config", "view", "--raw", "--minify", "--flatten", "--context", kubeContext)
	if err := os.WriteFile(kubeconfig, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin,
		"--metrics-addr=127.0.0.1:0", "--health-addr=127.0.0.1:0", "--enable-leader-election=false",
		"--feature-gates=ExternalArtifact=true", "--no-remote-bases=true")
	var log bytes.Buffer
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig, "TMPDIR="+t.TempDir(), "RUNTIME_NAMESPACE=flux-system")
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("kustomize-controller's log:\n%s", log.String())
		}
	})
}

// Flux's kustomize-controller, built from its Go module and running with
// root:a's kubeconfig, reconciles a directory of manifests into root:a,
// with Flux's own CRDs installed there: it applies them with server-side
// apply, re-applies them after manual drift, and prunes what is removed
// from the directory. root:b sees nothing of it.
func TestGitopsFlux(t *testing.T) {
	t.Parallel()
	_, k, _ := startHubWith(t, "a", "b")
	tools := builtTool(t, "kustomize-controller")

	// Flux's CRDs, as `flux install` puts them in a cluster.
	k.must("--context", "a", "apply", "--server-side", "-f", tools["crds"])
	k.must("--context", "a", "wait", "--for=condition=Established", "crd", "--all", "--timeout=30s")
	k.must("--context", "a", "create", "namespace", "flux-system")

	source := serveArtifacts(t, k)
	source.publish("a", "rev1", gitopsManifests)
	startKustomizeController(t, k, tools["kustomize-controller"], "a")
	k.apply("a", `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: shop
  namespace: flux-system
spec:
  interval: 3s
  retryInterval: 3s
  timeout: 30s
  prune: true
  path: ./
  sourceRef:
    kind: ExternalArtifact
    name: manifests
`)
	// Health is read from conditions, as Flux and Argo CD read it.
	if _, err := k.runWithin(2*time.Minute, "--context", "a", "wait", "--for=condition=Ready", "kustomization/shop", "-n", "flux-system", "--timeout=110s"); err != nil {
		t.Fatal(err)
	}
	get := func(args ...string) string {
		t.Helper()
		out, err := k.run(append([]string{"--context", "a", "get"}, args...)...)
		if err != nil {
			return err.Error()
		}
		return out
	}
	reconciled := func(what, want string, args ...string) {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		got := get(args...)
		for got != want && time.Now().Before(deadline) {
			time.Sleep(time.Second)
			got = get(args...)
		}
		if got != want {
			t.Fatalf("%s: got %q, want %q", what, got, want)
		}
	}
	// Its printer columns read its Ready condition.
	if got := strings.Fields(get("kustomization", "shop", "-n", "flux-system")); len(got) < 4 || strings.Join(got[len(got)-4:], " ") != "True Applied revision: rev1" {
		t.Errorf("kubectl get kustomization printed %q", got)
	}
	if got := get("deploy/web", "cm/web-config", "gadget/big", "-n", "shop", "-o", "jsonpath={range .items[*]}{.kind}:{.metadata.labels.kustomize\\.toolkit\\.fluxcd\\.io/name};{end}"); got != "Deployment:shop;ConfigMap:shop;Gadget:shop;" {
		t.Errorf("the applied objects are %q", got)
	}
	// The Gadget was applied after its definition, with its default.
	if got := get("gadget/big", "-n", "shop", "-o", "jsonpath={.spec.size} {.spec.color}"); got != "7 blue" {
		t.Errorf("the gadget is %q", got)
	}
	if managers := get("cm/web-config", "-n", "shop", "--show-managed-fields", "-o", "jsonpath={.metadata.managedFields[*].manager}"); !strings.Contains(managers, "kustomize-controller") {
		t.Errorf("kustomize-controller is not a field manager of its ConfigMap: %q", managers)
	}

	// Drift: a managed field changed by hand, and a managed object deleted
	// by hand, are put back by the next reconciliation.
	k.must("--context", "a", "patch", "cm", "web-config", "-n", "shop", "--type", "merge", "-p", `{"data":{"mode":"by-hand"}}`)
	k.must("--context", "a", "scale", "deploy", "web", "-n", "shop", "--replicas", "5")
	k.must("--context", "a", "delete", "gadget", "big", "-n", "shop")
	reconciled("the ConfigMap after drift", "gitops", "cm/web-config", "-n", "shop", "-o", "jsonpath={.data.mode}")
	reconciled("the Deployment after drift", "2", "deploy/web", "-n", "shop", "-o", "jsonpath={.spec.replicas}")
	reconciled("the Gadget after deletion", "7", "gadget/big", "-n", "shop", "-o", "jsonpath={.spec.size}")

	// Prune: the ConfigMap removed from the directory goes, the rest stays.
	pruned := map[string]string{}
	for name, manifest := range gitopsManifests {
		if name != "configmap.yaml" {
			pruned[name] = manifest
		}
	}
	source.publish("a", "rev2", pruned)
	reconciled("the applied revision", "rev2", "kustomization", "shop", "-n", "flux-system", "-o", "jsonpath={.status.lastAppliedRevision}")
	reconciled("the pruned ConfigMap", "", "cm", "-n", "shop", "-l", "kustomize.toolkit.fluxcd.io/name=shop", "-o", "name")
	if got := get("deploy,gadgets", "-n", "shop", "-o", "name"); got != "deployment.apps/web\ngadget.example.com/big\n" {
		t.Errorf("after pruning, namespace shop holds %q", got)
	}

	// root:b has neither Flux nor what it applied.
	for _, args := range [][]string{{"crd", "kustomizations.kustomize.toolkit.fluxcd.io"}, {"crd", "gadgets.example.com"}, {"namespace", "shop"}} {
		if out, err := k.run(append([]string{"--context", "b", "get"}, args...)...); err == nil || !strings.Contains(err.Error(), "NotFound") {
			t.Errorf("root:b has %s: %s %v", strings.Join(args, " "), out, err)
		}
	}
}
