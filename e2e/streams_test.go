package e2e

import (
	"bufio"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	auditv1 "k8s.io/apiserver/pkg/apis/audit/v1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestPodStreams runs kubectl exec, exec -i, exec -it, attach and
// port-forward at the hub against a pod that runs on physical cluster pc1,
// with kubectl 1.27 (SPDY) and 1.33 (WebSocket), and checks that each
// prints what the same command prints against pc1 itself and that
// port-forward carries bytes both ways. The hub's audit log records each
// with its user, pod and logical cluster. root:b's admin, a user of root:a
// who may only read pods, and one who may get but not create pods/exec
// are refused (checkStreamsIsolation); TestIsolation's matrix, which
// follows discovery, covers the three subresources for every verb too.
// kubectl top says pc1 serves no metrics API.
func TestPodStreams(t *testing.T) {
	t.Parallel()
	auditLog := filepath.Join(t.TempDir(), "audit.log")
	h, admin, pc1, key, _ := setUpSyncerHub(t, syncerSetup{hubFlags: []string{"--audit-log-path", auditLog}})
	admin.apply("a", workloadManifest(key, "nginx:1.27"))
	pod := runningCopy(t, admin, "a")
	direct := kubectl{t: t, kubeconfig: pc1.Kubeconfig, home: t.TempDir()}
	downstream := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")

	for _, version := range []string{"1.27", "1.33"} {
		t.Run(version, func(t *testing.T) {
			bin := kubectlVersion(t, version)
			hub, pc := admin, direct
			hub.bin, pc.bin = bin, bin
			for _, c := range []struct {
				name  string
				stdin string
				args  []string
			}{
				{"exec", "", []string{"exec", pod, "--", "echo", "hello", "from", "exec"}},
				// kwok leaves a command's stdin open after kubectl's ends,
				// so the command reads no more than it is sent. It then
				// outlives kubectl's sending: kwok closes the connection
				// as soon as the command ends, and a frame kubectl sends
				// after that (stdin's end, a ping) makes the physical
				// cluster's kube-apiserver fail its write to kwok and drop
				// the connection before it has relayed the command's
				// output: kubectl then prints nothing and exits 0, against
				// pc1 directly as through the hub.
				{"exec -i", "line one\nline two\n", []string{"exec", "-i", pod, "--", "sh", "-c", "head -n 2; sleep 1"}},
				{"exec -c", "", []string{"exec", pod, "-c", "web", "--", "sh", "-c", "echo out; echo err >&2"}},
				// kubectl finds a pod of the Deployment by its selector.
				{"exec deploy/web", "", []string{"exec", "deploy/web", "--", "echo", "hello", "from", "a", "pod", "of", "web"}},
			} {
				got, err := runStdin(hub, c.stdin, append([]string{"--context", "a", "-n", "ns1"}, c.args...)...)
				if err != nil {
					t.Errorf("%s at the hub: %v", c.name, err)
					continue
				}
				want, err := runStdin(pc, c.stdin, append([]string{"-n", downstream}, c.args...)...)
				if err != nil {
					t.Fatalf("%s against pc1: %v", c.name, err)
				}
				if got != want || got == "" {
					t.Errorf("%s at the hub printed %q, against pc1 %q", c.name, got, want)
				}
			}
			// exec -it needs a terminal: script gives kubectl one.
			tty := func(k kubectl, args ...string) string {
				cmd := exec.Command("script", "-qec", strings.Join(append([]string{k.binary(), "--kubeconfig", k.kubeconfig}, args...), " "), "/dev/null")
				cmd.Env = k.environ()
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Errorf("kubectl %s in a terminal: %v\n%s", strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			// The sleep lets kwok copy the terminal's output before the
			// command's end closes it, which it otherwise races.
			isTTY := []string{"exec", "-it", pod, "--", "sh", "-c", "'test -t 0 && echo is-a-tty; sleep 1'"}
			if got := tty(hub, append([]string{"--context", "a", "-n", "ns1"}, isTTY...)...); !strings.Contains(got, "is-a-tty") {
				t.Errorf("exec -it at the hub printed %q, want is-a-tty: the command had no terminal", got)
			}
			t.Run("port-forward", func(t *testing.T) { checkPortForward(t, hub, pod) })
		})
	}

	t.Run("attach", func(t *testing.T) {
		// Attached, kubectl shows what the container writes from then on:
		// lines are written until it has shown one.
		line := "attached " + strconv.FormatInt(time.Now().UnixNano(), 10)
		done := make(chan struct{})
		go func() {
			for {
				select {
				case <-done:
					return
				case <-time.After(300 * time.Millisecond):
					_ = pc1.WritePodLog("stdout", line)
				}
			}
		}()
		out := admin.start("--context", "a", "-n", "ns1", "attach", pod)()
		close(done)
		if !strings.Contains(out, line) {
			t.Errorf("kubectl attach at the hub printed %q, want the line %q written after it attached", out, line)
		}
	})

	t.Run("isolation", func(t *testing.T) { checkStreamsIsolation(t, h, admin, pod) })

	// pc1 serves no metrics.k8s.io, which kubectl says against it; the
	// hub serves the group, and says which physical cluster lacks it
	// (TestPodTop has one that serves it).
	t.Run("top", func(t *testing.T) {
		const want = "the physical cluster of SyncTarget root:pc1 serves no metrics API"
		for _, args := range [][]string{{"top", "pod"}, {"top", "pod", pod}} {
			if out, err := admin.run(append([]string{"--context", "a", "-n", "ns1"}, args...)...); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("kubectl %s at the hub: %v\n%s; want %q", strings.Join(args, " "), err, out, want)
			}
		}
		if out, err := direct.run("-n", downstream, "top", "pod"); err == nil || !strings.Contains(err.Error(), "Metrics API not available") {
			t.Errorf("kubectl top pod against pc1: %v\n%s; want Metrics API not available", err, out)
		}
	})

	// Each exec, attach and port-forward is in the hub's audit log, with
	// its user, pod and logical cluster: those refused to carol too.
	t.Run("audit", func(t *testing.T) {
		for _, sub := range []string{"exec", "attach", "portforward"} {
			events := readAuditLog(t, auditLog, func(e auditv1.Event) bool {
				return e.ObjectRef != nil && e.ObjectRef.Subresource == sub && e.User.Username == "carol"
			})
			by := map[string]int{}
			for _, e := range events {
				if e.ObjectRef == nil || e.ObjectRef.Subresource != sub || e.ObjectRef.Name != pod {
					continue
				}
				code := int32(0)
				if e.ResponseStatus != nil {
					code = e.ResponseStatus.Code
				}
				by[fmt.Sprintf("%s %d", e.User.Username, code)]++
				if e.ObjectRef.Namespace != "ns1" || e.ObjectRef.Resource != "pods" || e.Annotations["canopy.dev/cluster"] != "root:a" || e.Level != auditv1.LevelMetadata {
					t.Errorf("audit event of %s by %s: pod %s/%s of %q, cluster %q, level %s; want ns1/%s of pods, root:a, Metadata",
						sub, e.User.Username, e.ObjectRef.Namespace, e.ObjectRef.Name, e.ObjectRef.Resource, e.Annotations["canopy.dev/cluster"], e.Level, pod)
				}
			}
			// kubectl 1.33 asks over a WebSocket first (a GET, 101 when
			// upgraded), 1.27 with SPDY (a POST).
			if by["admin 101"] == 0 || by["carol 403"] == 0 {
				t.Errorf("audit events of pods/%s of %s by user and code: %v; want admin's upgraded (101) and carol's refused (403)", sub, pod, by)
			}
		}
	})
}

// runningCopy waits for a Running pod of the Deployment web in namespace
// ns1 of context, copied to the hub by a syncer, and returns its name.
func runningCopy(t *testing.T, k kubectl, context string) string {
	t.Helper()
	var last string
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		out, err := k.run("--context", context, "-n", "ns1", "get", "pods", "-l", "app=web,"+workloadv1alpha1.UpsyncedLabel,
			"-o", `jsonpath={range .items[?(@.status.phase=="Running")]}{.metadata.name}{"\n"}{end}`)
		if names := strings.Fields(out); err == nil && len(names) > 0 {
			return names[0]
		}
		last = fmt.Sprint(out, err)
	}
	t.Fatalf("no Running upsynced pod of web in %s ns1 within 3m: %s", context, last)
	return ""
}

// kubectlVersion is kubectl of version, which the machine keeps beside
// kubectl as kubectl.<version>.
func kubectlVersion(t *testing.T, version string) string {
	t.Helper()
	path, err := exec.LookPath("kubectl")
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(filepath.Dir(resolved), "kubectl."+version)
}

// runStdin runs k with stdin and returns what it printed, stderr after
// stdout.
func runStdin(k kubectl, stdin string, args ...string) (string, error) {
	cmd := exec.Command(k.binary(), append([]string{"--kubeconfig", k.kubeconfig}, args...)...)
	cmd.Env = k.environ()
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		return "", err
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return "", fmt.Errorf("kubectl %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		return "", fmt.Errorf("kubectl %s did not end within 30s; it printed %s%s", strings.Join(args, " "), stdout.String(), stderr.String())
	}
	return stdout.String() + stderr.String(), nil
}

// checkPortForward forwards a local port to port 80 of pod in root:a's
// ns1 with k, and checks that what it sends there comes back: the
// harness's kwok connects every forwarded port to cat.
func checkPortForward(t *testing.T, k kubectl, pod string) {
	local := freePort(t)
	stop := k.start("--context", "a", "-n", "ns1", "port-forward", "pod/"+pod, fmt.Sprintf("%d:80", local))
	defer func() { t.Logf("kubectl port-forward printed:\n%s", stop()) }()
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", local), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	r := bufio.NewReader(conn)
	for i := range 3 {
		sent := fmt.Sprintf("ping %d through the hub\n", i)
		if _, err := conn.Write([]byte(sent)); err != nil {
			t.Fatalf("writing to the forwarded port: %v", err)
		}
		got, err := r.ReadString('\n')
		if err != nil || got != sent {
			t.Fatalf("read %q, %v back from the forwarded port, want %q", got, err, sent)
		}
	}
}

// checkStreamsIsolation checks who may not reach pod, of root:a's ns1:
// root:b's admin, through root:b or root:a; a user of root:a who may get
// pods but not exec into them, nor attach nor port-forward; and one who
// may get pods/exec, as a WebSocket asks, but not create it, as
// kube-apiserver requires too. Each with kubectl 1.27 (SPDY, a POST) and
// 1.33 (WebSocket, a GET).
func checkStreamsIsolation(t *testing.T, h *hub, admin kubectl, pod string) {
	pki := filepath.Join(h.dataDir, "pki")
	users := map[string]kubectl{}
	for _, name := range []string{"bob", "carol", "dave"} {
		users[name] = userKubeconfig(t, pki, name)
		users[name].addContexts(h, pki, name)
	}
	admin.grantEverything("b", "bob")
	admin.apply("a", carolReadsPods)
	admin.apply("a", `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: pod-exec-getter}
rules:
- {apiGroups: [""], resources: [pods], verbs: [get, list, watch]}
- {apiGroups: [""], resources: [pods/exec, pods/attach, pods/portforward], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: dave-gets-exec}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: pod-exec-getter}
subjects: [{kind: User, name: dave}]
`)
	users["bob"].eventually("--context", "b", "get", "pods")
	users["carol"].eventually("--context", "a", "-n", "ns1", "get", "pod", pod)
	users["dave"].eventually("--context", "a", "-n", "ns1", "get", "pod", pod)

	refused := func(who string, k kubectl, want string, args ...string) {
		t.Helper()
		out, err := runStdin(k, "", args...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: kubectl %s: %v\n%s; want refused with %q", who, strings.Join(args, " "), err, out, want)
		}
	}
	for _, version := range []string{"1.27", "1.33"} {
		bin := kubectlVersion(t, version)
		for name, k := range users {
			k.bin = bin
			users[name] = k
		}
		// root:b's admin sees no such pod in root:b and has no role in
		// root:a.
		refused("bob "+version, users["bob"], "NotFound", "--context", "b", "-n", "ns1", "exec", pod, "--", "echo", "leak")
		for _, sub := range [][]string{
			{"exec", pod, "--", "echo", "leak"},
			{"attach", pod},
		} {
			refused("bob "+version, users["bob"], "Forbidden", append([]string{"--context", "a", "-n", "ns1"}, sub...)...)
			refused("carol "+version, users["carol"], "Forbidden", append([]string{"--context", "a", "-n", "ns1"}, sub...)...)
			refused("dave "+version, users["dave"], "Forbidden", append([]string{"--context", "a", "-n", "ns1"}, sub...)...)
		}
		for _, who := range []string{"bob", "carol", "dave"} {
			refusedPortForward(t, who+" "+version, users[who], pod)
		}
	}
	// A WebSocket's GET is authorized as get pods/exec: dave has that,
	// and is still refused, for want of create.
	out, err := users["dave"].run("--context", "a", "get", "--raw", "/clusters/root:a/api/v1/namespaces/ns1/pods/"+pod+"/exec?command=echo&stdout=true")
	if err == nil || !strings.Contains(err.Error(), "needs create pods/exec") {
		t.Errorf("dave's GET of pods/exec: %v\n%s; want Forbidden, needing create pods/exec", err, out)
	}
}

// carolReadsPods lets user carol read pods, and nothing of them more.
const carolReadsPods = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: pod-reader}
rules:
- {apiGroups: [""], resources: [pods], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: carol-reads-pods}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: pod-reader}
subjects: [{kind: User, name: carol}]
`

// refusedPortForward checks that k's port-forward to pod fails: kubectl
// listens first, and fails once a connection to its port is forwarded.
func refusedPortForward(t *testing.T, who string, k kubectl, pod string) {
	t.Helper()
	out, err := runStdin(k, "", "--context", "a", "-n", "ns1", "port-forward", "pod/"+pod, fmt.Sprintf("%d:80", freePort(t)), "--pod-running-timeout", "5s")
	if err == nil || !strings.Contains(err.Error(), "Forbidden") && !strings.Contains(err.Error(), "forbidden") {
		t.Errorf("%s: kubectl port-forward: %v\n%s; want refused as forbidden", who, err, out)
	}
}
