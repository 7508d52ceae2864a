package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/internal/pgtest"
	"github.com/canopy-dev/canopy/pkg/authorization/bootstrappolicy"
	schedulingv1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/scheduling/v1"
)

// hub is one hub process over a data directory and a datastore that
// outlive it.
type hub struct {
	bin, dataDir string
	// datastore is the --datastore URL; empty means the embedded default.
	datastore string
	// flags are more flags for hub start.
	flags []string
	// env is more environment for the hub process, as OTEL_* variables.
	env  []string
	port int
	// config, when set, is a --config file that sets the data directory
	// and port: the hub is started with it and flags alone.
	config string
	cmd    *exec.Cmd
	// log is what it printed, which a test may read while it runs.
	log lockedBuffer
}

func buildHub(t *testing.T) string { return mustBuild(t, hubBinary) }

var (
	// binDir holds the binaries the tests build; TestMain makes and
	// removes it.
	binDir string
	// hubBinary and syncerBinary build their command once per test
	// binary: linking the hub takes seconds, which each of two dozen tests
	// paid before, and tests only run what is built.
	hubBinary    = buildOnce("github.com/canopy-dev/canopy/cmd/hub")
	syncerBinary = buildOnce("github.com/canopy-dev/canopy/cmd/syncer")
)

func buildOnce(pkg string) func() (string, error) {
	return sync.OnceValues(func() (string, error) {
		bin := filepath.Join(binDir, filepath.Base(pkg))
		if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			return "", fmt.Errorf("building %s: %v\n%s", pkg, err, out)
		}
		return bin, nil
	})
}

func mustBuild(t *testing.T, build func() (string, error)) string {
	t.Helper()
	bin, err := build()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// startHub starts a hub from bin on a data directory of its own, on the
// embedded store when datastore is empty, with more flags for hub start,
// and returns it with a kubectl for the admin whose kubeconfig is a copy
// the test may change freely.
func startHub(t *testing.T, bin, datastore string, flags ...string) (*hub, kubectl) {
	t.Helper()
	h := &hub{bin: bin, dataDir: t.TempDir(), datastore: datastore, port: freePort(t), flags: flags}
	h.start(t)
	return h, h.admin(t)
}

// admin is a kubectl for the admin of h, whose kubeconfig is a copy of
// the one h wrote, which the test may change freely.
func (h *hub) admin(t *testing.T) kubectl {
	t.Helper()
	k := kubectl{t: t, kubeconfig: filepath.Join(t.TempDir(), "kubeconfig"), home: t.TempDir()}
	admin, err := os.ReadFile(filepath.Join(h.dataDir, "admin.kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(k.kubeconfig, admin, 0o600); err != nil {
		t.Fatal(err)
	}
	return k
}

// startHubWith starts a hub on the embedded store, for the real kubectl,
// with logical clusters root:<name> for each of names, and returns it with
// the admin's kubectl, given addContexts's contexts, and the hub's pki
// directory.
func startHubWith(t *testing.T, names ...string) (*hub, kubectl, string) {
	t.Helper()
	return startHubFlags(t, nil, names...)
}

// startHubFlags is startHubWith with more flags for hub start.
func startHubFlags(t *testing.T, flags []string, names ...string) (*hub, kubectl, string) {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	h, admin := startHub(t, buildHub(t), "", flags...)
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	for _, name := range names {
		admin.createLogicalCluster("root", name)
	}
	return h, admin, pki
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (h *hub) start(t *testing.T) {
	t.Helper()
	h.launch(t)
	h.waitReady(t)
}

// launch starts the hub process without waiting for it to serve.
func (h *hub) launch(t *testing.T) {
	t.Helper()
	h.log.Reset()
	h.cmd = exec.Command(h.bin, h.args()...)
	h.cmd.Env = append(os.Environ(), h.env...)
	h.cmd.Stdout, h.cmd.Stderr = &h.log, &h.log
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.stop(t) })
}

// args are the arguments of h's hub start.
func (h *hub) args() []string {
	args := []string{"start", "--data-dir", h.dataDir, "--secure-port", strconv.Itoa(h.port)}
	if h.datastore != "" {
		args = append(args, "--datastore", h.datastore)
	}
	if h.config != "" {
		args = []string{"start", "--config", h.config}
	}
	return append(args, h.flags...)
}

func (h *hub) stop(t *testing.T) {
	if h.cmd == nil {
		return
	}
	_ = h.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() {
		_ = h.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = h.cmd.Process.Kill()
		<-done
		t.Errorf("the hub did not stop within 15s of an interrupt")
	}
	h.cmd = nil
	h.keepLog(t)
}

// keepLog writes what h printed to a file that outlives the test, when
// the test failed: the data directory goes with the test, and a failure
// that depends on timing is seldom seen twice.
func (h *hub) keepLog(t *testing.T) {
	if !t.Failed() {
		return
	}
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	f, err := os.CreateTemp("", fmt.Sprintf("canopy-e2e-%s-hub-%d-*.log", name, h.port))
	if err != nil {
		t.Logf("keeping the hub's log: %v", err)
		return
	}
	defer f.Close()
	_, _ = f.WriteString(h.log.String())
	t.Logf("the output of the hub on port %d is kept in %s", h.port, f.Name())
}

// waitReady polls /readyz as the admin, which also proves the generated
// CA, serving and client certificates fit together.
func (h *hub) waitReady(t *testing.T) {
	t.Helper()
	pki := filepath.Join(h.dataDir, "pki")
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := h.readyz(pki)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub is not ready after 30s: %v\n%s", err, h.log.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// adminClient talks HTTPS to the hub as admin with the certificates in pki.
func adminClient(pki string) (*http.Client, error) {
	caPEM, err := os.ReadFile(filepath.Join(pki, "ca.crt"))
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	admin, err := tls.LoadX509KeyPair(filepath.Join(pki, "admin.crt"), filepath.Join(pki, "admin.key"))
	if err != nil {
		return nil, err
	}
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{admin}},
	}}, nil
}

