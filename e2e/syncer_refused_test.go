package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	canopysync "github.com/canopy-dev/canopy/pkg/sync"
)

// The messages of the admission policy installed only in the physical
// cluster, which the hub knows nothing of.
const (
	forbiddenMessage = "Deployments labelled forbidden=true are not allowed in this cluster"
	invalidMessage   = "Deployments labelled invalid=true are not valid in this cluster"
	closedMessage    = "namespaces for the hub's namespace closed are not allowed in this cluster"
)

// refusedHubResync is the hub resync period of the syncer of
// TestSyncerRefusedDownstream, short for the test to wait several.
const refusedHubResync = 2 * time.Second

// TestSyncerRefusedDownstream creates at the hub two Deployments that a
// ValidatingAdmissionPolicy of the physical cluster alone refuses, one
// with a 403 and one with a 422: each shows condition SyncFailed at the
// hub, with the physical cluster's message, within 5s of its creation,
// and a Warning Event that kubectl describe shows; the syncer sends
// nothing more for them through several resyncs, as pc1's audit log and
// the syncer's metrics count; once one is fixed at the hub it runs
// downstream and its condition goes, the other staying refused, unsent.
// A Deployment whose downstream namespace pc1 refuses shows it the same
// way. A restarted syncer sends each refused object once more, and
// writes nothing at the hub when it is refused as before.
func TestSyncerRefusedDownstream(t *testing.T) {
	t.Parallel()
	// ns1's downstream namespace holds only refused objects, so it is
	// empty there and would go after the tests' short grace period; a
	// resend into a namespace being deleted is a transient 403, retried,
	// which would blur the count of resends after the restart below. The
	// default grace period keeps it for the whole test.
	admin, pc1, key, syncer := setUpSyncerWith(t, true, "--hub-resync", refusedHubResync.String(),
		"--namespace-grace-period", canopysync.DefaultNamespaceGracePeriod.String())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	installRefusingPolicy(ctx, t, pc1)
	syncer.waitReady(2 * time.Minute)

	start := time.Now()
	admin.apply("a", fmt.Sprintf(`apiVersion: v1
kind: Namespace
metadata:
  name: ns1
---
apiVersion: v1
kind: Namespace
metadata:
  name: closed
---
%s
---
%s
---
%s
`, labelledDeployment(key, "ns1", "refused", "forbidden"), labelledDeployment(key, "ns1", "invalid", "invalid"), labelledDeployment(key, "closed", "web", "any")))

	conditionIn := func(namespace, name string) string {
		return admin.must("--context", "a", "get", "deploy", name, "-n", namespace, "-o",
			`jsonpath={.status.conditions[?(@.type=="SyncFailed")].status}/{.status.conditions[?(@.type=="SyncFailed")].reason}/{.status.conditions[?(@.type=="SyncFailed")].message}`)
	}
	condition := func(name string) string { return conditionIn("ns1", name) }
	ns := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")
	closed := workloadv1alpha1.DownstreamNamespace(key, "root:a", "closed")
	// The acceptance asks for the condition within 5s of the creation.
	for _, c := range []struct{ namespace, name, reason, message string }{
		{"ns1", "refused", "Forbidden", forbiddenMessage},
		{"ns1", "invalid", "Invalid", invalidMessage},
		{"closed", "web", "Forbidden", "create namespace " + closed + ": "},
	} {
		got := conditionIn(c.namespace, c.name)
		for deadline := start.Add(5 * time.Second); !strings.HasPrefix(got, "True/") && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			got = conditionIn(c.namespace, c.name)
		}
		if !strings.HasPrefix(got, "True/"+c.reason+"/") || !strings.Contains(got, c.message) || !strings.Contains(got, "SyncTarget root:pc1") {
			t.Fatalf("condition SyncFailed of Deployment %s/%s at the hub within 5s of its creation: %q, want True, reason %s, naming root:pc1 and saying %q",
				c.namespace, c.name, got, c.reason, c.message)
		}
		t.Logf("Deployment %s/%s: condition SyncFailed seen at the hub %s after its creation: %s", c.namespace, c.name, time.Since(start).Round(time.Millisecond), got)
	}
	if got := conditionIn("closed", "web"); !strings.Contains(got, closedMessage) {
		t.Errorf("condition SyncFailed of Deployment closed/web %q does not quote pc1's %q", got, closedMessage)
	}

	events := func() string {
		return admin.must("--context", "a", "get", "events", "-n", "ns1",
			"-o", `jsonpath={range .items[*]}{.involvedObject.name}/{.type}/{.reason}/{.message}{"\n"}{end}`)
	}
	for _, want := range []string{"refused/Warning/SyncFailed/", "invalid/Warning/SyncFailed/"} {
		if got := events(); !strings.Contains(got, want) {
			t.Errorf("no Event %s… at the hub: %q", want, got)
		}
	}
	if out := admin.must("--context", "a", "describe", "deploy", "refused", "-n", "ns1"); !strings.Contains(out, "SyncFailed") || !strings.Contains(out, forbiddenMessage) {
		t.Errorf("kubectl describe at the hub does not say why the Deployment does not run:\n%s", out)
	}

	// Nothing more is sent for any, through several resyncs.
	requests := func() map[string][]string {
		r := syncerRequests(t, pc1, "deployments", ns, "refused", "invalid")
		for name, verbs := range syncerRequests(t, pc1, "namespaces", "", closed) {
			r["namespace "+name] = verbs
		}
		return r
	}
	writes := func() string {
		_, code, body := send(t, http.DefaultClient, http.MethodGet, "http://"+syncer.metrics+"/metrics", "")
		if code != http.StatusOK {
			t.Fatalf("the syncer's /metrics: %d", code)
		}
		var counts []string
		for _, outcome := range []string{"success", "forbidden", "invalid"} {
			v, _ := metricValue(string(body), "canopy_syncer_downstream_writes_total", `resource="deployments.apps"`, `verb="apply"`, `outcome="`+outcome+`"`)
			counts = append(counts, fmt.Sprintf("%s=%v", outcome, v))
		}
		return strings.Join(counts, " ")
	}
	before, writesBefore := requests(), writes()
	for _, name := range []string{"refused", "invalid"} {
		if n := strings.Count(strings.Join(before[name], " "), "patch"); n != 1 {
			t.Errorf("the syncer's requests for Deployment %s in pc1: %v, want one apply", name, before[name])
		}
	}
	if n := strings.Count(strings.Join(before["namespace "+closed], " "), "create"); n != 1 {
		t.Errorf("the syncer's requests for namespace %s in pc1: %v, want one create", closed, before["namespace "+closed])
	}
	if want := "success=0 forbidden=1 invalid=1"; writesBefore != want {
		t.Errorf("canopy_syncer_downstream_writes_total of deployments.apps applies: %s, want %s", writesBefore, want)
	}
	time.Sleep(3*refusedHubResync + time.Second)
	after, writesAfter := requests(), writes()
	if fmt.Sprint(after) != fmt.Sprint(before) || writesAfter != writesBefore {
		t.Fatalf("the syncer sent more for the refused objects over 3 resyncs: requests %v, then %v; applies %s, then %s",
			before, after, writesBefore, writesAfter)
	}
	t.Logf("the syncer's requests for the refused objects in pc1, unchanged through 3 resyncs: %v", after)

	// Restarted, the syncer sends each refused object once more, and
	// finds at the hub the condition it would write: neither it nor an
	// Event is written again.
	version := admin.must("--context", "a", "get", "deploy", "invalid", "-n", "ns1", "-o", "jsonpath={.metadata.resourceVersion}")
	eventsBefore := strings.Count(events(), "invalid/Warning/SyncFailed/")
	syncer.kill()
	syncer.start()
	syncer.waitReady(60 * time.Second)
	var restarted map[string][]string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if restarted = requests(); len(restarted["invalid"]) > len(before["invalid"]) {
			break
		}
	}
	time.Sleep(3 * refusedHubResync)
	if again := requests(); fmt.Sprint(again["invalid"]) != fmt.Sprint(append(before["invalid"], before["invalid"]...)) {
		t.Errorf("the restarted syncer's requests for Deployment invalid: %v, want those before the restart once more: %v", again["invalid"], before["invalid"])
	}
	if v := admin.must("--context", "a", "get", "deploy", "invalid", "-n", "ns1", "-o", "jsonpath={.metadata.resourceVersion}"); v != version {
		t.Errorf("the restarted syncer wrote the refused Deployment at the hub: resourceVersion %s, was %s", v, version)
	}
	if n := strings.Count(events(), "invalid/Warning/SyncFailed/"); n != eventsBefore || n != 1 {
		t.Errorf("%d SyncFailed Events of Deployment invalid after the restart, %d before, want 1", n, eventsBefore)
	}
	before = requests()

	// Fixed at the hub, refused runs downstream and its condition goes;
	// invalid stays refused, and unsent.
	admin.must("--context", "a", "label", "deploy", "refused", "-n", "ns1", "forbidden-")
	var down *appsv1.Deployment
	for ctx.Err() == nil {
		d, err := pc1.Client.AppsV1().Deployments(ns).Get(ctx, "refused", metav1.GetOptions{})
		if err == nil {
			down = d
			break
		}
		if !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if down == nil {
		t.Fatalf("Deployment refused, fixed at the hub, was not created in pc1: %v", ctx.Err())
	}
	if out, err := admin.runWithin(90*time.Second, "--context", "a", "rollout", "status", "deploy/refused", "-n", "ns1", "--timeout=60s"); err != nil {
		t.Fatalf("rollout status at the hub of the fixed Deployment: %v\n%s", err, out)
	}
	got := condition("refused")
	for deadline := time.Now().Add(30 * time.Second); got != "//" && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		got = condition("refused")
	}
	if got != "//" {
		t.Errorf("condition SyncFailed of the fixed Deployment: %q, want none", got)
	}
	if got := events(); !strings.Contains(got, "refused/Warning/SyncFailed/") {
		t.Errorf("the Event of the refusal is gone: %q", got)
	}
	if got := condition("invalid"); !strings.HasPrefix(got, "True/Invalid/") {
		t.Errorf("condition SyncFailed of the Deployment still refused: %q", got)
	}
	if got := requests()["invalid"]; fmt.Sprint(got) != fmt.Sprint(before["invalid"]) {
		t.Errorf("the syncer's requests for the Deployment still refused: %v, were %v", got, before["invalid"])
	}

	// A change that pc1 refuses of a Deployment running there: the
	// condition says so, and stays beside the status copied up from the
	// version that runs on, which is not written again and again.
	admin.must("--context", "a", "label", "deploy", "refused", "-n", "ns1", "forbidden=true")
	got = condition("refused")
	for deadline := time.Now().Add(30 * time.Second); !strings.HasPrefix(got, "True/") && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		got = condition("refused")
	}
	if !strings.HasPrefix(got, "True/Forbidden/") || !strings.Contains(got, forbiddenMessage) {
		t.Fatalf("condition SyncFailed of the Deployment running in pc1 whose change pc1 refuses: %q", got)
	}
	version = admin.must("--context", "a", "get", "deploy", "refused", "-n", "ns1", "-o", "jsonpath={.metadata.resourceVersion}")
	time.Sleep(2 * refusedHubResync)
	if got := admin.must("--context", "a", "get", "deploy", "refused", "-n", "ns1", "-o",
		`jsonpath={.metadata.resourceVersion} {.status.availableReplicas} {.status.conditions[?(@.type=="SyncFailed")].status}`); got != version+" 1 True" {
		t.Errorf("resourceVersion, available replicas and SyncFailed of the Deployment whose change pc1 refuses: %q, want %q", got, version+" 1 True")
	}
	if d, err := pc1.Client.AppsV1().Deployments(ns).Get(ctx, "refused", metav1.GetOptions{}); err != nil || d.Labels["forbidden"] != "" {
		t.Errorf("the Deployment in pc1 changed to what pc1 refuses: %v, labels %v", err, d.Labels)
	}
}

