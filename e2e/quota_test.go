package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
)

// TestResourceQuota checks that a ResourceQuota is enforced at admission
// in a logical cluster as kube-apiserver enforces it, with kube's
// messages word for word (a physical cluster's kube-apiserver answers
// the same requests): a quota of count/configmaps 3 and requests.cpu 2
// refuses the 4th ConfigMap, a pod asking more cpu than is left, and,
// since the hub counts what workloads will run, a Deployment whose
// replicas × template requests exceed it; status.used says what is
// used; deleting frees the room; and a namespace's LimitRange defaults
// are applied to the Deployment's stored pod template, which is what
// the quota counts.
func TestResourceQuota(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	pc := pcluster.Start(t, "quota", pcluster.Options{})
	kube := kubectl{t: t, kubeconfig: pc.Kubeconfig, home: t.TempDir()}
	_, admin, _ := startHubWith(t, "a")
	a := admin.with("a", "shop")

	const quota = `apiVersion: v1
kind: ResourceQuota
metadata: {name: q, namespace: shop}
spec:
  hard: {count/configmaps: "3", requests.cpu: "2"}
`
	configMap := func(name string) string {
		return fmt.Sprintf(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": %q, "namespace": "shop"}}`, name)
	}
	pod := `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "big", "namespace": "shop"},
	  "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {"requests": {"cpu": "3"}}}]}}`
	// The same requests to kube-apiserver and to the hub; kube's
	// controller-manager writes its quota's first status.
	refusals := map[string]string{}
	for _, s := range []struct {
		name string
		k    kubectl
	}{{"kube-apiserver", kube}, {"the hub", a}} {
		k := s.k
		k.must("create", "namespace", "shop")
		// A pod needs its namespace's default ServiceAccount, which a
		// controller makes.
		k.eventually("get", "serviceaccount", "default", "-n", "shop")
		k.must("apply", "-f", writeFile(t, quota))
		waitFor(t, 30*time.Second, s.name+"'s quota q to have a status", func() (bool, string) {
			out, _ := k.run("get", "resourcequota", "q", "-n", "shop", "-o", "jsonpath={.status.used}")
			return out != "", out
		})
		// The namespace's kube-root-ca.crt is the first of its ConfigMaps.
		for i := 1; i <= 2; i++ {
			k.must("create", "-f", writeFile(t, configMap(fmt.Sprintf("cm%d", i))))
		}
		for what, manifest := range map[string]string{"the 4th ConfigMap": configMap("cm3"), "a pod of 3 cpus": pod} {
			_, err := k.run("create", "-f", writeFile(t, manifest))
			if err == nil {
				t.Fatalf("%s admitted %s past quota q", s.name, what)
			}
			// What follows the manifest's path, which differs.
			msg := err.Error()[strings.LastIndex(err.Error(), "manifest.yaml"):]
			if got, ok := refusals[what]; ok && got != msg {
				t.Errorf("the hub refuses %s with\n%s\nkube-apiserver with\n%s", what, msg, got)
			}
			refusals[what] = msg
		}
	}
	for what, want := range map[string]string{
		"the 4th ConfigMap": `configmaps "cm3" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=3, limited: count/configmaps=3`,
		"a pod of 3 cpus":   `pods "big" is forbidden: exceeded quota: q, requested: requests.cpu=3, used: requests.cpu=0, limited: requests.cpu=2`,
	} {
		if !strings.Contains(refusals[what], want) {
			t.Errorf("%s is refused with %q, want %q", what, refusals[what], want)
		}
	}

	// A Deployment counts replicas × its template's requests; its
	// template gets the namespace's LimitRange defaults first.
	a.apply("a", `apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: shop}
spec:
  limits: [{type: Container, default: {cpu: 500m}, defaultRequest: {cpu: 400m}}]
`)
	deployment := func(name string, replicas int) string {
		return fmt.Sprintf(`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": %q, "namespace": "shop"},
		  "spec": {"replicas": %d, "selector": {"matchLabels": {"app": %q}},
		    "template": {"metadata": {"labels": {"app": %q}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}`, name, replicas, name, name)
	}
	_, err := a.run("create", "-f", writeFile(t, deployment("huge", 6)))
	if want := `deployments.apps "huge" is forbidden: exceeded quota: q, requested: requests.cpu=2400m, used: requests.cpu=0, limited: requests.cpu=2`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("creating a Deployment of 6 × 400m cpu: %v, want refused with %q", err, want)
	}
	a.must("create", "-f", writeFile(t, deployment("web", 3)))
	for path, want := range map[string]string{
		"{.spec.template.spec.containers[0].resources.requests.cpu}":         "400m",
		"{.spec.template.spec.containers[0].resources.limits.cpu}":           "500m",
		"{.spec.template.metadata.annotations.kubernetes\\.io/limit-ranger}": "LimitRanger plugin set: cpu request for container web; cpu limit for container web",
	} {
		if got := a.must("get", "deployment", "web", "-o", "jsonpath="+path); got != want {
			t.Errorf("Deployment web's %s is %q, want %q", path, got, want)
		}
	}
	used := func() string {
		return a.must("get", "resourcequota", "q", "-o", `jsonpath={.status.used.count/configmaps} {.status.used.requests\.cpu}`)
	}
	if got := used(); got != "3 1200m" {
		t.Errorf("quota q used %q after 3 ConfigMaps and 3 × 400m cpu, want \"3 1200m\"", got)
	}
	// 1200m + 3 × 400m > 2: two more replicas fit, three do not.
	if _, err := a.run("create", "-f", writeFile(t, deployment("more", 3))); err == nil || !strings.Contains(err.Error(),
		`deployments.apps "more" is forbidden: exceeded quota: q, requested: requests.cpu=1200m, used: requests.cpu=1200m, limited: requests.cpu=2`) {
		t.Errorf("creating a 2nd Deployment past the quota: %v", err)
	}
	// Scaling up by update is charged the difference.
	if _, err := a.run("patch", "deployment", "web", "-p", `{"spec":{"replicas":6}}`); err == nil || !strings.Contains(err.Error(),
		`deployments.apps "web" is forbidden: exceeded quota: q, requested: requests.cpu=1200m, used: requests.cpu=1200m, limited: requests.cpu=2`) {
		t.Errorf("patching Deployment web to 6 replicas: %v", err)
	}

	// Deleting frees the room: the controller recounts.
	a.must("delete", "configmap", "cm1")
	a.must("delete", "deployment", "web")
	waitFor(t, 30*time.Second, "quota q to count 2 ConfigMaps and no cpu", func() (bool, string) {
		got := used()
		return got == "2 0", got
	})
	a.must("create", "-f", writeFile(t, configMap("cm3")))
	a.must("create", "-f", writeFile(t, deployment("more", 3)))
	if got := used(); got != "3 1200m" {
		t.Errorf("quota q used %q, want \"3 1200m\"", got)
	}
}

