package pcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Node is a kwok-simulated node a cluster starts with.
type Node struct {
	Name string
	// Labels are set on the node besides kwok's own, e.g. region and zone.
	Labels map[string]string
}

// Options shape a cluster.
type Options struct {
	// Nodes are Ready when Start returns.
	Nodes []Node
	// Audit has the kube-apiserver log every request, at level Metadata,
	// to Cluster.AuditLog: the record of what a client asked.
	Audit bool
	// MetricsServer runs metrics-server next to the cluster, registered
	// as the metrics.k8s.io APIService, scraping what kwok simulates:
	// each container uses the CPU and memory its pod's annotations
	// kwok.x-k8s.io/usage-cpu and kwok.x-k8s.io/usage-memory say (see
	// UsageAnnotations), so `kubectl top` reads constant values.
	MetricsServer bool
}

// UsageAnnotations are the annotations that make kwok report a pod's
// containers each using cpu and memory (quantities, e.g. "250m", "64Mi")
// to metrics-server.
func UsageAnnotations(cpu, memory string) map[string]string {
	return map[string]string{"kwok.x-k8s.io/usage-cpu": cpu, "kwok.x-k8s.io/usage-memory": memory}
}

// Cluster is a running physical cluster.
type Cluster struct {
	Name string
	// Kubeconfig is the path of a kubeconfig for the cluster's admin.
	Kubeconfig string
	Config     *rest.Config
	Client     kubernetes.Interface
	// Nodes are the nodes of Options, as the cluster reported them Ready.
	Nodes []corev1.Node
	// PodLogs is the file kwok serves as the log of every container of
	// every pod; WritePodLog appends to it.
	PodLogs string
	// PIDs are the cluster's processes by component name.
	PIDs map[string]int
	// AuditLog is the kube-apiserver's audit log, one JSON event a line,
	// with Options.Audit; see AuditEvents.
	AuditLog string

	workdir string
}

// PullFailingImage is an image whose pull fails in every cluster: a pod
// with a container of it stays Pending, the container waiting in
// ImagePullBackOff and the pod never Ready, as with an image that does
// not exist. No other image behaves differently from kwok's defaults.
const PullFailingImage = "pull-fails.invalid/canopy/bad:1"

// pullFailingStage is the kwok Stage of PullFailingImage. Its weight
// makes kwok pick it over its default pod-ready stage (weight 0), which
// matches the same Pending pods. The status has no timestamps, so
// applying it again writes nothing and ends the stage's loop.
var pullFailingStage = map[string]any{
	"apiVersion": "kwok.x-k8s.io/v1alpha1",
	"kind":       "Stage",
	"metadata":   map[string]any{"name": "pod-image-pull-fails"},
	"spec": map[string]any{
		"resourceRef": map[string]any{"apiGroup": "v1", "kind": "Pod"},
		"selector": map[string]any{"matchExpressions": []map[string]any{
			{"key": ".metadata.deletionTimestamp", "operator": "DoesNotExist"},
			{"key": ".status.phase", "operator": "In", "values": []string{"Pending"}},
			{"key": ".spec.containers.[].image", "operator": "In", "values": []string{PullFailingImage}},
		}},
		"weight": 1,
		"next": map[string]any{"statusTemplate": `conditions:
- {type: Initialized, status: "True"}
- {type: Ready, status: "False", reason: ContainersNotReady}
- {type: ContainersReady, status: "False", reason: ContainersNotReady}
containerStatuses:
{{ range .spec.containers }}
- image: {{ .image | Quote }}
  name: {{ .name | Quote }}
  ready: false
  started: false
  restartCount: 0
  state:
    waiting:
      reason: ImagePullBackOff
      message: {{ printf "Back-off pulling image %q" .image | Quote }}
{{ end }}
phase: Pending
`},
	},
}

// startTimeout bounds creating a cluster up to Ready nodes; several
// clusters start side by side on two cores.
const startTimeout = 3 * time.Minute

// Start creates a cluster for the test and stops it, checking that none
// of its processes is left, when the test ends. Clusters of one test, or
// of tests running in parallel, run side by side.
func Start(t testing.TB, name string, opts Options) *Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	c, err := Create(ctx, t.TempDir(), name, opts)
	if err != nil {
		t.Fatalf("starting physical cluster %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.Stop(ctx); err != nil {
			t.Errorf("stopping physical cluster %s: %v", name, err)
		}
	})
	return c
}

