package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestNodes runs a Deployment of root:a on a physical cluster of two
// kwok nodes and checks the nodes root:a sees: those its pods run on,
// each got by its pods' nodeName, printed, selected and described as
// the physical cluster's kube-apiserver does, read-only to its users,
// watched as they come and go, and gone once their SyncTarget is; root:b,
// with a pod on one of them, sees that node only, with its own pods.
func TestNodes(t *testing.T) {
	t.Parallel()
	admin, pc1, key, _ := setUpSyncer(t)
	kubeconfig, err := clientcmd.LoadFromFile(pc1.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	oracle := server{name: "kube-apiserver", k: kubectl{t: t, kubeconfig: pc1.Kubeconfig, home: t.TempDir()}, context: kubeconfig.CurrentContext}
	hub := server{name: "the hub", k: admin, context: "a"}
	admin.apply("a", workloadManifest(key, "nginx:1.27"))

	// The nodes root:a's pods run on, by their nodeName at the hub.
	var want []string
	waitFor(t, 3*time.Minute, "the 3 pods of root:a's Deployment are copied up, each bound to a node", func() (bool, string) {
		out, err := hub.run("get", "pods", "-n", "ns1", "-l", "app=web", "-o", `jsonpath={range .items[*]}{.spec.nodeName}{"\n"}{end}`)
		if err != nil {
			return false, err.Error()
		}
		nodes := strings.Split(strings.TrimSpace(out), "\n")
		want = slices.Compact(slices.Sorted(slices.Values(nodes)))
		return len(nodes) == 3 && !slices.Contains(nodes, ""), out
	})
	waitFor(t, 30*time.Second, fmt.Sprintf("root:a lists nodes %v", want), func() (bool, string) {
		got := admin.names("a", "nodes")
		return slices.Equal(got, want), fmt.Sprint(got)
	})
	for _, n := range want {
		hub.must("get", "node", n)
		if got := hub.must("get", "node", n, "-o", "jsonpath={.metadata.labels.kubernetes\\.io/hostname} {.status.images}"); got != n+" " {
			t.Errorf("node %s at the hub: hostname label and images %q, want the node's hostname and no images", n, got)
		}
	}
	if got := admin.names("b", "nodes"); len(got) > 0 {
		t.Errorf("root:b, which runs nothing, lists nodes %v", got)
	}

	t.Run("isolated", func(t *testing.T) {
		// root:b runs one pod, on pc1-b.
		admin.apply("b", fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata: {name: solo}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: solo, namespace: solo, labels: {%s: Sync}}
spec:
  replicas: 1
  selector: {matchLabels: {app: solo}}
  template:
    metadata: {labels: {app: solo}}
    spec:
      nodeSelector: {kubernetes.io/hostname: pc1-b}
      containers: [{name: c, image: nginx:1.27}]
`, workloadv1alpha1.StateLabel(key)))
		waitFor(t, 2*time.Minute, "root:b lists node pc1-b, which its pod runs on, and no other", func() (bool, string) {
			got := admin.names("b", "nodes")
			return slices.Equal(got, []string{"pc1-b"}), fmt.Sprint(got)
		})
		if _, err := admin.run("--context", "b", "get", "node", "pc1-a"); err == nil || !strings.Contains(err.Error(), "NotFound") {
			t.Errorf("root:b getting node pc1-a, which runs none of its pods: %v, want NotFound", err)
		}
		// kubectl describe shows root:b's pod on the node, not root:a's.
		out := admin.must("--context", "b", "describe", "node", "pc1-b")
		if !strings.Contains(out, "solo") || strings.Contains(out, "ns1") {
			t.Errorf("kubectl describe node pc1-b in root:b shows other pods than its own:\n%s", out)
		}
	})

	t.Run("as kube-apiserver", func(t *testing.T) {
		// The columns of kubectl get, and of -o wide.
		for _, args := range [][]string{{"get", "nodes", want[0]}, {"get", "nodes", want[0], "-o", "wide"}} {
			hubOut, oracleOut := hub.must(args...), oracle.must(args...)
			if h, o := strings.Fields(strings.SplitN(hubOut, "\n", 2)[0]), strings.Fields(strings.SplitN(oracleOut, "\n", 2)[0]); !slices.Equal(h, o) {
				t.Errorf("kubectl %s: the hub prints columns %v, kube-apiserver %v", strings.Join(args, " "), h, o)
			}
			if row := strings.Fields(strings.SplitN(hubOut, "\n", 3)[1]); len(row) < 5 || row[0] != want[0] || row[1] != "Ready" {
				t.Errorf("kubectl %s at the hub printed %q, want node %s Ready", strings.Join(args, " "), hubOut, want[0])
			}
		}
		// Field selectors, and the refusal of a field nodes have not.
		for _, selector := range []string{"metadata.name=" + want[0], "spec.unschedulable=false", "spec.unschedulable=true", "status.phase=Running"} {
			args := []string{"get", "nodes", "-o", "name", "--field-selector", selector}
			hubOut, hubErr := hub.run(args...)
			oracleOut, oracleErr := oracle.run(args...)
			if hubErr != nil || oracleErr != nil {
				if hubErr == nil || oracleErr == nil || errorLine(hubErr) != errorLine(oracleErr) {
					t.Errorf("--field-selector %s: the hub answered %v, kube-apiserver %v", selector, hubErr, oracleErr)
				}
				continue
			}
			var wantNames []string
			for _, n := range strings.Fields(oracleOut) {
				if slices.Contains(want, strings.TrimPrefix(n, "node/")) {
					wantNames = append(wantNames, n)
				}
			}
			if got := strings.Fields(hubOut); !slices.Equal(got, wantNames) {
				t.Errorf("--field-selector %s: the hub lists %v, kube-apiserver %v of root:a's nodes", selector, got, wantNames)
			}
		}
		// kubectl describe shows the node and the pods of root:a on it.
		out := hub.must("describe", "node", want[0])
		if !strings.Contains(out, "Non-terminated Pods:") || !strings.Contains(out, "ns1") || !strings.Contains(out, "Allocated resources:") {
			t.Errorf("kubectl describe node %s at the hub:\n%s", want[0], out)
		}
	})

	t.Run("read-only", func(t *testing.T) {
		admin.grantEverything("a", "alice")
		const message = "the nodes of a logical cluster are read-only copies of the physical nodes its pods run on"
		node := "apiVersion: v1\nkind: Node\nmetadata: {name: extra}\n"
		for _, c := range []struct {
			who  string
			args []string
		}{
			{"alice", []string{"create", "-f", writeFile(t, node)}},
			{"alice", []string{"label", "node", want[0], "mine=1"}},
			// What kubectl cordon sends; it reports a refusal but exits 0.
			{"alice", []string{"patch", "node", want[0], "-p", `{"spec":{"unschedulable":true}}`}},
			{"alice", []string{"patch", "node", want[0], "--subresource", "status", "--type", "merge", "-p", `{"status":{"phase":"Pending"}}`}},
			{"alice", []string{"delete", "node", want[0]}},
			{"admin", []string{"create", "-f", writeFile(t, node)}},
			{"admin", []string{"label", "node", want[0], "mine=1"}},
		} {
			args := append([]string{"--context", "a"}, c.args...)
			if c.who != "admin" {
				args = append(args, "--as", c.who)
			}
			if _, err := admin.run(args...); err == nil || !strings.Contains(err.Error(), "Forbidden") || !strings.Contains(err.Error(), message) {
				t.Errorf("kubectl %s as %s: %v, want Forbidden: %s", strings.Join(c.args, " "), c.who, err, message)
			}
		}
	})

	t.Run("quiet", func(t *testing.T) {
		// What a quiet logical cluster's node copies cost: the syncer
		// writes one on each change of its physical node, as kwok
		// reports it.
		const quiet = 30 * time.Second
		stop := hub.k.start("--context", "a", "get", "nodes", "--watch", "-o", "name")
		time.Sleep(quiet)
		events := len(strings.Fields(stop())) - len(want)
		t.Logf("root:a's %d nodes changed %d times in %s", len(want), events, quiet)
	})

	t.Run("come and go", func(t *testing.T) {
		stop := hub.k.start("--context", "a", "get", "nodes", "--watch", "--output-watch-events", "-o", `jsonpath={.type} {.object.metadata.name}{"\n"}`)
		hub.must("scale", "deploy/web", "-n", "ns1", "--replicas=0")
		waitFor(t, time.Minute, "root:a lists no nodes once its pods are gone", func() (bool, string) {
			got := admin.names("a", "nodes")
			return len(got) == 0, fmt.Sprint(got)
		})
		watched := strings.Split(stop(), "\n")
		for _, n := range want {
			if !slices.Contains(watched, "ADDED "+n) || !slices.Contains(watched, "DELETED "+n) {
				t.Errorf("the watch of root:a's nodes did not see node %s listed and deleted:\n%s", n, strings.Join(watched, "\n"))
			}
		}
		hub.must("scale", "deploy/web", "-n", "ns1", "--replicas=3")
		waitFor(t, 2*time.Minute, "root:a lists nodes again once its pods run again", func() (bool, string) {
			got := admin.names("a", "nodes")
			return len(got) > 0, fmt.Sprint(got)
		})
		// The SyncTarget's deletion takes its nodes with it.
		admin.must("--context", "root", "delete", "synctarget", "pc1", "--wait=false")
		waitFor(t, time.Minute, "root:a lists no nodes once their SyncTarget is deleted", func() (bool, string) {
			got := admin.names("a", "nodes")
			return len(got) == 0, fmt.Sprint(got)
		})
	})
}

// errorLine is the first line kubectl printed of a server's error.
func errorLine(err error) string {
	for _, line := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(line, "Error from server") {
			return line
		}
	}
	return err.Error()
}