// TestResourceQuotaIsolation is the isolation matrix of quota: for each
// kind quota counts, a quota in a namespace of root:a that allows no more
// of it than the namespace has (its kube-root-ca.crt ConfigMap and
// default ServiceAccount, nothing else) refuses one more there, while root:b creates it in its own namespace of
// the same name, under its own quota, and neither quota counts the
// other's objects.
func TestResourceQuotaIsolation(t *testing.T) {
	t.Parallel()
	_, admin, _ := startHubWith(t, "a", "b")
	objects := map[string]string{
		"count/configmaps":       `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "namespace": "shop"}}`,
		"count/secrets":          `{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "x", "namespace": "shop"}}`,
		"count/services":         `{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "x", "namespace": "shop"}, "spec": {"ports": [{"port": 80}]}}`,
		"count/pods":             `{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x", "namespace": "shop"}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}`,
		"count/deployments.apps": `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "x", "namespace": "shop"}, "spec": {"selector": {"matchLabels": {"app": "x"}}, "template": {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}`,
		"count/jobs.batch":       `{"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "x", "namespace": "shop"}, "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "nginx"}]}}}}`,
		"count/serviceaccounts":  `{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "x", "namespace": "shop"}}`,
	}
	// What a new namespace has of each, made by the hub's controllers.
	has := map[string]int{"count/configmaps": 1, "count/serviceaccounts": 1}
	var hardA, hardB []string
	for name := range objects {
		hardA = append(hardA, fmt.Sprintf("%q: \"%d\"", name, has[name]))
		hardB = append(hardB, fmt.Sprintf("%q: \"5\"", name))
	}
	quota := func(hard []string) string {
		return "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: shop}\nspec:\n  hard: {" + strings.Join(hard, ", ") + "}\n"
	}
	for ctx, hard := range map[string][]string{"a": hardA, "b": hardB} {
		admin.must("--context", ctx, "create", "namespace", "shop")
		admin.eventually("--context", ctx, "get", "serviceaccount", "default", "-n", "shop")
		admin.eventually("--context", ctx, "get", "configmap", "kube-root-ca.crt", "-n", "shop")
		admin.apply(ctx, quota(hard))
		waitFor(t, 30*time.Second, "quota q of root:"+ctx+" to count what the namespace has", func() (bool, string) {
			out, _ := admin.run("--context", ctx, "get", "resourcequota", "q", "-n", "shop", "-o", `jsonpath={.status.used.count/configmaps} {.status.used.count/serviceaccounts}`)
			return out == "1 1", out
		})
	}
	for name, manifest := range objects {
		n := strconv.Itoa(has[name])
		if _, err := admin.run("--context", "a", "create", "-f", writeFile(t, manifest)); err == nil || !strings.Contains(err.Error(), "exceeded quota: q, requested: "+name+"=1, used: "+name+"="+n+", limited: "+name+"="+n) {
			t.Errorf("root:a created %s past its quota: %v", name, err)
		}
		if _, err := admin.run("--context", "b", "create", "-f", writeFile(t, manifest)); err != nil {
			t.Errorf("root:b could not create %s under its own quota: %v", name, err)
		}
	}
	for ctx, more := range map[string]int{"a": 0, "b": 1} {
		waitFor(t, 30*time.Second, "quota q of root:"+ctx+" to count its own objects only", func() (bool, string) {
			var wrong []string
			for name := range objects {
				path := "jsonpath={.status.used." + strings.ReplaceAll(name, ".", `\.`) + "}"
				if got, _ := admin.run("--context", ctx, "get", "resourcequota", "q", "-n", "shop", "-o", path); got != strconv.Itoa(has[name]+more) {
					wrong = append(wrong, name+"="+got)
				}
			}
			return len(wrong) == 0, strings.Join(wrong, ", ")
		})
	}
}