// Create starts cluster name with kwokctl's state under workdir, which may
// hold other clusters. A cluster that fails to come up is deleted again.
func Create(ctx context.Context, workdir, name string, opts Options) (*Cluster, error) {
	bins, err := EnsureBinaries()
	if err != nil {
		return nil, err
	}
	c := &Cluster{Name: name, workdir: workdir}
	if err := c.create(ctx, bins, opts); err != nil {
		stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if stopErr := Stop(stopCtx, workdir, name); stopErr != nil {
			err = fmt.Errorf("%w; and deleting it again: %v", err, stopErr)
		}
		return nil, err
	}
	return c, nil
}

func (c *Cluster) create(ctx context.Context, bins Binaries, opts Options) error {
	if err := os.MkdirAll(c.workdir, 0o755); err != nil {
		return err
	}
	dir := clusterDir(c.workdir, c.Name)
	c.Kubeconfig = filepath.Join(dir, "kubeconfig.yaml")
	// Beside, not inside, the cluster directory: kwokctl wants to create
	// that itself.
	c.PodLogs = filepath.Join(c.workdir, c.Name+".pod.log")
	if err := os.WriteFile(c.PodLogs, nil, 0o644); err != nil {
		return err
	}
	auditPolicy := ""
	if opts.Audit {
		auditPolicy = filepath.Join(c.workdir, c.Name+".audit-policy.yaml")
		if err := os.WriteFile(auditPolicy, []byte(auditPolicyMetadata), 0o644); err != nil {
			return err
		}
		c.AuditLog = filepath.Join(dir, "logs", "audit.log")
	}
	// kwokctl writes kwok's default stages into the configuration it
	// gives the kwok-controller, and none if its own configuration has
	// any; a second configuration file adds to them.
	stages := filepath.Join(c.workdir, c.Name+".stages.yaml")
	data, err := json.Marshal(pullFailingStage)
	if err != nil {
		return err
	}
	if err := os.WriteFile(stages, data, 0o644); err != nil {
		return err
	}
	var metrics *MetricsServer
	if opts.MetricsServer {
		ms, err := EnsureMetricsServer()
		if err != nil {
			return err
		}
		metrics = &ms
	}
	config, err := kwokctlConfig(bins, c.PodLogs, auditPolicy, stages, metrics)
	if err != nil {
		return err
	}
	configPath := filepath.Join(c.workdir, c.Name+".kwokctl.yaml")
	if err := os.WriteFile(configPath, config, 0o644); err != nil {
		return err
	}
	if err := kwokctl(ctx, bins, c.workdir, "--config", configPath, "create", "cluster", "--name", c.Name,
		// Empty keeps kwokctl out of the user's ~/.kube/config.
		"--kubeconfig", "", "--wait", startTimeout.String()); err != nil {
		return err
	}
	if c.PIDs, err = readPIDs(dir); err != nil {
		return err
	}
	if c.Config, err = clientcmd.BuildConfigFromFlags("", c.Kubeconfig); err != nil {
		return err
	}
	// The certificates' data, not their files: client-go reloads a client
	// certificate named by file for as long as its cached transport lives,
	// which is the whole test process, and logs an error each time once
	// the cluster's directory is removed.
	if err := rest.LoadTLSFiles(c.Config); err != nil {
		return err
	}
	c.Config.CertFile, c.Config.KeyFile, c.Config.CAFile = "", "", ""
	if c.Client, err = kubernetes.NewForConfig(c.Config); err != nil {
		return err
	}
	if err := c.createNodes(ctx, opts.Nodes, opts.MetricsServer); err != nil {
		return err
	}
	return c.settle(ctx, bins, opts.MetricsServer)
}