// labelledDeployment is Deployment name in namespace, assigned to the
// target of key, with label <label>=true.
func labelledDeployment(key, namespace, name, label string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s
  namespace: %[4]s
  labels: {%[2]s: Sync, %[3]s: "true"}
spec:
  replicas: 1
  selector:
    matchLabels: {app: %[1]s}
  template:
    metadata:
      labels: {app: %[1]s}
    spec:
      containers:
      - {name: c, image: "nginx:1.27"}
`, name, workloadv1alpha1.StateLabel(key), label, namespace)
}

// installRefusingPolicy installs in c ValidatingAdmissionPolicies, each
// with its binding, that refuse Deployments labelled forbidden=true with
// a 403 and those labelled invalid=true with a 422, and with a 403 the
// namespaces made for the hub's namespace closed; it waits until c
// enforces them, as a dry run finds.
func installRefusingPolicy(ctx context.Context, t *testing.T, c *pcluster.Cluster) {
	t.Helper()
	unless := func(field, key, value string) string {
		return fmt.Sprintf("!has(object.metadata.%[1]s) || !('%[2]s' in object.metadata.%[1]s) || object.metadata.%[1]s['%[2]s'] != '%[3]s'", field, key, value)
	}
	rule := func(group, resource string) admissionregistrationv1.NamedRuleWithOperations {
		return admissionregistrationv1.NamedRuleWithOperations{RuleWithOperations: admissionregistrationv1.RuleWithOperations{
			Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
			Rule:       admissionregistrationv1.Rule{APIGroups: []string{group}, APIVersions: []string{"v1"}, Resources: []string{resource}},
		}}
	}
	for _, p := range []struct {
		name        string
		rule        admissionregistrationv1.NamedRuleWithOperations
		validations []admissionregistrationv1.Validation
	}{
		{"refuse-labelled", rule("apps", "deployments"), []admissionregistrationv1.Validation{
			{Expression: unless("labels", "forbidden", "true"), Message: forbiddenMessage, Reason: ptr.To(metav1.StatusReasonForbidden)},
			{Expression: unless("labels", "invalid", "true"), Message: invalidMessage},
		}},
		{"refuse-closed", rule("", "namespaces"), []admissionregistrationv1.Validation{
			{Expression: unless("annotations", workloadv1alpha1.OriginNamespaceAnnotation, "closed"), Message: closedMessage, Reason: ptr.To(metav1.StatusReasonForbidden)},
		}},
	} {
		policy := &admissionregistrationv1.ValidatingAdmissionPolicy{
			ObjectMeta: metav1.ObjectMeta{Name: p.name},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
				FailurePolicy:    ptr.To(admissionregistrationv1.Fail),
				MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{p.rule}},
				Validations:      p.validations,
			},
		}
		if _, err := c.Client.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(ctx, policy, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		binding := &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
			ObjectMeta: metav1.ObjectMeta{Name: p.name},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
				PolicyName:        p.name,
				ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
			},
		}
		if _, err := c.Client.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	probe := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "probe", Namespace: metav1.NamespaceDefault, Labels: map[string]string{"forbidden": "true"}},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "probe"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "probe"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1.27"}}},
			},
		},
	}
	namespace := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "probe", Annotations: map[string]string{workloadv1alpha1.OriginNamespaceAnnotation: "closed"}}}
	var deploymentErr, namespaceErr error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		_, deploymentErr = c.Client.AppsV1().Deployments(metav1.NamespaceDefault).Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		_, namespaceErr = c.Client.CoreV1().Namespaces().Create(ctx, namespace, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if apierrors.IsForbidden(deploymentErr) && strings.Contains(deploymentErr.Error(), forbiddenMessage) &&
			apierrors.IsForbidden(namespaceErr) && strings.Contains(namespaceErr.Error(), closedMessage) {
			return
		}
	}
	t.Fatalf("pc1 does not enforce the policies within 30s: dry runs of a Deployment labelled forbidden=true and of a namespace for closed answered %v and %v",
		deploymentErr, namespaceErr)
}

// syncerRequests are the requests, as verb=code, that c's audit log
// holds from the syncer for each of the objects names of resource in
// namespace ns. The syncer's client names its binary, syncer, in its
// user agent, as client-go does by default.
func syncerRequests(t *testing.T, c *pcluster.Cluster, resource, ns string, names ...string) map[string][]string {
	t.Helper()
	events, err := c.AuditEvents()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, name := range names {
		out[name] = nil
	}
	for _, e := range events {
		r := e.ObjectRef
		if r == nil || r.Resource != resource || r.Namespace != ns || !strings.HasPrefix(e.UserAgent, "syncer/") {
			continue
		}
		if _, ok := out[r.Name]; ok {
			code := int32(0)
			if e.ResponseStatus != nil {
				code = e.ResponseStatus.Code
			}
			out[r.Name] = append(out[r.Name], fmt.Sprintf("%s=%d", e.Verb, code))
		}
	}
	return out
}
