package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestPodTop runs kubectl top pod at the hub against pods that run on a
// physical cluster serving metrics.k8s.io (metrics-server scraping what
// kwok simulates: constant usage from the pods' annotations) and checks
// it prints what the same command prints against that cluster: one pod,
// its containers, by label, and across namespaces. root:b's admin cannot
// see root:a's pod metrics, nor can a user of root:a who may get pods but
// not pods.metrics.k8s.io. TestPodStreams checks the error where the
// physical cluster serves no metrics.
func TestPodTop(t *testing.T) {
	t.Parallel()
	h, admin, pc1, key, _ := setUpSyncerHub(t, syncerSetup{cluster: pcluster.Options{MetricsServer: true}})
	usage := "      labels: {app: web}\n      annotations: {kwok.x-k8s.io/usage-cpu: 250m, kwok.x-k8s.io/usage-memory: 64Mi}\n"
	manifest := strings.Replace(workloadManifest(key, "nginx:1.27"), "      labels: {app: web}\n", usage, 1)
	admin.apply("a", manifest)
	pod := runningCopy(t, admin, "a")
	direct := kubectl{t: t, kubeconfig: pc1.Kubeconfig, home: t.TempDir()}
	downstream := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")

	// metrics-server reports a pod once it has scraped it twice, 15s
	// apart: the direct answer is waited for, then the hub's must match.
	topDirect := eventuallyTop(t, direct, 3, "-n", downstream, "top", "pod", "--no-headers")
	if strings.Count(topDirect, " 64Mi") != 3 {
		t.Fatalf("kubectl top pod against pc1 printed %q, want each pod's simulated 64Mi", topDirect)
	}
	t.Logf("kubectl top pod against pc1:\n%s", topDirect)
	for _, c := range []struct {
		name  string
		lines int
		args  []string
	}{
		{"all", 3, []string{"top", "pod", "--no-headers"}},
		{"one", 1, []string{"top", "pod", pod, "--no-headers"}},
		{"containers", 1, []string{"top", "pod", pod, "--containers", "--no-headers"}},
		{"selector", 3, []string{"top", "pod", "-l", "app=web", "--no-headers"}},
	} {
		sameTop(t, c.name, func() string {
			return eventuallyTop(t, admin, c.lines, append([]string{"--context", "a", "-n", "ns1"}, c.args...)...)
		}, func() string {
			return eventuallyTop(t, direct, c.lines, append([]string{"-n", downstream}, c.args...)...)
		})
	}
	// Across namespaces the hub names the pods' namespace as root:a has
	// it, pc1 as it maps it.
	sameTop(t, "-A", func() string {
		return eventuallyTop(t, admin, 3, "--context", "a", "top", "pod", "-A", "--no-headers")
	}, func() string {
		out := eventuallyTop(t, direct, 3, "top", "pod", "-A", "--no-headers", "-l", "app=web")
		return strings.ReplaceAll(out, downstream, "ns1")
	})

	t.Run("isolation", func(t *testing.T) { checkTopIsolation(t, h, admin, pod) })
}

// sameTop checks that kubectl top at the hub prints what it prints
// against pc1. CPU is a rate metrics-server computes anew at each scrape
// (every 15s), so a scrape between the two commands can tell them apart:
// they are compared again, a few times, before that counts.
func sameTop(t *testing.T, name string, atHub, direct func() string) {
	t.Helper()
	var got, want string
	for range 5 {
		if got, want = atHub(), direct(); got == want {
			return
		}
	}
	t.Errorf("kubectl top pod (%s) at the hub printed %q, against pc1 %q", name, got, want)
}

// eventuallyTop runs kubectl until it prints lines lines, each column
// separated by one space, and returns them.
func eventuallyTop(t *testing.T, k kubectl, lines int, args ...string) string {
	t.Helper()
	var last string
	// Three minutes: metrics-server reports a pod after two scrapes, 30 s,
	// but kube-apiserver serves metrics.k8s.io only once it has found
	// metrics-server healthy, which once, on a loaded machine, it had not
	// within two.
	const within = 3 * time.Minute
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(time.Second) {
		out, err := k.run(args...)
		var rows []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line != "" {
				rows = append(rows, strings.Join(strings.Fields(line), " "))
			}
		}
		if err == nil && len(rows) == lines {
			slices.Sort(rows)
			return strings.Join(rows, "\n")
		}
		last = fmt.Sprint(out, err)
	}
	t.Fatalf("kubectl %s did not print %d lines within %s; last: %s", strings.Join(args, " "), lines, within, last)
	return ""
}

// checkTopIsolation checks that root:b's admin, in root:b or in root:a,
// and a user of root:a who may read pods but not their metrics, get none
// of root:a's pod metrics, while one bound to view in ns1 gets them.
func checkTopIsolation(t *testing.T, h *hub, admin kubectl, pod string) {
	pki := filepath.Join(h.dataDir, "pki")
	bob, carol := userKubeconfig(t, pki, "bob"), userKubeconfig(t, pki, "carol")
	bob.addContexts(h, pki, "bob")
	carol.addContexts(h, pki, "carol")
	admin.grantEverything("b", "bob")
	admin.apply("a", carolReadsPods)
	bob.eventually("--context", "b", "get", "pods")
	carol.eventually("--context", "a", "-n", "ns1", "get", "pod", pod)

	for _, c := range []struct {
		who  string
		k    kubectl
		want string
		args []string
	}{
		{"bob in root:b", bob, "NotFound", []string{"--context", "b", "-n", "ns1", "top", "pod", pod}},
		{"bob in root:a", bob, "Forbidden", []string{"--context", "a", "-n", "ns1", "top", "pod", pod}},
		{"bob in root:a, listing", bob, "Forbidden", []string{"--context", "a", "-n", "ns1", "top", "pod"}},
		{"carol", carol, "Forbidden", []string{"--context", "a", "-n", "ns1", "top", "pod", pod}},
		{"carol, listing", carol, "Forbidden", []string{"--context", "a", "-n", "ns1", "top", "pod"}},
	} {
		out, err := c.k.run(c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(out, "64Mi") {
			t.Errorf("%s: kubectl %s: %v\n%s; want refused with %q", c.who, strings.Join(c.args, " "), err, out, c.want)
		}
	}
	// kube's view role, with metrics-server's reader aggregated into it,
	// is enough, as in a cluster running metrics-server.
	erin := userKubeconfig(t, pki, "erin")
	erin.addContexts(h, pki, "erin")
	admin.must("--context", "a", "-n", "ns1", "create", "rolebinding", "erin-views", "--clusterrole", "view", "--user", "erin")
	eventuallyTop(t, erin, 1, "--context", "a", "-n", "ns1", "top", "pod", pod, "--no-headers")

	// Listed across root:b's namespaces, none of root:a's pods shows.
	if out, err := bob.run("--context", "b", "top", "pod", "-A"); strings.Contains(out, pod) {
		t.Errorf("bob: kubectl top pod -A in root:b printed %q (%v), which holds root:a's pod %s", out, err, pod)
	}
}
