package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// server is a kubectl context to compare answers from: a logical cluster
// of the hub, or a physical cluster's kube-apiserver, the oracle.
type server struct {
	name    string
	k       kubectl
	context string
}

func (s server) run(args ...string) (string, error) {
	return s.k.run(append([]string{"--context", s.context}, args...)...)
}

func (s server) must(args ...string) string {
	s.k.t.Helper()
	return s.k.must(append([]string{"--context", s.context}, args...)...)
}

// fieldSelectorObjects are the objects every server holds, all labelled
// e2e=fs so that what the physical cluster makes of its own (kube-system,
// its controllers' Events) stays out of the comparisons. Pods on node fs-a
// are run by kwok there; the others name a scheduler that does not exist,
// so nothing touches them but the test.
const fieldSelectorObjects = `apiVersion: v1
kind: Namespace
metadata: {name: fs, labels: {e2e: fs}}
---
apiVersion: v1
kind: Namespace
metadata: {name: fs-term, labels: {e2e: fs}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: hold, namespace: fs-term, finalizers: [example.com/hold]}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: builder, namespace: fs}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: runner, namespace: fs}
---
apiVersion: v1
kind: Pod
metadata: {name: p-run, namespace: fs, labels: {e2e: fs}}
spec:
  nodeName: fs-a
  serviceAccountName: runner
  automountServiceAccountToken: false
  containers: [{name: app, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata: {name: p-host, namespace: fs, labels: {e2e: fs}}
spec:
  nodeName: fs-a
  hostNetwork: true
  serviceAccountName: runner
  automountServiceAccountToken: false
  containers: [{name: app, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata: {name: p-wait, namespace: fs, labels: {e2e: fs}}
spec:
  schedulerName: none
  serviceAccountName: builder
  automountServiceAccountToken: false
  containers: [{name: app, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata: {name: p-done, namespace: fs, labels: {e2e: fs}}
spec:
  schedulerName: none
  restartPolicy: Never
  serviceAccountName: builder
  automountServiceAccountToken: false
  containers: [{name: app, image: busybox}]
---
apiVersion: v1
kind: Secret
metadata: {name: s-opaque, namespace: fs, labels: {e2e: fs}}
stringData: {k: v}
---
apiVersion: v1
kind: Secret
metadata: {name: s-custom, namespace: fs, labels: {e2e: fs}}
type: example.com/custom
stringData: {k: v}
---
apiVersion: v1
kind: Secret
metadata: {name: s-basic, namespace: fs, labels: {e2e: fs}}
type: kubernetes.io/basic-auth
stringData: {username: u}
---
apiVersion: v1
kind: Service
metadata: {name: svc-headless, namespace: fs, labels: {e2e: fs}}
spec: {clusterIP: None, ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: svc-external, namespace: fs, labels: {e2e: fs}}
spec: {type: ExternalName, externalName: example.com}
---
apiVersion: batch/v1
kind: Job
metadata: {name: j-suspended, namespace: fs, labels: {e2e: fs}}
spec:
  suspend: true
  template:
    spec:
      restartPolicy: Never
      containers: [{name: app, image: busybox}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: fs, labels: {e2e: fs}}
spec:
  paused: true
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      schedulerName: none
      containers: [{name: app, image: busybox}]
`