func (h *hub) readyz(pki string) error {
	client, err := adminClient(pki)
	if err != nil {
		return err
	}
	resp, err := client.Get(fmt.Sprintf("https://127.0.0.1:%d/readyz", h.port))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("/readyz: %s", resp.Status)
	}
	return nil
}

// kubectl runs the real kubectl with its own home, so that no cache or
// config of the machine's user plays a part.
type kubectl struct {
	t          *testing.T
	kubeconfig string
	home       string
	// bin is the kubectl binary; empty means the one on PATH.
	bin string
	// env is more environment for kubectl, as KUBECTL_APPLYSET.
	env []string
}

func (k kubectl) binary() string {
	if k.bin == "" {
		return "kubectl"
	}
	return k.bin
}

// environ is the environment kubectl runs with: the test's, with k's own
// home and env.
func (k kubectl) environ() []string {
	return append(os.Environ(), append([]string{"HOME=" + k.home}, k.env...)...)
}

func (k kubectl) run(args ...string) (string, error) {
	return k.runWithin(20*time.Second, args...)
}

// runWithin runs kubectl, killing it after timeout, for commands that
// wait themselves, as rollout status.
func (k kubectl) runWithin(timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, k.binary(), append([]string{"--kubeconfig", k.kubeconfig}, args...)...)
	cmd.Env = k.environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String(), fmt.Errorf("kubectl %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

func (k kubectl) must(args ...string) string {
	k.t.Helper()
	out, err := k.run(args...)
	if err != nil {
		k.t.Fatal(err)
	}
	return out
}

// start runs kubectl in the background until it has printed a first
// line; the function it returns stops it and returns what it printed.
func (k kubectl) start(args ...string) func() string {
	k.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, k.binary(), append([]string{"--kubeconfig", k.kubeconfig}, args...)...)
	cmd.Env = k.environ()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		k.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		k.t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			lines <- scanner.Text()
		}
	}()
	var out []string
	select {
	case line, ok := <-lines:
		if ok {
			out = append(out, line)
		}
	case <-time.After(15 * time.Second):
		k.t.Errorf("kubectl %s printed nothing in 15s", strings.Join(args, " "))
	}
	return func() string {
		cancel()
		for line := range lines {
			out = append(out, line)
		}
		_ = cmd.Wait()
		return strings.Join(out, "\n")
	}
}

// names lists the names of a resource in a context.
func (k kubectl) names(context, resource string) []string {
	k.t.Helper()
	out := strings.Fields(k.must("--context", context, "get", resource, "-o", "name"))
	for i, n := range out {
		out[i] = n[strings.Index(n, "/")+1:]
	}
	return out
}

// datastores are the stores every end-to-end test runs on: the embedded
// default, and a PostgreSQL database of its own.
var datastores = []struct {
	name string
	url  func(t *testing.T) string
}{
	{"sqlite", func(*testing.T) string { return "" }},
	{"postgres", func(t *testing.T) string { return pgtest.Shared(t).NewDatabase(t) }},
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "canopy-e2e-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	pgtest.Main(m, func() { os.RemoveAll(dir) })
}

