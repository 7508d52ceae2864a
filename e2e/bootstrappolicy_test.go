package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/pkg/authorization/bootstrappolicy"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	rbacregistry "github.com/canopy-dev/canopy/pkg/registry/rbac"
)

var updateBootstrapPolicy = flag.Bool("update-bootstrap-policy", false,
	"rewrite pkg/authorization/bootstrappolicy's data file from the physical-cluster harness's kube-apiserver instead of comparing")

// hubAnnotations are those the hub puts on every object of a logical
// cluster, left out of the comparison on purpose.
var hubAnnotations = []string{logicalcluster.Annotation}

// canopyBindings are the ClusterRoleBindings the hub adds of its own, left
// out of the comparison on purpose; no fresh logical cluster made by
// system:masters has one, but one made by another user does.
var canopyBindings = []string{rbacregistry.AdminsBinding}

// bootstrapLabel marks kube's default RBAC objects.
const bootstrapLabel = "kubernetes.io/bootstrapping=rbac-defaults"

// TestBootstrapPolicy checks that a fresh logical cluster has exactly the
// default ClusterRoles and ClusterRoleBindings of a real kube-apiserver
// (with metrics-server's bootstrappolicy.MetricsReader),
// rule for rule, aggregated rules included, but for those
// bootstrappolicy.Excluded names, and nothing else. Each difference is
// reported by name. Default roles a logical cluster lacks come back when
// the hub starts. With -update-bootstrap-policy it rewrites the hub's
// data file from that kube-apiserver instead.
func TestBootstrapPolicy(t *testing.T) {
	t.Parallel()
	pc := pcluster.Start(t, "policy", pcluster.Options{})
	if !*updateBootstrapPolicy {
		// The hub serves pod metrics as a cluster with metrics-server
		// does, whose manifest adds this role, aggregated into view, edit
		// and admin; the data file holds kube's own defaults only.
		if _, err := pc.Client.RbacV1().ClusterRoles().Create(context.Background(), bootstrappolicy.MetricsReader(), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		// readPolicy waits for the aggregation of the roles it reads
		// only, which this one is not among.
		waitFor(t, time.Minute, "kube to aggregate the metrics reader into view", func() (bool, string) {
			view, err := pc.Client.RbacV1().ClusterRoles().Get(context.Background(), "view", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			return slices.ContainsFunc(view.Rules, func(r rbacv1.PolicyRule) bool { return slices.Contains(r.APIGroups, "metrics.k8s.io") }), toJSON(view.Rules)
		})
	}
	kube := readPolicy(t, pc.Client, true)
	if !*updateBootstrapPolicy {
		kube.ClusterRoles = append(kube.ClusterRoles, *bootstrappolicy.MetricsReader())
		sort.Slice(kube.ClusterRoles, func(i, j int) bool { return kube.ClusterRoles[i].Name < kube.ClusterRoles[j].Name })
	}
	kube.ClusterRoles = slices.DeleteFunc(kube.ClusterRoles, func(r rbacv1.ClusterRole) bool { return excluded(r.Name) })
	kube.ClusterRoleBindings = slices.DeleteFunc(kube.ClusterRoleBindings, func(b rbacv1.ClusterRoleBinding) bool { return excluded(b.Name) })
	if *updateBootstrapPolicy {
		writePolicy(t, kube)
		return
	}
	if kube.KubernetesVersion != bootstrappolicy.KubernetesVersion {
		t.Errorf("the harness runs kube-apiserver %s, the data file is of %s: run this test with -update-bootstrap-policy and bump bootstrappolicy.KubernetesVersion",
			kube.KubernetesVersion, bootstrappolicy.KubernetesVersion)
	}

	h, admin := startHub(t, buildHub(t), "")
	admin.addContexts(h, filepath.Join(h.dataDir, "pki"), "admin")
	admin.createLogicalCluster("root", "a")
	client, err := kubernetes.NewForConfig(admin.restConfig("a"))
	if err != nil {
		t.Fatal(err)
	}
	hub := readPolicy(t, client, false)
	for i := range hub.ClusterRoles {
		dropHubAnnotations(&hub.ClusterRoles[i].ObjectMeta)
	}
	for i := range hub.ClusterRoleBindings {
		dropHubAnnotations(&hub.ClusterRoleBindings[i].ObjectMeta)
	}
	hub.ClusterRoleBindings = slices.DeleteFunc(hub.ClusterRoleBindings, func(b rbacv1.ClusterRoleBinding) bool {
		return slices.Contains(canopyBindings, b.Name)
	})
	for _, d := range diffRoles(hub.ClusterRoles, kube.ClusterRoles) {
		t.Error(d)
	}
	for _, d := range diffBindings(hub.ClusterRoleBindings, kube.ClusterRoleBindings) {
		t.Error(d)
	}

	// A logical cluster that lacks default roles, as one made by an
	// older hub does, has them again once the hub starts, as
	// kube-apiserver restores its defaults at each start.
	admin.must("--context", "a", "delete", "clusterrole", "system:auth-delegator")
	admin.must("--context", "a", "delete", "clusterrolebinding", "system:service-account-issuer-discovery")
	h.stop(t)
	h.start(t)
	waitFor(t, 30*time.Second, "the hub to restore root:a's default roles", func() (bool, string) {
		out, err := admin.run("--context", "a", "get", "clusterrole/system:auth-delegator", "clusterrolebinding/system:service-account-issuer-discovery", "-o", "name")
		return err == nil, out
	})
}

func dropHubAnnotations(meta *metav1.ObjectMeta) {
	for _, a := range hubAnnotations {
		delete(meta.Annotations, a)
	}
	if len(meta.Annotations) == 0 {
		meta.Annotations = nil
	}
}

func excluded(name string) bool {
	_, ok := bootstrappolicy.Excluded(name)
	return ok
}

// readPolicy reads every ClusterRole and ClusterRoleBinding of client's
// cluster, or of kube's bootstrap policy only, keeping what the data file
// holds, once the aggregated roles hold the rules they aggregate.
func readPolicy(t *testing.T, client kubernetes.Interface, bootstrapOnly bool) bootstrappolicy.Policy {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bootstrap, err := labels.Parse(bootstrapLabel)
	if err != nil {
		t.Fatal(err)
	}
	version, err := client.Discovery().ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	p := bootstrappolicy.Policy{KubernetesVersion: version.GitVersion}
	for {
		// Every role, for the aggregation to settle over: the roles it
		// reads may pick others, as metrics-server's reader.
		roles, err := client.RbacV1().ClusterRoles().List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatalf("listing ClusterRoles: %v", err)
		}
		p.ClusterRoles = nil
		for _, r := range roles.Items {
			if bootstrapOnly && !bootstrap.Matches(labels.Set(r.Labels)) {
				continue
			}
			p.ClusterRoles = append(p.ClusterRoles, rbacv1.ClusterRole{
				ObjectMeta:      metav1.ObjectMeta{Name: r.Name, Labels: r.Labels, Annotations: r.Annotations},
				Rules:           r.Rules,
				AggregationRule: r.AggregationRule,
			})
		}
		pending := unaggregated(t, roles.Items, bootstrapOnly)
		if pending == "" {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the aggregated ClusterRoles did not settle: %s", pending)
		}
		time.Sleep(200 * time.Millisecond)
	}
	bindings, err := client.RbacV1().ClusterRoleBindings().List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("listing ClusterRoleBindings: %v", err)
	}
	for _, b := range bindings.Items {
		if bootstrapOnly && !bootstrap.Matches(labels.Set(b.Labels)) {
			continue
		}
		p.ClusterRoleBindings = append(p.ClusterRoleBindings, rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: b.Name, Labels: b.Labels, Annotations: b.Annotations},
			RoleRef:    b.RoleRef,
			Subjects:   b.Subjects,
		})
	}
	sort.Slice(p.ClusterRoles, func(i, j int) bool { return p.ClusterRoles[i].Name < p.ClusterRoles[j].Name })
	sort.Slice(p.ClusterRoleBindings, func(i, j int) bool { return p.ClusterRoleBindings[i].Name < p.ClusterRoleBindings[j].Name })
	return p
}