// kwokctlConfig is kwokctl's configuration for one cluster: every binary
// is a local file, so kwokctl never downloads, and every port is chosen
// here, because kwokctl processes started side by side would each pick
// the same first free port.
func kwokctlConfig(bins Binaries, podLogs, auditPolicy, stages string, metrics *MetricsServer) ([]byte, error) {
	ports, err := freePorts(7)
	if err != nil {
		return nil, err
	}
	options := map[string]any{
		"runtime":                     "binary",
		"bindAddress":                 "127.0.0.1",
		"quietPull":                   true,
		"etcdBinary":                  bins.Etcd,
		"kubeApiserverBinary":         bins.KubeApiserver,
		"kubeControllerManagerBinary": bins.KubeControllerManager,
		"kubeSchedulerBinary":         bins.KubeScheduler,
		"kwokControllerBinary":        bins.Kwok,
		"etcdPort":                    ports[0],
		"etcdPeerPort":                ports[1],
		"kubeApiserverPort":           ports[2],
		"kwokControllerPort":          ports[3],
		"kubeControllerManagerPort":   ports[4],
		"kubeSchedulerPort":           ports[5],
	}
	if auditPolicy != "" {
		// kwokctl copies the policy into the cluster's directory and has
		// the kube-apiserver log to logs/audit.log there.
		options["kubeAuditPolicy"] = auditPolicy
	}
	if metrics != nil {
		// kwokctl runs the binary on loopback, applies the manifests'
		// APIService with a Service pointing at it, and has kwok serve
		// each node's /metrics/resource from simulated usage, by default
		// the pods' usage annotations.
		options["enableMetricsServer"] = true
		options["metricsServerBinary"] = metrics.Binary
		options["metricsServerManifests"] = []string{metrics.Manifests}
		options["metricsServerPort"] = ports[6]
	}
	// kwokctl only runs kubectl for `kwokctl kubectl`; naming the local one
	// keeps even that from downloading.
	if kubectl, err := exec.LookPath("kubectl"); err == nil {
		options["kubectlBinary"] = kubectl
	}
	docs := []map[string]any{{
		"apiVersion": "config.kwok.x-k8s.io/v1alpha1",
		"kind":       "KwokctlConfiguration",
		"options":    options,
		// The kwok-controller serves the nodes' kubelet API, logs
		// included, on the node IP; on loopback the kube-apiserver can
		// reach it.
		"componentsPatches": []map[string]any{{
			"name": "kwok-controller",
			"extraArgs": []map[string]any{
				{"key": "node-ip", "value": "127.0.0.1", "override": true},
				{"key": "config", "value": stages},
			},
		}},
	}, {
		"apiVersion": "kwok.x-k8s.io/v1alpha1",
		"kind":       "ClusterLogs",
		"metadata":   map[string]any{"name": "pod-logs"},
		// No selector and no containers: every container of every pod.
		"spec": map[string]any{"logs": []map[string]any{{"logsFile": podLogs}}},
	}, {
		// kubectl attach reads the same log.
		"apiVersion": "kwok.x-k8s.io/v1alpha1",
		"kind":       "ClusterAttach",
		"metadata":   map[string]any{"name": "pod-attach"},
		"spec":       map[string]any{"attaches": []map[string]any{{"logsFile": podLogs}}},
	}, {
		// kubectl exec runs the command on this machine, in the
		// directory of the pod log: a simulated container has no
		// filesystem of its own.
		"apiVersion": "kwok.x-k8s.io/v1alpha1",
		"kind":       "ClusterExec",
		"metadata":   map[string]any{"name": "pod-exec"},
		"spec":       map[string]any{"execs": []map[string]any{{"local": map[string]any{"workDir": filepath.Dir(podLogs)}}}},
	}, {
		// kubectl port-forward reaches, on every port of every pod, cat:
		// an echo of what the client sends, which shows bytes carried
		// both ways.
		"apiVersion": "kwok.x-k8s.io/v1alpha1",
		"kind":       "ClusterPortForward",
		"metadata":   map[string]any{"name": "pod-port-forward"},
		"spec":       map[string]any{"forwards": []map[string]any{{"command": []string{"cat"}}}},
	}}
	var out []byte
	for i, doc := range docs {
		b, err := json.Marshal(doc)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			out = append(out, "---\n"...)
		}
		out = append(append(out, b...), '\n')
	}
	return out, nil
}

var (
	portsMu sync.Mutex
	// portsGiven keeps two clusters of one process off one port the
	// kernel hands out again after the first one's probe closed it.
	portsGiven = map[int]bool{}
)

func freePorts(n int) ([]int, error) {
	portsMu.Lock()
	defer portsMu.Unlock()
	var ports []int
	for len(ports) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		// Closed once all n are chosen, so the kernel cannot repeat one
		// within this call.
		defer l.Close()
		port := l.Addr().(*net.TCPAddr).Port
		if !portsGiven[port] {
			portsGiven[port] = true
			ports = append(ports, port)
		}
	}
	return ports, nil
}