// onEachDatastore runs test once per datastore, in a subtest with a hub
// of its own and the admin's kubectl.
func onEachDatastore(t *testing.T, test func(t *testing.T, h *hub, k kubectl)) {
	t.Helper()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	bin := buildHub(t)
	for _, ds := range datastores {
		t.Run(ds.name, func(t *testing.T) {
			h, k := startHub(t, bin, ds.url(t))
			test(t, h, k)
		})
	}
}

func TestHubLogicalClusters(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, testHubLogicalClusters)
}

func testHubLogicalClusters(t *testing.T, h *hub, k kubectl) {
	// The generated kubeconfig reaches root, whose namespaces exist.
	if got := k.must("config", "view", "--minify", "-o", "jsonpath={.clusters[0].cluster.server}"); got != fmt.Sprintf("https://127.0.0.1:%d/clusters/root", h.port) {
		t.Fatalf("admin kubeconfig points at %q", got)
	}
	if got := strings.Join(k.names("root", "namespaces"), " "); got != "default kube-public kube-system" {
		t.Fatalf("root has namespaces %q", got)
	}

	// Contexts for more logical clusters, as a user would add them.
	ca := filepath.Join(h.dataDir, "pki", "ca.crt")
	for context, path := range map[string]string{"a": "root:a", "b": "root:b", "child": "root:a:child", "nope": "root:nope"} {
		server := fmt.Sprintf("https://127.0.0.1:%d/clusters/%s", h.port, path)
		k.must("config", "set-cluster", context, "--server", server, "--certificate-authority", ca, "--embed-certs")
		k.must("config", "set-context", context, "--cluster", context, "--user", "admin")
	}

	// Logical clusters are made with LogicalClusters in their parent.
	k.createLogicalCluster("root", "a")
	k.createLogicalCluster("root", "b")
	k.createLogicalCluster("a", "child")
	table := k.must("--context", "root", "get", "logicalclusters")
	if header := strings.Fields(strings.Split(table, "\n")[0]); strings.Join(header, " ") != "NAME PHASE URL AGE" {
		t.Errorf("kubectl get logicalclusters printed:\n%s", table)
	}
	for _, name := range []string{"a", "b"} {
		want := fmt.Sprintf("%s Ready https://127.0.0.1:%d/clusters/root:%s", name, h.port, name)
		if !strings.Contains(strings.Join(strings.Fields(table), " "), want) {
			t.Errorf("kubectl get logicalclusters lacks %q:\n%s", want, table)
		}
	}
	if got := k.must("--context", "a", "get", "logicalcluster", "child", "-o", "jsonpath={.status.url}"); got != fmt.Sprintf("https://127.0.0.1:%d/clusters/root:a:child", h.port) {
		t.Errorf("root:a:child has URL %q", got)
	}
	if got := strings.Join(k.names("child", "namespaces"), " "); got != "default kube-public kube-system" {
		t.Errorf("root:a:child has namespaces %q", got)
	}
	k.must("--context", "child", "create", "configmap", "in-child")
	k.must("--context", "child", "create", "secret", "generic", "in-child", "--from-literal", "k=v")
	for _, context := range []string{"a", "b", "child"} {
		testKubectlFlow(t, k, context)
	}

	// A logical cluster nobody made is not there, and the answer says how
	// to make it.
	if out, err := k.run("--context", "nope", "get", "configmaps"); err == nil {
		t.Errorf("kubectl in root:nope got %q", out)
	}
	client, err := adminClient(filepath.Join(h.dataDir, "pki"))
	if err != nil {
		t.Fatal(err)
	}
	status, code := getStatus(t, client, fmt.Sprintf("https://127.0.0.1:%d/clusters/root:nope/api/v1/namespaces/default/configmaps", h.port))
	if code != http.StatusNotFound || status.Reason != metav1.StatusReasonNotFound ||
		!strings.Contains(status.Message, `logical cluster "root:nope" does not exist: create a LogicalCluster (tenancy.canopy.dev/v1alpha1) named "nope" in logical cluster "root"`) {
		t.Errorf("root:nope got %d, %+v", code, status)
	}
	if _, code := getStatus(t, client, fmt.Sprintf("https://127.0.0.1:%d/clusters/root:nope:child/api", h.port)); code != http.StatusNotFound {
		t.Errorf("root:nope:child got %d", code)
	}

	k.must("--context", "a", "create", "configmap", "shared-name", "--from-literal", "cluster=a")
	k.must("--context", "a", "create", "configmap", "only-in-a")
	k.must("--context", "b", "create", "configmap", "shared-name", "--from-literal", "cluster=b")

	if got := strings.Join(k.names("a", "cm"), " "); got != "kube-root-ca.crt only-in-a shared-name" {
		t.Errorf("root:a has configmaps %q", got)
	}
	if got := strings.Join(k.names("b", "cm"), " "); got != "kube-root-ca.crt shared-name" {
		t.Errorf("root:b has configmaps %q", got)
	}
	if got := strings.Join(k.names("root", "cm"), " "); got != "kube-root-ca.crt" {
		t.Errorf("root has configmaps %q", got)
	}
	if got := k.must("--context", "b", "get", "cm", "shared-name", "-o", "jsonpath={.data.cluster}"); got != "b" {
		t.Errorf("root:b's shared-name holds cluster=%q", got)
	}
	yaml := k.must("--context", "a", "get", "cm", "shared-name", "-o", "yaml")
	for _, want := range []string{"kind: ConfigMap", "name: shared-name", "cluster: a", "canopy.dev/cluster: root:a"} {
		if !strings.Contains(yaml, want) {
			t.Errorf("kubectl get -o yaml lacks %q:\n%s", want, yaml)
		}
	}
	// The columns are the server's table, as for Kubernetes' configmaps.
	if table := k.must("--context", "a", "get", "cm"); !strings.HasPrefix(table, "NAME") || !strings.Contains(strings.Split(table, "\n")[0], "DATA") {
		t.Errorf("kubectl get cm printed:\n%s", table)
	}

	// A client cannot move an object to another cluster through the
	// annotation.
	k.must("--context", "b", "annotate", "cm", "shared-name", "--overwrite", "canopy.dev/cluster=root:a")
	if got := k.must("--context", "b", "get", "cm", "shared-name", "-o", `jsonpath={.metadata.annotations.canopy\.dev/cluster}`); got != "root:b" {
		t.Errorf("after annotating, root:b's object says it is in %q", got)
	}
	if got := strings.Join(k.names("a", "cm"), " "); got != "kube-root-ca.crt only-in-a shared-name" {
		t.Errorf("after annotating in root:b, root:a has configmaps %q", got)
	}

	// A bad logical cluster name is refused with a Status saying why.
	k.must("config", "set-cluster", "bad", "--server", fmt.Sprintf("https://127.0.0.1:%d/clusters/root:Bad", h.port), "--certificate-authority", ca, "--embed-certs")
	k.must("config", "set-context", "bad", "--cluster", "bad", "--user", "admin")
	if out, err := k.run("--context", "bad", "get", "configmaps"); err == nil || !strings.Contains(err.Error(), "BadRequest") {
		t.Errorf("kubectl in a bad cluster name got %q, %v", out, err)
	}
	status, code = getStatus(t, client, fmt.Sprintf("https://127.0.0.1:%d/clusters/root:Bad/api", h.port))
	if code != http.StatusBadRequest || !strings.Contains(status.Message, `invalid logical cluster name "root:Bad"`) {
		t.Errorf("a bad cluster name got %d, %+v", code, status)
	}

	k.must("--context", "a", "delete", "configmap", "only-in-a")
	if got := strings.Join(k.names("a", "cm"), " "); got != "kube-root-ca.crt shared-name" {
		t.Errorf("after delete, root:a has configmaps %q", got)
	}
	if got := strings.Join(k.names("b", "cm"), " "); got != "kube-root-ca.crt shared-name" {
		t.Errorf("after deleting in root:a, root:b has configmaps %q", got)
	}

	// Everything survives a restart on the same data directory, which
	// also reuses the certificates the kubeconfig embeds.
	h.stop(t)
	h.start(t)
	if got := strings.Join(k.names("a", "cm"), " "); got != "kube-root-ca.crt shared-name" {
		t.Errorf("after restart, root:a has configmaps %q", got)
	}
	if got := k.must("--context", "b", "get", "cm", "shared-name", "-o", "jsonpath={.data.cluster}"); got != "b" {
		t.Errorf("after restart, root:b's shared-name holds cluster=%q", got)
	}
	if got := strings.Join(k.names("a", "namespaces"), " "); got != "default kube-public kube-system" {
		t.Errorf("after restart, root:a has namespaces %q", got)
	}

	// Deleting root:a removes its data and root:a:child's, and nothing
	// of root:b's.
	watch := k.start("--context", "root", "get", "logicalcluster", "a", "--watch", "-o", `jsonpath={.status.phase}: {.status.message}{"\n"}`)
	k.must("--context", "root", "delete", "logicalcluster", "a", "--wait=false")
	k.must("--context", "root", "wait", "--for=delete", "logicalcluster/a", "--timeout=15s")
	// The deletion's progress was in the status on the way: root:a
	// waited for root:a:child. Its objects are 3 namespaces, a
	// configmap, the default ServiceAccount and kube-root-ca.crt
	// ConfigMap of each namespace, and the ClusterRoles,
	// ClusterRoleBindings and system PriorityClasses every logical
	// cluster starts with.
	progress := watch()
	removed := 4 + 3*2 + len(bootstrappolicy.ClusterRoles()) + len(bootstrappolicy.ClusterRoleBindings()) + len(schedulingv1.SystemPriorityClasses())
	if !strings.Contains(progress, fmt.Sprintf("Terminating: removed %d objects; waiting for the deletion of 1 logicalclusters.tenancy.canopy.dev", removed)) {
		t.Errorf("while root:a was deleted, its status read:\n%s", progress)
	}
	for _, context := range []string{"a", "child"} {
		if out, err := k.run("--context", context, "get", "configmaps"); err == nil {
			t.Errorf("after deleting root:a, kubectl in %s got %q", context, out)
		}
	}
	if got := k.must("--context", "b", "get", "cm", "shared-name", "-o", "jsonpath={.data.cluster}"); got != "b" {
		t.Errorf("after deleting root:a, root:b's shared-name holds cluster=%q", got)
	}
	if got := strings.Join(k.names("b", "namespaces"), " "); got != "default kube-public kube-system" {
		t.Errorf("after deleting root:a, root:b has namespaces %q", got)
	}
	// A logical cluster made again under the same name starts empty:
	// nothing of the old root:a or root:a:child is left in storage, but
	// for what every namespace gets anew.
	k.createLogicalCluster("root", "a")
	for resource, want := range map[string]string{
		"namespaces": "default kube-public kube-system", "configmaps": "kube-root-ca.crt", "secrets": "", "logicalclusters": "",
		"clusterroles":        defaultNames(bootstrappolicy.ClusterRoles()),
		"clusterrolebindings": defaultNames(bootstrappolicy.ClusterRoleBindings()),
	} {
		if got := strings.Join(k.names("a", resource), " "); got != want {
			t.Errorf("root:a made again has %s %q", resource, got)
		}
	}
	k.createLogicalCluster("a", "child")
	for resource, want := range map[string]string{"configmaps": "kube-root-ca.crt", "secrets": ""} {
		if got := strings.Join(k.names("child", resource), " "); got != want {
			t.Errorf("root:a:child made again has %s %q", resource, got)
		}
	}
}

