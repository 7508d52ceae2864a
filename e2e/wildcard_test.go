package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
)

// wildcardColumns prints cluster/namespace/name of each listed object.
const wildcardColumns = `jsonpath={range .items[*]}{.metadata.annotations.canopy\.dev/cluster}/{.metadata.namespace}/{.metadata.name}{"\n"}{end}`

// TestWildcard lists and watches configmaps across all logical clusters
// at /clusters/*, with kubectl and client-go, as a member of
// canopy:wildcard-readers granted list and watch in root, and checks that
// no one else reads there and that nothing is written there.
func TestWildcard(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	bin := buildHub(t)
	for _, ds := range datastores {
		t.Run(ds.name, func(t *testing.T) {
			h, admin := startHub(t, bin, ds.url(t))
			testWildcard(t, h, admin)
		})
	}
}

func testWildcard(t *testing.T, h *hub, admin kubectl) {
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalCluster("root", "a")
	admin.createLogicalCluster("root", "b")
	for _, c := range []string{"a", "b"} {
		admin.must("--context", c, "create", "configmap", "in-"+c, "--from-literal", "k=v")
		admin.must("--context", c, "label", "configmap", "in-"+c, "app=wild")
		admin.must("--context", c, "create", "namespace", "other")
		admin.must("--context", c, "create", "configmap", "other-"+c, "-n", "other")
	}

	syncer := userKubeconfig(t, pki, "syncer", "canopy:wildcard-readers")
	syncer.addContexts(h, pki, "syncer")
	// Membership alone grants nothing: RBAC in root must grant the read.
	if out, err := syncer.run("--context", "all", "get", "configmaps", "-A", "-o", wildcardColumns); err == nil || !strings.Contains(err.Error(), "Forbidden") || strings.Contains(out, "in-") {
		t.Errorf("syncer without a grant in root listed the wildcard: %v\n%s", err, out)
	}
	admin.apply("root", `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: wildcard-configmaps
rules:
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["list", "watch"]
`)
	admin.must("--context", "root", "create", "clusterrolebinding", "syncer-wildcard", "--clusterrole", "wildcard-configmaps", "--user", "syncer")
	syncer.eventually("--context", "all", "get", "configmaps", "-A")

	// kubectl: every cluster's objects, each saying its cluster.
	lines := func(out string) []string { return strings.Fields(out) }
	all := lines(syncer.must("--context", "all", "get", "configmaps", "-A", "-o", wildcardColumns))
	for _, want := range []string{"root:a/default/in-a", "root:b/default/in-b", "root:a/other/other-a", "root:b/other/other-b"} {
		if !slices.Contains(all, want) {
			t.Errorf("kubectl get configmaps -A at the wildcard lacks %s: %q", want, all)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		// kube-root-ca.crt is the root CA published in every namespace.
		{[]string{"-n", "other"}, "root:a/other/kube-root-ca.crt root:a/other/other-a root:b/other/kube-root-ca.crt root:b/other/other-b"},
		{[]string{"-A", "-l", "app=wild"}, "root:a/default/in-a root:b/default/in-b"},
		{[]string{"-A", "--field-selector", "metadata.name=in-b"}, "root:b/default/in-b"},
	} {
		got := lines(syncer.must(append(append([]string{"--context", "all", "get", "configmaps"}, tc.args...), "-o", wildcardColumns)...))
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("kubectl get configmaps %s at the wildcard: %q, want %q", strings.Join(tc.args, " "), got, tc.want)
		}
	}
	if table := syncer.must("--context", "all", "get", "configmaps", "-A"); !strings.HasPrefix(table, "NAMESPACE") || !strings.Contains(table, "other-b") {
		t.Errorf("kubectl get configmaps -A at the wildcard printed:\n%s", table)
	}
	if raw := syncer.must("--context", "all", "get", "--raw", "/clusters/*/api/v1/configmaps?labelSelector=app%3Dwild"); !strings.Contains(raw, `"canopy.dev/cluster":"root:a"`) || !strings.Contains(raw, `"canopy.dev/cluster":"root:b"`) {
		t.Errorf("kubectl get --raw at the wildcard: %s", raw)
	}

	// client-go, with a Host ending in /clusters/*: pages of one object
	// each, then a watch from the list's resourceVersion that sees a
	// create in a logical cluster made after it started.
	cfg := syncer.restConfig("all")
	if !strings.HasSuffix(cfg.Host, "/clusters/*") {
		t.Fatalf("context all points at %s", cfg.Host)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var paged []string
	opts := metav1.ListOptions{Limit: 1}
	var listRV string
	for pages := 0; ; pages++ {
		l, err := cs.CoreV1().ConfigMaps("").List(ctx, opts)
		if err != nil {
			t.Fatalf("client-go list at the wildcard, page %d: %v", pages, err)
		}
		if len(l.Items) > 1 {
			t.Errorf("a page of limit 1 has %d items", len(l.Items))
		}
		for _, cm := range l.Items {
			paged = append(paged, cm.Annotations["canopy.dev/cluster"]+"/"+cm.Namespace+"/"+cm.Name)
		}
		if l.Continue == "" {
			listRV = l.ResourceVersion
			break
		}
		opts.Continue = l.Continue
	}
	slices.Sort(all)
	slices.Sort(paged)
	if !slices.Equal(paged, all) {
		t.Errorf("client-go paged through %q at the wildcard; kubectl listed %q", paged, all)
	}
	w, err := cs.CoreV1().ConfigMaps("").Watch(ctx, metav1.ListOptions{ResourceVersion: listRV, AllowWatchBookmarks: true})
	if err != nil {
		t.Fatalf("client-go watch at the wildcard: %v", err)
	}
	defer w.Stop()
	admin.createLogicalCluster("root", "c")
	server := "https://127.0.0.1:" + strconv.Itoa(h.port) + "/clusters/root:c"
	admin.must("--context", "root", "--server", server, "create", "configmap", "in-c")
	admin.must("--context", "a", "create", "configmap", "late-a")
	seen := map[string]bool{}
	for !seen["root:c/default/in-c"] || !seen["root:a/default/late-a"] {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("the wildcard watch ended; saw %v", seen)
			}
			if ev.Type == watch.Bookmark {
				continue
			}
			cm, ok := ev.Object.(*corev1.ConfigMap)
			if !ok {
				t.Fatalf("the wildcard watch sent %s %T", ev.Type, ev.Object)
			}
			if ev.Type == watch.Added {
				seen[cm.Annotations["canopy.dev/cluster"]+"/"+cm.Namespace+"/"+cm.Name] = true
			}
		case <-ctx.Done():
			t.Fatalf("the wildcard watch did not see the creates in root:c and root:a; saw %v", seen)
		}
	}
	if seen["root:a/default/in-a"] {
		t.Errorf("the watch from the list's resourceVersion replayed objects listed before it")
	}

	// Nothing is written, nor read one by one, through the wildcard, not
	// even by system:masters; the answer says why.
	client, err := adminClient(pki)
	if err != nil {
		t.Fatal(err)
	}
	base := "https://127.0.0.1:" + strconv.Itoa(h.port) + "/clusters/*/api/v1/namespaces/default/configmaps"
	for _, req := range []struct{ method, url, body string }{
		{http.MethodPost, base, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"through-wildcard"}}`},
		{http.MethodGet, base + "/in-a", ""},
		{http.MethodPut, base + "/in-a", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"in-a"}}`},
		{http.MethodPatch, base + "/in-a", `{}`},
		{http.MethodDelete, base + "/in-a", ""},
		{http.MethodDelete, base, ""},
	} {
		status, code := sendStatus(t, client, req.method, req.url, req.body)
		if code != http.StatusMethodNotAllowed || status.Reason != metav1.StatusReasonMethodNotAllowed || !strings.Contains(status.Message, "the wildcard is read-only, for list and watch across all logical clusters") {
			t.Errorf("%s %s as admin: %d %+v", req.method, req.url, code, status)
		}
	}
	if _, err := admin.run("--context", "all", "create", "configmap", "through-wildcard"); err == nil || !strings.Contains(err.Error(), "the wildcard is read-only") {
		t.Errorf("kubectl create at the wildcard: %v", err)
	}
	if _, err := syncer.run("--context", "all", "delete", "configmap", "in-a"); err == nil {
		t.Errorf("syncer deleted through the wildcard")
	}
	if got := admin.must("--context", "a", "get", "configmap", "in-a", "-o", "jsonpath={.data.k}"); got != "v" {
		t.Errorf("after the refused writes, root:a's in-a holds %q", got)
	}

	// Being admin of a logical cluster, root included, grants no read of
	// the wildcard: only membership of canopy:wildcard-readers does.
	for _, c := range []string{"a", "root"} {
		name := "admin-of-" + c
		user := userKubeconfig(t, pki, name)
		user.addContexts(h, pki, name)
		admin.grantEverything(c, name)
		user.eventually("--context", c, "get", "configmaps")
		out, err := user.run("--context", "all", "get", "configmaps", "-A", "-o", wildcardColumns)
		if err == nil || !strings.Contains(err.Error(), "Forbidden") || !strings.Contains(err.Error(), "canopy:wildcard-readers") || strings.Contains(out, "in-") {
			t.Errorf("%s listed the wildcard: %v\n%s", name, err, out)
		}
		status, code := getStatus(t, user.httpClient("all"), base)
		if code != http.StatusForbidden || strings.Contains(fmt.Sprint(status), "in-a") {
			t.Errorf("%s GET %s: %d %+v", name, base, code, status)
		}
	}
}
