package admissionpolicy

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/warning"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry/apps"
)

// maxReplicas refuses Deployments of more than max replicas in the
// namespaces selected by labels, if any.
func maxReplicas(name, max string, namespaceLabels map[string]string) *policy {
	return &policy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: ptr.To(admissionregistrationv1.Fail),
			MatchConstraints: &admissionregistrationv1.MatchResources{
				MatchPolicy:       ptr.To(admissionregistrationv1.Equivalent),
				NamespaceSelector: &metav1.LabelSelector{MatchLabels: namespaceLabels},
				ObjectSelector:    &metav1.LabelSelector{},
				ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{RuleWithOperations: admissionregistrationv1.RuleWithOperations{
					Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
					Rule:       admissionregistrationv1.Rule{APIGroups: []string{"apps"}, APIVersions: []string{"v1"}, Resources: []string{"deployments"}, Scope: ptr.To(admissionregistrationv1.AllScopes)},
				}}},
			},
			Validations: []admissionregistrationv1.Validation{{
				Expression:        "object.spec.replicas <= " + max,
				MessageExpression: "'at most " + max + " replicas'",
			}},
		},
	}
}

func bindingOf(name, policyName string, inherit bool) *binding {
	b := &binding{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        policyName,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}
	if inherit {
		b.Labels = map[string]string{InheritLabel: InheritDescendants}
	}
	return b
}

// namespaceStore holds the namespaces of each logical cluster; a test
// double of the namespaces' registry store, which reads those of the
// cluster in its context.
type namespaceStore map[logicalcluster.Name]map[string]*corev1.Namespace

func (s namespaceStore) Get(ctx context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	if ns, ok := s[cluster][name]; ok {
		return ns, nil
	}
	return nil, apierrors.NewNotFound(corev1.Resource("namespaces"), name)
}

func (s namespaceStore) List(ctx context.Context, _ *metainternalversion.ListOptions) (runtime.Object, error) {
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	list := &corev1.NamespaceList{}
	for _, ns := range s[cluster] {
		list.Items = append(list.Items, *ns)
	}
	return list, nil
}

func (namespaceStore) NewList() runtime.Object { return &corev1.NamespaceList{} }
func (namespaceStore) ConvertToTable(context.Context, runtime.Object, runtime.Object) (*metav1.Table, error) {
	return nil, nil
}

func namespace(name string, labels map[string]string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

type allowAll struct{}

func (allowAll) Authorize(context.Context, authorizer.Attributes) (authorizer.Decision, string, error) {
	return authorizer.DecisionAllow, "", nil
}

// newPlugin returns a plugin that has read its policies, from the index
// the test fills.
func newPlugin(tb testing.TB, namespaces namespaceStore) *Plugin {
	tb.Helper()
	p, err := New(Config{Namespaces: namespaces, Authorizer: allowAll{}})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// create asks p to admit the creation of a Deployment of replicas in
// namespace default of cluster.
func create(t *testing.T, p *Plugin, cluster logicalcluster.Name, replicas int32) error {
	t.Helper()
	return createIn(t, p, logicalcluster.WithCluster(context.Background(), cluster), replicas)
}

func createIn(t *testing.T, p *Plugin, ctx context.Context, replicas int32) error {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := apps.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}, Spec: appsv1.DeploymentSpec{Replicas: ptr.To(replicas)}}
	a := admission.NewAttributesRecord(d, nil, appsv1.SchemeGroupVersion.WithKind("Deployment"), "default", "web",
		appsv1.SchemeGroupVersion.WithResource("deployments"), "", admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "alice"})
	return p.Validate(ctx, a, admission.NewObjectInterfacesFromScheme(scheme))
}

func TestSameNamedPoliciesOfTwoClustersDoNotMix(t *testing.T) {
	ns := namespaceStore{"root:a": {"default": namespace("default", nil)}, "root:b": {"default": namespace("default", nil)}}
	p := newPlugin(t, ns)
	p.validating.setPolicy("root:a", maxReplicas("limit", "5", nil))
	p.validating.setBinding("root:a", bindingOf("limit", "limit", false))
	p.validating.setPolicy("root:b", maxReplicas("limit", "10", nil))
	p.validating.setBinding("root:b", bindingOf("limit", "limit", false))

	err := create(t, p, "root:a", 6)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "ValidatingAdmissionPolicy 'limit' with binding 'limit' denied request: at most 5 replicas") {
		t.Errorf("6 replicas in root:a: %v", err)
	}
	if err := create(t, p, "root:b", 6); err != nil {
		t.Errorf("6 replicas in root:b, whose same-named policy allows 10: %v", err)
	}
	if err := create(t, p, "root:c", 60); err != nil {
		t.Errorf("root:c has no policies: %v", err)
	}
}