// unaggregated says which aggregated role lacks a rule of a role its
// selectors pick, or "" once none does. With inOrder, as kube's
// aggregation controller is read, a role must also hold exactly the rules
// that controller gives it, in its order (per selector, the roles picked
// by name, each rule once): that controller appends a picked role's new
// rule first and puts it in its place only once the roles it picks have
// settled too, so containment alone can catch it halfway.
func unaggregated(t *testing.T, roles []rbacv1.ClusterRole, inOrder bool) string {
	t.Helper()
	sorted := slices.Clone(roles)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, r := range sorted {
		if r.AggregationRule == nil {
			continue
		}
		var want []rbacv1.PolicyRule
		for _, sel := range r.AggregationRule.ClusterRoleSelectors {
			selector, err := metav1.LabelSelectorAsSelector(&sel)
			if err != nil {
				t.Fatalf("ClusterRole %s: %v", r.Name, err)
			}
			for _, picked := range sorted {
				if picked.Name == r.Name || !selector.Matches(labels.Set(picked.Labels)) {
					continue
				}
				for _, rule := range picked.Rules {
					if !slices.ContainsFunc(r.Rules, func(have rbacv1.PolicyRule) bool { return reflect.DeepEqual(have, rule) }) {
						return fmt.Sprintf("%s lacks %s's rule %s", r.Name, picked.Name, toJSON(rule))
					}
					if !slices.ContainsFunc(want, func(have rbacv1.PolicyRule) bool { return reflect.DeepEqual(have, rule) }) {
						want = append(want, rule)
					}
				}
			}
		}
		if inOrder && !slices.EqualFunc(want, r.Rules, func(a, b rbacv1.PolicyRule) bool { return reflect.DeepEqual(a, b) }) {
			return fmt.Sprintf("%s holds its rules in another order than aggregating them again gives", r.Name)
		}
	}
	return ""
}