// defaultNames are the names of a logical cluster's default RBAC objects,
// as kubectl lists them.
func defaultNames[T metav1.Object](objs []T) string {
	var names []string
	for _, o := range objs {
		names = append(names, o.GetName())
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

// createLogicalCluster creates LogicalCluster name in the logical cluster
// of a kubectl context, as a user would from a file, and waits until it
// is ready.
func (k kubectl) createLogicalCluster(context, name string) {
	k.t.Helper()
	file := filepath.Join(k.t.TempDir(), name+".yaml")
	manifest := "apiVersion: tenancy.canopy.dev/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: " + name + "\n"
	if err := os.WriteFile(file, []byte(manifest), 0o600); err != nil {
		k.t.Fatal(err)
	}
	k.must("--context", context, "create", "-f", file)
	k.must("--context", context, "wait", "--for=jsonpath={.status.phase}=Ready", "logicalcluster/"+name, "--timeout=15s")
}

// getStatus GETs url and decodes the Status it answers with.
func getStatus(t *testing.T, client *http.Client, url string) (metav1.Status, int) {
	t.Helper()
	return sendStatus(t, client, http.MethodGet, url, "")
}

// sendStatus sends a request with a JSON body, a merge patch for PATCH,
// and decodes the Status it answers with.
func sendStatus(t *testing.T, client *http.Client, method, url, body string) (metav1.Status, int) {
	t.Helper()
	status, code, raw := send(t, client, method, url, body)
	if status.Kind != "Status" {
		t.Errorf("%s %s: %d answered %s; want a Status", method, url, code, raw)
	}
	return status, code
}

// send sends a request with a JSON body, a merge patch for PATCH, and
// returns the answer's code and body, decoded as a Status if it is one.
func send(t *testing.T, client *http.Client, method, url, body string) (metav1.Status, int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if method == http.MethodPatch {
		req.Header.Set("Content-Type", "application/merge-patch+json")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var status metav1.Status
	_ = json.Unmarshal(raw, &status)
	return status, resp.StatusCode, raw
}