type warnings []string

func (w *warnings) AddWarning(_, text string) { *w = append(*w, text) }

func TestActionsAndFailurePolicy(t *testing.T) {
	ns := namespaceStore{"root:a": {"default": namespace("default", nil)}}
	for _, tc := range []struct {
		name    string
		change  func(*policy, *binding)
		denied  string
		warning string
	}{
		{"deny", func(*policy, *binding) {}, "at most 5 replicas", ""},
		{"warn", func(_ *policy, b *binding) {
			b.Spec.ValidationActions = []admissionregistrationv1.ValidationAction{admissionregistrationv1.Warn}
		}, "", "Validation failed for ValidatingAdmissionPolicy 'limit' with binding 'limit': at most 5 replicas"},
		{"audit only", func(_ *policy, b *binding) {
			b.Spec.ValidationActions = []admissionregistrationv1.ValidationAction{admissionregistrationv1.Audit}
		}, "", ""},
		{"error fails closed", func(p *policy, _ *binding) { p.Spec.Validations[0].Expression = "object.spec.replicas / 0 <= 5" }, "division by zero", ""},
		{"error ignored", func(p *policy, _ *binding) {
			p.Spec.Validations[0].Expression = "object.spec.replicas / 0 <= 5"
			p.Spec.FailurePolicy = ptr.To(admissionregistrationv1.Ignore)
		}, "", ""},
		{"match condition unmet", func(p *policy, _ *binding) {
			p.Spec.MatchConditions = []admissionregistrationv1.MatchCondition{{Name: "not-web", Expression: "object.metadata.name != 'web'"}}
		}, "", ""},
		{"object selector unmet", func(_ *policy, b *binding) {
			b.Spec.MatchResources = &admissionregistrationv1.MatchResources{
				NamespaceSelector: &metav1.LabelSelector{},
				ObjectSelector:    &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}},
			}
		}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPlugin(t, ns)
			pol, b := maxReplicas("limit", "5", nil), bindingOf("limit", "limit", false)
			tc.change(pol, b)
			p.validating.setPolicy("root:a", pol)
			p.validating.setBinding("root:a", b)
			var got warnings
			err := createIn(t, p, warning.WithWarningRecorder(logicalcluster.WithCluster(context.Background(), "root:a"), &got), 6)
			switch {
			case tc.denied == "" && err != nil:
				t.Errorf("denied: %v", err)
			case tc.denied != "" && (err == nil || !strings.Contains(err.Error(), tc.denied)):
				t.Errorf("got %v, want a denial saying %q", err, tc.denied)
			}
			if want := []string{tc.warning}; tc.warning == "" && len(got) > 0 || tc.warning != "" && !slices.Equal(got, want) {
				t.Errorf("warnings %q, want %q", got, tc.warning)
			}
		})
	}
}

func TestNamespaceSelectorReadsTheRequestsCluster(t *testing.T) {
	// Same-named namespaces, labelled differently in each cluster; the
	// platform's inherited policy selects by that label.
	ns := namespaceStore{
		"root:org":     {"default": namespace("default", map[string]string{"env": "prod"})},
		"root:org:dev": {"default": namespace("default", map[string]string{"env": "dev"})},
	}
	p := newPlugin(t, ns)
	p.validating.setPolicy("root:org", maxReplicas("prod-limit", "5", map[string]string{"env": "prod"}))
	p.validating.setBinding("root:org", bindingOf("prod-limit", "prod-limit", true))
	if err := create(t, p, "root:org", 6); err == nil {
		t.Errorf("6 replicas in root:org's prod namespace were admitted")
	}
	if err := create(t, p, "root:org:dev", 6); err != nil {
		t.Errorf("6 replicas in root:org:dev's dev namespace: %v", err)
	}
}