// fieldSelectorEvents are Events about the Deployment web and the pod
// p-run, of both kinds: the older one (source, first and last timestamps)
// and the newer one (eventTime, reportingComponent). UIDs are each
// server's own.
func fieldSelectorEvents(webUID, podUID string) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Event
metadata: {name: ev-web-normal, namespace: fs, labels: {e2e: fs}}
involvedObject: {kind: Deployment, namespace: fs, name: web, uid: %[1]s, apiVersion: apps/v1, resourceVersion: "42"}
reason: ScalingReplicaSet
message: Scaled up replica set web-1 to 1
type: Normal
source: {component: deployment-controller}
firstTimestamp: "2026-01-01T00:00:00Z"
lastTimestamp: "2026-01-01T00:00:00Z"
count: 1
---
apiVersion: v1
kind: Event
metadata: {name: ev-web-warning, namespace: fs, labels: {e2e: fs}}
involvedObject: {kind: Deployment, namespace: fs, name: web, uid: %[1]s, apiVersion: apps/v1}
reason: ProgressDeadlineExceeded
message: web has timed out progressing
type: Warning
source: {component: deployment-controller}
firstTimestamp: "2026-01-01T00:01:00Z"
lastTimestamp: "2026-01-01T00:01:00Z"
count: 1
---
apiVersion: v1
kind: Event
metadata: {name: ev-web-new, namespace: fs, labels: {e2e: fs}}
involvedObject: {kind: Deployment, namespace: fs, name: web, uid: %[1]s, apiVersion: apps/v1}
reason: Checked
message: web checked by the tester
type: Normal
action: Check
eventTime: "2026-01-01T00:02:00.000000Z"
reportingComponent: example.com/tester
reportingInstance: tester-1
---
apiVersion: v1
kind: Event
metadata: {name: ev-pod-warning, namespace: fs, labels: {e2e: fs}}
involvedObject: {kind: Pod, namespace: fs, name: p-run, uid: %[2]s, apiVersion: v1, fieldPath: "spec.containers{app}"}
reason: BackOff
message: Back-off restarting failed container
type: Warning
source: {component: kubelet, host: fs-a}
firstTimestamp: "2026-01-01T00:03:00Z"
lastTimestamp: "2026-01-01T00:03:00Z"
count: 1
`, webUID, podUID)
}

// The hub answers field selectors as kube-apiserver does: for each kind the
// hub serves with selectable fields, the same objects created in a logical
// cluster, on each datastore, and in a physical cluster give the same names for every field
// selector, a watch with a field selector delivers the same events, an
// unsupported field label is refused with the same code and message, and
// kubectl describe and kubectl events --for show the Events of a
// Deployment.
func TestFieldSelectors(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	pc := pcluster.Start(t, "fs", pcluster.Options{Nodes: []pcluster.Node{{Name: "fs-a"}}})
	kubeconfig, err := clientcmd.LoadFromFile(pc.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	servers := []server{{name: "kube-apiserver", k: kubectl{t: t, kubeconfig: pc.Kubeconfig, home: t.TempDir()}, context: kubeconfig.CurrentContext}}
	bin := buildHub(t)
	for _, ds := range datastores {
		h, admin := startHub(t, bin, ds.url(t))
		admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
		admin.createLogicalCluster("root", "a")
		servers = append(servers, server{name: "the hub on " + ds.name, k: admin, context: "a"})
	}
	podIP := setUpFieldSelectorObjects(t, servers)

	requests := compareFieldSelectors(t, servers, podIP)
	requests += compareUnsupportedFieldLabels(t, servers)
	requests += compareFieldSelectorWatch(t, servers)
	requests += checkDeploymentEvents(t, servers)
	t.Logf("compared the answers of %d requests to each server", requests)
}

// setUpFieldSelectorObjects creates the objects in every server, the
// physical cluster's first, and gives the hubs' pods the status kwok gave
// the physical cluster's, and all the same status for the pods nothing
// runs. It returns p-run's IP.
func setUpFieldSelectorObjects(t *testing.T, servers []server) string {
	t.Helper()
	kube, hubs := servers[0], servers[1:]
	for _, s := range servers {
		file := writeFile(t, fieldSelectorObjects)
		// The physical cluster takes pods only once its controllers have
		// made the namespace's default service account.
		waitFor(t, 30*time.Second, "objects created in "+s.name, func() (bool, string) {
			out, err := s.run("apply", "-f", file)
			return err == nil, fmt.Sprint(out, err)
		})
		s.must("delete", "namespace", "fs-term", "--wait=false")
		for pod, status := range map[string]string{
			"p-done": `{"status":{"phase":"Failed"}}`,
			"p-wait": `{"status":{"nominatedNodeName":"fs-a"}}`,
		} {
			s.must("patch", "pod", pod, "-n", "fs", "--subresource=status", "--type=merge", "-p", status)
		}
	}
	ips := map[string]string{}
	for _, pod := range []string{"p-run", "p-host"} {
		kube.must("wait", "pod", pod, "-n", "fs", "--for=jsonpath={.status.phase}=Running", "--timeout=60s")
		ips[pod] = kube.must("get", "pod", pod, "-n", "fs", "-o", "jsonpath={.status.podIP}")
		status := fmt.Sprintf(`{"status":{"phase":"Running","hostIP":"127.0.0.1","podIP":%q,"podIPs":[{"ip":%q}]}}`, ips[pod], ips[pod])
		for _, hub := range hubs {
			hub.must("patch", "pod", pod, "-n", "fs", "--subresource=status", "--type=merge", "-p", status)
		}
	}
	for _, s := range servers {
		web := s.must("get", "deploy", "web", "-n", "fs", "-o", "jsonpath={.metadata.uid}")
		pod := s.must("get", "pod", "p-run", "-n", "fs", "-o", "jsonpath={.metadata.uid}")
		s.must("create", "-f", writeFile(t, fieldSelectorEvents(web, pod)))
	}
	return ips["p-run"]
}

// compareFieldSelectors lists each kind by every field it is selectable by
// in every server and compares the names; want is kube-apiserver's answer
// as the test expects it, so that no comparison passes by all answering
// nothing. It returns how many lists it made of each server.
func compareFieldSelectors(t *testing.T, servers []server, podIP string) int {
	t.Helper()
	uids := map[string]string{}
	for _, s := range servers {
		uids[s.name] = s.must("get", "deploy", "web", "-n", "fs", "-o", "jsonpath={.metadata.uid}")
	}
	cases := []struct {
		resource, selector string
		want               []string
	}{
		{"pods", "spec.nodeName=fs-a", []string{"p-host", "p-run"}},
		{"pods", "spec.nodeName=", []string{"p-done", "p-wait"}},
		{"pods", "spec.host=fs-a", []string{"p-host", "p-run"}},
		{"pods", "spec.restartPolicy=Never", []string{"p-done"}},
		{"pods", "spec.schedulerName=none", []string{"p-done", "p-wait"}},
		{"pods", "spec.serviceAccountName=builder", []string{"p-done", "p-wait"}},
		{"pods", "spec.hostNetwork=true", []string{"p-host"}},
		{"pods", "spec.hostNetwork!=true", []string{"p-done", "p-run", "p-wait"}},
		{"pods", "status.phase=Running", []string{"p-host", "p-run"}},
		{"pods", "status.phase!=Running", []string{"p-done", "p-wait"}},
		{"pods", "status.phase=Failed", []string{"p-done"}},
		{"pods", "status.podIP=" + podIP, []string{"p-run"}},
		{"pods", "status.podIPs=" + podIP, nil},
		{"pods", "status.nominatedNodeName=fs-a", []string{"p-wait"}},
		{"pods", "spec.nodeName=fs-a,status.phase=Running,metadata.name=p-run", []string{"p-run"}},
		{"pods", "metadata.namespace=fs", []string{"p-done", "p-host", "p-run", "p-wait"}},
		{"events", "involvedObject.kind=Deployment", []string{"ev-web-new", "ev-web-normal", "ev-web-warning"}},
		{"events", "involvedObject.kind=Pod,involvedObject.name=p-run", []string{"ev-pod-warning"}},
		{"events", "involvedObject.name=web,involvedObject.namespace=fs", []string{"ev-web-new", "ev-web-normal", "ev-web-warning"}},
		{"events", "involvedObject.uid={uid}", []string{"ev-web-new", "ev-web-normal", "ev-web-warning"}},
		{"events", "involvedObject.apiVersion=v1", []string{"ev-pod-warning"}},
		{"events", "involvedObject.resourceVersion=42", []string{"ev-web-normal"}},
		{"events", "involvedObject.fieldPath=spec.containers{app}", []string{"ev-pod-warning"}},
		{"events", "reason=BackOff", []string{"ev-pod-warning"}},
		{"events", "reportingComponent=example.com/tester", []string{"ev-web-new"}},
		{"events", "source=deployment-controller", []string{"ev-web-normal", "ev-web-warning"}},
		{"events", "source=example.com/tester", []string{"ev-web-new"}},
		{"events", "type=Warning", []string{"ev-pod-warning", "ev-web-warning"}},
		{"events", "type!=Warning,metadata.name!=ev-web-new", []string{"ev-web-normal"}},
		{"secrets", "type=Opaque", []string{"s-opaque"}},
		{"secrets", "type!=Opaque", []string{"s-basic", "s-custom"}},
		{"secrets", "type=example.com/custom,metadata.namespace=fs", []string{"s-custom"}},
		{"services", "spec.type=ExternalName", []string{"svc-external"}},
		{"services", "spec.clusterIP=None", []string{"svc-headless"}},
		{"namespaces", "status.phase=Active", []string{"fs"}},
		{"namespaces", "status.phase=Terminating", []string{"fs-term"}},
		{"namespaces", "metadata.name=fs-term", []string{"fs-term"}},
		{"jobs", "status.successful=0", []string{"j-suspended"}},
		{"jobs", "status.successful=1", nil},
		{"deployments", "metadata.name=web", []string{"web"}},
	}
	for _, c := range cases {
		for _, s := range servers {
			selector := strings.ReplaceAll(c.selector, "{uid}", uids[s.name])
			args := []string{"get", c.resource, "-l", "e2e=fs", "--field-selector", selector, "-o", "jsonpath={.items[*].metadata.name}"}
			if c.resource != "namespaces" {
				args = append(args, "-n", "fs")
			}
			got := strings.Fields(s.must(args...))
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("%s --field-selector %s: %s answers %v, want %v", c.resource, c.selector, s.name, got, c.want)
			}
		}
	}
	return len(cases)
}

// compareUnsupportedFieldLabels selects each kind by a field it is not
// selectable by: every server refuses it alike, 400 with kube's message,
// which kubectl prints with the reason.
func compareUnsupportedFieldLabels(t *testing.T, servers []server) int {
	t.Helper()
	cases := []struct{ resource, selector, message string }{
		{"pods", "spec.containers=x", "field label not supported: spec.containers"},
		{"events", "message=x", "field label not supported: message"},
		{"secrets", "data=x", "field label not supported: data"},
		{"services", "spec.ports=x", "field label not supported: spec.ports"},
		{"namespaces", "metadata.namespace=x", "field label not supported: metadata.namespace"},
		{"jobs", "status.failed=0", `field label "status.failed" not supported for Job`},
		// apps/v1 has no field label conversion of its own, so
		// kube-apiserver refuses even the status.replicas its ReplicaSet
		// strategy knows.
		{"replicasets", "status.replicas=0", `"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"`},
		{"configmaps", "data=x", `"data" is not a known field selector: only "metadata.name", "metadata.namespace"`},
	}
	for _, c := range cases {
		answers := map[string]string{}
		for _, s := range servers {
			_, err := s.run("get", c.resource, "-n", "fs", "--field-selector", c.selector)
			if err == nil {
				t.Errorf("%s --field-selector %s: %s answers it", c.resource, c.selector, s.name)
				continue
			}
			answers[s.name] = err.Error()[strings.Index(err.Error(), "\n")+1:]
			if !strings.Contains(answers[s.name], "(BadRequest)") || !strings.Contains(answers[s.name], c.message) {
				t.Errorf("%s --field-selector %s: %s answers %s; want BadRequest, %s", c.resource, c.selector, s.name, answers[s.name], c.message)
			}
		}
		for _, hub := range servers[1:] {
			if kube := servers[0].name; answers[kube] != answers[hub.name] {
				t.Errorf("%s --field-selector %s: %s answers %q, %s %q", c.resource, c.selector, kube, answers[kube], hub.name, answers[hub.name])
			}
		}
	}
	return len(cases)
}

// compareFieldSelectorWatch watches Warning events in every server, then
// creates a Normal and a Warning one: each watch delivers the Warning one
// and, since a watch delivers in order, none of the Normal ones.
func compareFieldSelectorWatch(t *testing.T, servers []server) int {
	t.Helper()
	for _, s := range servers {
		client, err := kubernetes.NewForConfig(s.k.restConfig(s.context))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		opts := metav1.ListOptions{LabelSelector: "e2e=fs", FieldSelector: "type=Warning"}
		list, err := client.CoreV1().Events("fs").List(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.ResourceVersion = list.ResourceVersion
		w, err := client.CoreV1().Events("fs").Watch(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range []struct{ name, kind string }{{"ev-watch-normal", "Normal"}, {"ev-watch-warning", "Warning"}} {
			event := &corev1.Event{
				ObjectMeta:     metav1.ObjectMeta{Name: ev.name, Labels: map[string]string{"e2e": "fs"}},
				InvolvedObject: corev1.ObjectReference{Kind: "Deployment", Namespace: "fs", Name: "web", APIVersion: "apps/v1"},
				Reason:         "Watched", Message: "a watch sees this", Type: ev.kind, Source: corev1.EventSource{Component: "tester"},
			}
			if _, err := client.CoreV1().Events("fs").Create(ctx, event, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		var delivered []string
		for e := range w.ResultChan() {
			if e.Type == watch.Error {
				t.Errorf("%s: watch error %v", s.name, e.Object)
				break
			}
			name := e.Object.(*corev1.Event).Name
			delivered = append(delivered, fmt.Sprintf("%s %s", e.Type, name))
			if name == "ev-watch-warning" {
				break
			}
		}
		w.Stop()
		cancel()
		if want := []string{"ADDED ev-watch-warning"}; !slices.Equal(delivered, want) {
			t.Errorf("%s: a watch of Warning events delivered %v, want %v", s.name, delivered, want)
		}
	}
	return 3
}

// checkDeploymentEvents runs kubectl describe and kubectl events --for on
// the Deployment web: every server shows the Events made about it. The
// physical cluster's deployment controller may add its own, so each
// answer is checked for the test's Events rather than compared whole.
func checkDeploymentEvents(t *testing.T, servers []server) int {
	t.Helper()
	for _, s := range servers {
		describe := s.must("describe", "deploy", "web", "-n", "fs")
		_, events, _ := strings.Cut(describe, "\nEvents:")
		events = strings.TrimSpace(events)
		forWeb := s.must("events", "-n", "fs", "--for", "deploy/web")
		for _, want := range []string{"ScalingReplicaSet", "ProgressDeadlineExceeded", "Checked", "web has timed out progressing"} {
			if !strings.Contains(events, want) {
				t.Errorf("%s: kubectl describe deploy/web shows events %q, without %s", s.name, events, want)
			}
			if !strings.Contains(forWeb, want) {
				t.Errorf("%s: kubectl events --for deploy/web shows %q, without %s", s.name, forWeb, want)
			}
		}
		if strings.Contains(forWeb, "BackOff") {
			t.Errorf("%s: kubectl events --for deploy/web shows the pod's event:\n%s", s.name, forWeb)
		}
	}
	return 2
}

// The hub reports the Kubernetes release its libraries implement:
// kubectl version exits 0 and names server v1.37, and Helm 3 installs a
// chart whose kubeVersion asks for at least 1.30 and refuses one that asks
// for 1.99.
func TestServerVersion(t *testing.T) {
	t.Parallel()
	_, k, _ := startHubWith(t, "a")
	out := k.must("--context", "a", "version", "-o", "json")
	for _, want := range []string{`"major": "1"`, `"minor": "37"`, `"gitVersion": "v1.37.`, "+canopy"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl version printed %s, without %s", out, want)
		}
	}
	k.must("--context", "a", "version")

	h := newHelm(t, k, "helm")
	if install := h.must("a", "install", "tiny", tinyChart(t, ">=1.30.0-0")); !strings.Contains(install, "STATUS: deployed") {
		t.Errorf("helm install printed:\n%s", install)
	}
	// Helm does check: a chart for a later release is refused.
	if out, err := h.run("a", "install", "later", tinyChart(t, ">=1.99.0-0")); err == nil || !strings.Contains(err.Error(), "incompatible with Kubernetes v1.37.") {
		t.Errorf("helm install of a chart for Kubernetes 1.99: %s %v", out, err)
	}
	if got := k.must("--context", "a", "get", "cm", "tiny", "-n", "default", "-o", "jsonpath={.data.kube}"); !strings.HasPrefix(got, "v1.37.") {
		t.Errorf("the chart saw Kubernetes %q, want v1.37.x", got)
	}
}

// tinyChart writes a chart of one ConfigMap, which records the Kubernetes
// version Helm saw, for the releases kubeVersion names.
func tinyChart(t *testing.T, kubeVersion string) string {
	t.Helper()
	chart := t.TempDir()
	files := map[string]string{
		"Chart.yaml":            fmt.Sprintf("apiVersion: v2\nname: tiny\nversion: 0.1.0\nkubeVersion: %q\n", kubeVersion),
		"templates/config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tiny\ndata:\n  kube: {{ .Capabilities.KubeVersion.Version | quote }}\n",
	}
	for name, content := range files {
		path := filepath.Join(chart, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return chart
}