func (c *Cluster) createNodes(ctx context.Context, nodes []Node, metrics bool) error {
	for _, n := range nodes {
		labels := map[string]string{
			"type":                   "kwok",
			"kubernetes.io/hostname": n.Name,
			"kubernetes.io/os":       "linux",
		}
		maps.Copy(labels, n.Labels)
		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name, Labels: labels}}
		if metrics {
			// kwok serves every node's kubelet API on one port, so
			// metrics-server must ask for the node's own path there, as
			// kwokctl's nodes do.
			node.Annotations = map[string]string{
				"metrics.k8s.io/resource-metrics-path": "/metrics/nodes/" + n.Name + "/metrics/resource",
			}
		}
		if _, err := c.Client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating node %s: %w", n.Name, err)
		}
	}
	return poll(ctx, "the nodes to be Ready", func() (bool, error) {
		list, err := c.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		c.Nodes = c.Nodes[:0]
		for _, n := range nodes {
			i := slices.IndexFunc(list.Items, func(node corev1.Node) bool { return node.Name == n.Name })
			if i < 0 || !nodeReady(&list.Items[i]) {
				return false, nil
			}
			c.Nodes = append(c.Nodes, list.Items[i])
		}
		return true, nil
	})
}

func nodeReady(n *corev1.Node) bool {
	for _, cond := range n.Status.Conditions {
		if cond.Type == corev1.NodeReady {
			return cond.Status == corev1.ConditionTrue
		}
	}
	return false
}

// WritePodLog appends line to what every container logs on stream
// ("stdout" or "stderr"), in the CRI log format kwok reads.
func (c *Cluster) WritePodLog(stream, line string) error {
	f, err := os.OpenFile(c.PodLogs, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s %s F %s\n", time.Now().UTC().Format(time.RFC3339Nano), stream, line)
	return errors.Join(err, f.Close())
}

// Stop deletes the cluster and checks that its processes are gone.
func (c *Cluster) Stop(ctx context.Context) error {
	return Stop(ctx, c.workdir, c.Name)
}

// Stop deletes cluster name under workdir, whether this process started
// it or not, and checks that its processes are gone; it kills those that
// outlive the deletion and reports them.
func Stop(ctx context.Context, workdir, name string) error {
	bins, err := EnsureBinaries()
	if err != nil {
		return err
	}
	pids, err := readPIDs(clusterDir(workdir, name))
	if err != nil {
		return err
	}
	deleteErr := kwokctl(ctx, bins, workdir, "delete", "cluster", "--name", name)
	left := map[string]int{}
	err = poll(ctx, "the cluster's processes to exit", func() (bool, error) {
		clear(left)
		for component, pid := range pids {
			if Alive(pid) {
				left[component] = pid
			}
		}
		return len(left) == 0, nil
	})
	if err != nil {
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		err = fmt.Errorf("processes outlived kwokctl delete cluster and were killed: %v", left)
	}
	return errors.Join(deleteErr, err)
}

// Names lists the clusters under workdir.
func Names(workdir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(workdir, "clusters"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names, err
}

func clusterDir(workdir, name string) string {
	return filepath.Join(workdir, "clusters", name)
}

// readPIDs reads the pid files kwokctl's binary runtime keeps per
// component; a cluster that never started has none.
func readPIDs(dir string) (map[string]int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "pids", "*.pid"))
	if err != nil {
		return nil, err
	}
	pids := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, fmt.Errorf("pid file %s: %w", f, err)
		}
		pids[strings.TrimSuffix(filepath.Base(f), ".pid")] = pid
	}
	return pids, nil
}

// Alive reports whether process pid runs; a zombie, exited but not yet
// reaped by whoever inherited it or started it, does not.
func Alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses and
	// may itself hold spaces or parentheses.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// kwokctl runs kwokctl with its state under workdir and returns its
// output in the error when it fails.
func kwokctl(ctx context.Context, bins Binaries, workdir string, args ...string) error {
	cmd := exec.CommandContext(ctx, bins.Kwokctl, args...)
	cmd.Env = append(os.Environ(), "KWOK_WORKDIR="+workdir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("kwokctl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// poll calls done every 200ms until it reports true, fails, or ctx ends.
func poll(ctx context.Context, what string, done func() (bool, error)) error {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		ok, err := done()
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-tick.C:
		}
	}
}