func TestInheritance(t *testing.T) {
	x := newIndex(validatingKind, nil)
	x.setPolicy("root:org", maxReplicas("platform", "5", nil))
	x.setBinding("root:org", bindingOf("platform", "platform", true))
	x.setBinding("root:org", bindingOf("platform-here", "platform", false))
	x.setPolicy("root:org:team", maxReplicas("platform", "100", nil))
	x.setBinding("root:org:team", bindingOf("platform", "platform", false))
	x.setPolicy("root", maxReplicas("root", "50", nil))
	x.setBinding("root", bindingOf("root", "root", true))

	describe := func(hooks []validating.PolicyHook) []string {
		var out []string
		for _, h := range hooks {
			for _, b := range h.Bindings {
				out = append(out, h.Policy.Spec.Validations[0].Expression+" by "+b.Name)
			}
		}
		return out
	}
	// A cluster's own hooks come first, then its ancestors' inherited
	// ones, the nearest first and root's last.
	for cluster, want := range map[logicalcluster.Name][]string{
		"root:org":              {"object.spec.replicas <= 5 by platform", "object.spec.replicas <= 5 by platform-here", "object.spec.replicas <= 50 by root"},
		"root:org:team":         {"object.spec.replicas <= 100 by platform", "object.spec.replicas <= 5 by platform", "object.spec.replicas <= 50 by root"},
		"root:org:team:sandbox": {"object.spec.replicas <= 5 by platform", "object.spec.replicas <= 50 by root"},
		"root:org:other":        {"object.spec.replicas <= 5 by platform", "object.spec.replicas <= 50 by root"},
		"root":                  {"object.spec.replicas <= 50 by root"},
		"root:organisation":     {"object.spec.replicas <= 50 by root"},
	} {
		if got := describe(x.hooksFor(cluster)); strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("%s: hooks %q, want %q", cluster, got, want)
		}
	}

	// Unlabelled, the binding applies in root:org only.
	x.setBinding("root:org", bindingOf("platform", "platform", false))
	x.deleteBinding("root", "root")
	if got := describe(x.hooksFor("root:org:team:sandbox")); got != nil {
		t.Errorf("no inherited bindings left, root:org:team:sandbox has %q", got)
	}
	if x.inheriting != 0 {
		t.Errorf("%d clusters counted as inheriting", x.inheriting)
	}
}

func TestEvaluatorsAreSharedAndReleased(t *testing.T) {
	x := newIndex(validatingKind, nil)
	for _, c := range []logicalcluster.Name{"root:a", "root:b", "root:c"} {
		x.setPolicy(c, maxReplicas("limit", "5", nil))
	}
	x.setPolicy("root:d", maxReplicas("limit", "7", nil))
	if n := x.evaluators.len(); n != 2 {
		t.Errorf("4 policies of 2 distinct specs hold %d evaluators", n)
	}
	// A change that leaves the spec alone, as a status update, keeps it.
	updated := maxReplicas("limit", "5", nil)
	updated.ResourceVersion = "2"
	x.setPolicy("root:a", updated)
	for _, c := range []logicalcluster.Name{"root:a", "root:b", "root:c", "root:d"} {
		x.deletePolicy(c, "limit")
	}
	if n := x.evaluators.len(); n != 0 || len(x.clusters) != 0 {
		t.Errorf("all policies deleted, %d evaluators and %d clusters are left", n, len(x.clusters))
	}
}

// BenchmarkValidate measures a request in a logical cluster without
// policies, among a thousand that have one, beside one in a cluster whose
// policy it is judged by: the first should cost a map lookup and no
// allocation.
func BenchmarkValidate(b *testing.B) {
	ns := namespaceStore{"root:a": {"default": namespace("default", nil)}}
	p := newPlugin(b, ns)
	for i := range 1000 {
		c := logicalcluster.Name("root:team" + strconv.Itoa(i))
		p.validating.setPolicy(c, maxReplicas("limit", "5", nil))
		p.validating.setBinding(c, bindingOf("limit", "limit", false))
	}
	p.validating.setPolicy("root:a", maxReplicas("limit", "5", nil))
	p.validating.setBinding("root:a", bindingOf("limit", "limit", false))
	scheme := runtime.NewScheme()
	if err := apps.AddToScheme(scheme); err != nil {
		b.Fatal(err)
	}
	o := admission.NewObjectInterfacesFromScheme(scheme)
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}, Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3)}}
	a := admission.NewAttributesRecord(d, nil, appsv1.SchemeGroupVersion.WithKind("Deployment"), "default", "web",
		appsv1.SchemeGroupVersion.WithResource("deployments"), "", admission.Create, &metav1.CreateOptions{}, false, &user.DefaultInfo{Name: "alice"})
	for _, c := range []logicalcluster.Name{"root:b", "root:a"} {
		ctx := logicalcluster.WithCluster(context.Background(), c)
		b.Run(string(c), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := p.Validate(ctx, a, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