func writePolicy(t *testing.T, p bootstrappolicy.Policy) {
	t.Helper()
	out, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "pkg", "authorization", "bootstrappolicy", bootstrappolicy.File)
	if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d ClusterRoles and %d ClusterRoleBindings of kube-apiserver %s to %s",
		len(p.ClusterRoles), len(p.ClusterRoleBindings), p.KubernetesVersion, path)
}

// diffObjects names every difference between the hub's objects of a kind
// and kube's, by name: those only one side has, and what diff tells of
// the others.
func diffObjects[T any](kind string, hub, kube []T, meta func(*T) *metav1.ObjectMeta, diff func(what string, h, k *T) []string) []string {
	byName := map[string]*T{}
	for i := range hub {
		byName[meta(&hub[i]).Name] = &hub[i]
	}
	var diffs []string
	for i := range kube {
		k := &kube[i]
		name := meta(k).Name
		h, ok := byName[name]
		delete(byName, name)
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s %s: kube-apiserver has it, the logical cluster does not", kind, name))
			continue
		}
		what := kind + " " + name
		diffs = append(diffs, diffMeta(what, *meta(h), *meta(k))...)
		diffs = append(diffs, diff(what, h, k)...)
	}
	for name := range byName {
		diffs = append(diffs, fmt.Sprintf("%s %s: the logical cluster has it, kube-apiserver does not (or bootstrappolicy excludes it)", kind, name))
	}
	sort.Strings(diffs)
	return diffs
}

func diffRoles(hub, kube []rbacv1.ClusterRole) []string {
	return diffObjects("ClusterRole", hub, kube, func(r *rbacv1.ClusterRole) *metav1.ObjectMeta { return &r.ObjectMeta },
		func(what string, h, k *rbacv1.ClusterRole) []string {
			var diffs []string
			if !reflect.DeepEqual(h.AggregationRule, k.AggregationRule) {
				diffs = append(diffs, fmt.Sprintf("%s: aggregationRule is %s, kube-apiserver's %s", what, toJSON(h.AggregationRule), toJSON(k.AggregationRule)))
			}
			return append(diffs, diffRules(what, h.Rules, k.Rules)...)
		})
}

func diffBindings(hub, kube []rbacv1.ClusterRoleBinding) []string {
	return diffObjects("ClusterRoleBinding", hub, kube, func(b *rbacv1.ClusterRoleBinding) *metav1.ObjectMeta { return &b.ObjectMeta },
		func(what string, h, k *rbacv1.ClusterRoleBinding) []string {
			var diffs []string
			if h.RoleRef != k.RoleRef {
				diffs = append(diffs, fmt.Sprintf("%s: roleRef is %s, kube-apiserver's %s", what, toJSON(h.RoleRef), toJSON(k.RoleRef)))
			}
			if !reflect.DeepEqual(h.Subjects, k.Subjects) {
				diffs = append(diffs, fmt.Sprintf("%s: subjects are %s, kube-apiserver's %s", what, toJSON(h.Subjects), toJSON(k.Subjects)))
			}
			return diffs
		})
}

func diffMeta(what string, hub, kube metav1.ObjectMeta) []string {
	var diffs []string
	if !reflect.DeepEqual(hub.Labels, kube.Labels) {
		diffs = append(diffs, fmt.Sprintf("%s: labels are %s, kube-apiserver's %s", what, toJSON(hub.Labels), toJSON(kube.Labels)))
	}
	if !reflect.DeepEqual(hub.Annotations, kube.Annotations) {
		diffs = append(diffs, fmt.Sprintf("%s: annotations are %s, kube-apiserver's %s", what, toJSON(hub.Annotations), toJSON(kube.Annotations)))
	}
	return diffs
}

// diffRules names the rules only one side has, and a difference in order
// when both have the same ones.
func diffRules(what string, hub, kube []rbacv1.PolicyRule) []string {
	var diffs []string
	for _, r := range kube {
		if !slices.ContainsFunc(hub, func(h rbacv1.PolicyRule) bool { return reflect.DeepEqual(h, r) }) {
			diffs = append(diffs, fmt.Sprintf("%s: lacks kube-apiserver's rule %s", what, toJSON(r)))
		}
	}
	for _, r := range hub {
		if !slices.ContainsFunc(kube, func(k rbacv1.PolicyRule) bool { return reflect.DeepEqual(k, r) }) {
			diffs = append(diffs, fmt.Sprintf("%s: has a rule kube-apiserver's does not: %s", what, toJSON(r)))
		}
	}
	if len(diffs) == 0 && !reflect.DeepEqual(hub, kube) {
		diffs = append(diffs, fmt.Sprintf("%s: the same rules in another order: %s, kube-apiserver's %s", what, toJSON(hub), toJSON(kube)))
	}
	return diffs
}

func toJSON(v any) string {
	out, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(out)
}