// TestResourceQuotaAcrossReplicas has 64 clients race to create
// ConfigMaps under one quota through two hub replicas on one PostgreSQL
// database, half through each: each replica charges the quota with an
// optimistic-concurrency write of its status before admitting, so the
// namespace never holds more than the quota allows, and status.used ends
// equal to what it holds.
func TestResourceQuotaAcrossReplicas(t *testing.T) {
	t.Parallel()
	r := startReplicas(t, 2, pgtest.Shared(t).NewDatabase(t))
	k := r.kubectl()
	const hard = 21 // the namespace's kube-root-ca.crt and 20 more
	k.must("--context", "root", "create", "namespace", "race")
	// A ConfigMap created while the quota has no status yet is neither
	// charged by admission nor, if the controller's count ran before it
	// reached its informer, counted until the five-minute recount, in
	// kube as here: the quota comes after the namespace's own ConfigMap.
	k.eventually("--context", "root", "get", "configmap", "kube-root-ca.crt", "-n", "race")
	k.must("--context", "root", "create", "quota", "q", "-n", "race", "--hard", "count/configmaps="+strconv.Itoa(hard))
	waitFor(t, 30*time.Second, "quota q to count the namespace's kube-root-ca.crt", func() (bool, string) {
		out, _ := k.run("--context", "root", "get", "resourcequota", "q", "-n", "race", "-o", "jsonpath={.status.used.count/configmaps}")
		return out == "1", out
	})
	var clients []kubernetes.Interface
	for _, h := range r.hubs {
		cfg := k.restConfig("root")
		cfg.Host = "https://" + h.addr() + "/clusters/root"
		cfg.QPS, cfg.Burst = 1000, 1000
		clients = append(clients, kubernetes.NewForConfigOrDie(cfg))
	}
	var created, refused, other atomic.Int32
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}}
			_, err := clients[i%2].CoreV1().ConfigMaps("race").Create(context.Background(), cm, metav1.CreateOptions{})
			switch {
			case err == nil:
				created.Add(1)
			case apierrors.IsForbidden(err) && strings.Contains(err.Error(), "exceeded quota: q"):
				refused.Add(1)
			default:
				// A conflict that outlasts upstream's retries refuses
				// the request too, as in kube-apiserver.
				other.Add(1)
				t.Logf("create %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	t.Logf("64 racing creates: %d created, %d refused over quota, %d refused otherwise", created.Load(), refused.Load(), other.Load())
	if created.Load() > hard-1 {
		t.Errorf("%d ConfigMaps were created under a quota with room for %d", created.Load(), hard-1)
	}
	held := func() int {
		list, err := clients[0].CoreV1().ConfigMaps("race").List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return len(list.Items)
	}
	if n := held(); n != int(created.Load())+1 {
		t.Errorf("namespace race holds %d ConfigMaps; %d were created besides kube-root-ca.crt", n, created.Load())
	}
	// What the race left of the room is taken one by one, up to the
	// quota exactly.
	for i := 0; ; i++ {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("fill-%d", i)}}
		if _, err := clients[i%2].CoreV1().ConfigMaps("race").Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
			if !apierrors.IsForbidden(err) {
				t.Fatalf("filling the quota: %v", err)
			}
			break
		}
	}
	if n := held(); n != hard {
		t.Errorf("namespace race holds %d ConfigMaps once its quota is full, want %d", n, hard)
	}
	waitFor(t, 30*time.Second, "quota q to count what namespace race holds", func() (bool, string) {
		out, _ := k.run("--context", "root", "get", "resourcequota", "q", "-n", "race", "-o", "jsonpath={.status.used.count/configmaps}")
		return out == strconv.Itoa(hard), out
	})
}

// TestResourceQuotaKeepsManagedFields checks that admission's charges to a
// quota keep who manages what in it, as kube-apiserver's do: a charge by
// upstream's Evaluator (a PersistentVolumeClaim made by server-side apply)
// and one paid in the create's transaction (a POST) leave the applier
// owning the quota's spec and a merge patch's manager its label, and an
// update after them is recorded too. A charge that dropped the managed
// fields left every later update unrecorded, since the field manager
// tracks no update of an object that has none: differential testing saw
// an annotation written with a 200 shown as no one's.
func TestResourceQuotaKeepsManagedFields(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, func(t *testing.T, h *hub, k kubectl) {
		ctx := context.Background()
		client := kubernetes.NewForConfigOrDie(k.restConfig("root"))
		k.must("--context", "root", "create", "namespace", "claims")
		k.must("--context", "root", "apply", "--server-side", "--field-manager", "applier", "-f", writeFile(t, `apiVersion: v1
kind: ResourceQuota
metadata: {name: q, namespace: claims}
spec:
  hard: {count/persistentvolumeclaims: "4", services.loadbalancers: "10"}
`))
		quotas := client.CoreV1().ResourceQuotas("claims")
		if _, err := quotas.Patch(ctx, "q", types.MergePatchType, []byte(`{"metadata":{"labels":{"l":"patched"}}}`), metav1.PatchOptions{FieldManager: "labeler"}); err != nil {
			t.Fatal(err)
		}
		used := func() string {
			return k.must("--context", "root", "get", "resourcequota", "q", "-n", "claims", "-o", "jsonpath={.status.used.count/persistentvolumeclaims}")
		}
		waitFor(t, 30*time.Second, "quota q to have a status", func() (bool, string) {
			got := used()
			return got == "0", got
		})
		const claim = `{"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": %q, "namespace": "claims"},
		  "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}`
		k.must("--context", "root", "apply", "--server-side", "-f", writeFile(t, fmt.Sprintf(claim, "applied")))
		k.must("--context", "root", "create", "-f", writeFile(t, fmt.Sprintf(claim, "created")))
		if got := used(); got != "2" {
			t.Fatalf("quota q counts %s claims after two were made, want 2", got)
		}
		want := map[string]string{
			"applier": `{"f:spec":{"f:hard":{"f:count/persistentvolumeclaims":{},"f:services.loadbalancers":{}}}}`,
			"labeler": `{"f:metadata":{"f:labels":{".":{},"f:l":{}}}}`,
		}
		q, err := quotas.Get(ctx, "q", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		assertOwners(t, "after two charges", q, want)

		q.Annotations["a"] = "updated"
		q, err = quotas.Update(ctx, q, metav1.UpdateOptions{FieldManager: "updater"})
		if err != nil {
			t.Fatal(err)
		}
		want["updater"] = `{"f:metadata":{"f:annotations":{".":{},"f:a":{}}}}`
		assertOwners(t, "after an update of its annotations", q, want)
	})
}

// assertOwners checks that each manager of want owns what want says in
// obj's managedFields, with the main resource; other managers, such as
// those of the status, may own fields too.
func assertOwners(t *testing.T, when string, obj metav1.Object, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, e := range obj.GetManagedFields() {
		if e.Subresource == "" {
			got[e.Manager] = string(e.FieldsV1.Raw)
		}
	}
	for m, fields := range want {
		if got[m] != fields {
			t.Errorf("%s: manager %s owns %q, want %s (managers: %v)", when, m, got[m], fields, got)
		}
	}
}
