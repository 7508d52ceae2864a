package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	tracev1 "go.opentelemetry.io/proto/otlp/trace/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestSyncerObservability runs a Deployment through a syncer that serves
// metrics and sends traces, with a hub that sends traces too: the
// syncer's /metrics counts the syncs both ways, per queue, and labels
// nothing by logical cluster or object; the collector gets the sync
// spans naming the hub object and the downstream one, and the hub's span
// of the status write, linked to the syncer's request; a conflict
// downstream is a condition on the hub Deployment while it lasts, which
// a restart does not write again.
func TestSyncerObservability(t *testing.T) {
	t.Parallel()
	receiver := startOTLPReceiver(t)
	otlp := []string{"--otlp-endpoint", receiver.addr}
	_, admin, pc1, key, syncer := setUpSyncerHub(t, syncerSetup{hubFlags: otlp, syncerFlags: otlp})
	admin.apply("a", workloadManifest(key, "nginx:1.27"))
	if out, err := admin.runWithin(90*time.Second, "--context", "a", "rollout", "status", "deploy/web", "-n", "ns1", "--timeout=60s"); err != nil {
		t.Fatalf("rollout status at the hub: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ns := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")
	hubUID := admin.must("--context", "a", "get", "deploy", "web", "-n", "ns1", "-o", "jsonpath={.metadata.uid}")
	down, err := pc1.Client.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("metrics", func(t *testing.T) {
		if _, code, body := send(t, http.DefaultClient, http.MethodGet, "http://"+syncer.metrics+"/healthz", ""); code != http.StatusOK || string(body) != "ok" {
			t.Errorf("/healthz: %d %q", code, body)
		}
		_, code, raw := send(t, http.DefaultClient, http.MethodGet, "http://"+syncer.metrics+"/metrics", "")
		if code != http.StatusOK {
			t.Fatalf("/metrics: %d", code)
		}
		body := string(raw)
		for _, s := range []struct {
			name     string
			labels   []string
			positive bool
		}{
			{"canopy_syncer_sync_latency_seconds_count", []string{`direction="down"`, `resource="deployments.apps"`}, true},
			{"canopy_syncer_sync_latency_seconds_count", []string{`direction="up"`, `resource="deployments.apps"`}, true},
			{"canopy_syncer_sync_latency_seconds_bucket", []string{`direction="down"`, `le="+Inf"`}, true},
			{"workqueue_adds_total", []string{`name="down"`}, true},
			{"workqueue_adds_total", []string{`name="up"`}, true},
			{"workqueue_depth", []string{`name="down"`}, false},
			{"workqueue_depth", []string{`name="up"`}, false},
			{"workqueue_depth", []string{`name="pods"`}, false},
			{"workqueue_retries_total", []string{`name="down"`}, false},
			{"canopy_syncer_sync_errors_total", []string{`queue="down"`, `type="conflict"`}, false},
			{"canopy_syncer_sync_errors_total", []string{`queue="up"`, `type="forbidden"`}, false},
			{"rest_client_requests_total", []string{`method="PUT"`}, true},
		} {
			v, ok := metricValue(body, s.name, s.labels...)
			if !ok || s.positive && v <= 0 {
				t.Errorf("%s%v: %v (present %v), want a series%s", s.name, s.labels, v, ok, map[bool]string{true: " counting above 0"}[s.positive])
			}
		}
		for _, identity := range []string{"root:a", ns, hubUID} {
			if strings.Contains(body, identity) {
				t.Errorf("/metrics names %q, a logical cluster, namespace or object", identity)
			}
		}
	})

	t.Run("tracing", func(t *testing.T) {
		var err error
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(300 * time.Millisecond) {
			var chain string
			if chain, err = syncTrace(receiver.received(), hubUID, ns, string(down.UID)); err == nil {
				t.Log(chain)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no trace of web's syncs within 30s: %v\nspans: %s", err, spanNames(receiver.received()))
			}
		}
	})

	t.Run("conflict", func(t *testing.T) {
		// Someone else's Deployment where root:a's "held" would go.
		theirs := &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "held", Namespace: ns},
			Spec: appsv1.DeploymentSpec{
				Replicas: ptr.To[int32](1),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "held"}},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "held"}},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:1.26"}}},
				},
			},
		}
		if _, err := pc1.Client.AppsV1().Deployments(ns).Create(ctx, theirs, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		admin.apply("a", fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: held
  namespace: ns1
  labels: {%s: Sync}
spec:
  replicas: 1
  selector:
    matchLabels: {app: held}
  template:
    metadata:
      labels: {app: held}
    spec:
      containers:
      - {name: c, image: "nginx:1.27"}
`, workloadv1alpha1.StateLabel(key)))
		condition := func() string {
			return admin.must("--context", "a", "get", "deploy", "held", "-n", "ns1", "-o",
				`jsonpath={.status.conditions[?(@.type=="SyncConflict")].status} {.status.conditions[?(@.type=="SyncConflict")].message}`)
		}
		got := condition()
		for deadline := time.Now().Add(15 * time.Second); !strings.HasPrefix(got, "True ") && time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
			got = condition()
		}
		if !strings.HasPrefix(got, "True ") || !strings.Contains(got, "root:pc1") || !strings.Contains(got, ns+"/held") {
			t.Fatalf("SyncConflict condition at the hub %q, want True naming root:pc1 and %s/held", got, ns)
		}
		if d, err := pc1.Client.AppsV1().Deployments(ns).Get(ctx, "held", metav1.GetOptions{}); err != nil || d.Spec.Template.Spec.Containers[0].Image != "nginx:1.26" || d.Annotations[workloadv1alpha1.OriginNameAnnotation] != "" {
			t.Errorf("the syncer changed the downstream Deployment it did not create: %v", err)
		}
		events := func() int {
			return strings.Count(admin.must("--context", "a", "get", "events", "-n", "ns1",
				"-o", `jsonpath={range .items[*]}{.involvedObject.name}/{.reason}{"\n"}{end}`), "held/SyncConflict\n")
		}

		// Restarted, with nothing changed, the syncer finds the condition
		// in place: neither it nor the Event is written again, also after
		// it looked at the conflict again.
		version := admin.must("--context", "a", "get", "deploy", "held", "-n", "ns1", "-o", "jsonpath={.metadata.resourceVersion}")
		before := events()
		syncer.kill()
		syncer.start()
		syncer.waitReady(60 * time.Second)
		time.Sleep(12 * time.Second)
		if after := admin.must("--context", "a", "get", "deploy", "held", "-n", "ns1", "-o", "jsonpath={.metadata.resourceVersion}"); after != version {
			t.Errorf("the restarted syncer wrote the hub Deployment in conflict: resourceVersion %s, was %s", after, version)
		}
		if n := events(); n != before || n != 1 {
			t.Errorf("%d SyncConflict events after the restart, %d before, want 1", n, before)
		}

		// Once the other Deployment is gone, the hub's is synced and the
		// condition goes.
		if err := pc1.Client.AppsV1().Deployments(ns).Delete(ctx, "held", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		synced := func() bool {
			d, err := pc1.Client.AppsV1().Deployments(ns).Get(ctx, "held", metav1.GetOptions{})
			return err == nil && d.Annotations[workloadv1alpha1.OriginNameAnnotation] == "held"
		}
		for ctx.Err() == nil && (!synced() || condition() != " ") {
			time.Sleep(300 * time.Millisecond)
		}
		if ctx.Err() != nil {
			t.Fatalf("after the other Deployment went: synced downstream %v, SyncConflict condition %q", synced(), condition())
		}
		if out, err := admin.runWithin(90*time.Second, "--context", "a", "rollout", "status", "deploy/held", "-n", "ns1", "--timeout=60s"); err != nil {
			t.Errorf("rollout status at the hub once the conflict is over: %v\n%s", err, out)
		}
	})
}

// metricValue is the value of the first series of metric name in
// Prometheus text body with all of labels, as `key="value"`.
func metricValue(body, name string, labels ...string) (float64, bool) {
	s := bufio.NewScanner(strings.NewReader(body))
	s.Buffer(make([]byte, 1<<20), 1<<20)
	for s.Scan() {
		line := s.Text()
		if !strings.HasPrefix(line, name+"{") && !strings.HasPrefix(line, name+" ") {
			continue
		}
		series, value, _ := strings.Cut(line, " ")
		all := true
		for _, l := range labels {
			all = all && strings.Contains(series, l)
		}
		if all {
			v, err := strconv.ParseFloat(value, 64)
			return v, err == nil
		}
	}
	return 0, false
}

// syncTrace finds among spans the syncer's sync.down of hub Deployment
// web in root:a ns1, of uid hubUID, with its child sync.apply that made
// downstream Deployment downUID in namespace ns; and the syncer's sync.up
// of the same objects, its request, and the hub's span of that status
// write. The syncer is no system:masters member, so the hub's span starts
// a trace of its own, linked to the syncer's request span. It returns the
// spans found, as a chain.
func syncTrace(spans []receivedSpan, hubUID, ns, downUID string) (string, error) {
	identity := map[string]string{
		"canopy.resource": "deployments.apps", "canopy.cluster": "root:a", "canopy.namespace": "ns1", "canopy.name": "web",
		"canopy.uid": hubUID, "canopy.downstream.namespace": ns,
	}
	has := func(s receivedSpan, service, name string, attrs map[string]string) bool {
		if s.service != service || s.GetName() != name {
			return false
		}
		for k, v := range attrs {
			if stringAttr(s.GetAttributes(), k) != v {
				return false
			}
		}
		return true
	}
	childOf := func(parent receivedSpan, match func(receivedSpan) bool) (receivedSpan, bool) {
		for _, s := range spans {
			if bytes.Equal(s.GetTraceId(), parent.GetTraceId()) && bytes.Equal(s.GetParentSpanId(), parent.GetSpanId()) && match(s) {
				return s, true
			}
		}
		return receivedSpan{}, false
	}

	var apply receivedSpan
	var down *receivedSpan
	for _, s := range spans {
		if !has(s, "canopy-syncer", "sync.down", identity) || stringAttr(s.GetAttributes(), "canopy.resource_version") == "" {
			continue
		}
		var ok bool
		if apply, ok = childOf(s, func(c receivedSpan) bool {
			return has(c, "canopy-syncer", "sync.apply", map[string]string{"canopy.downstream.namespace": ns, "canopy.name": "web", "canopy.downstream.uid": downUID}) &&
				stringAttr(c.GetAttributes(), "canopy.downstream.resource_version") != ""
		}); ok {
			down = &s
			break
		}
	}
	if down == nil {
		return "", fmt.Errorf("no sync.down of web with the hub object's identity and a child sync.apply naming the downstream Deployment")
	}

	upIdentity := map[string]string{"canopy.downstream.uid": downUID}
	for k, v := range identity {
		upIdentity[k] = v
	}
	for _, up := range spans {
		if !has(up, "canopy-syncer", "sync.up", upIdentity) {
			continue
		}
		request, ok := childOf(up, func(c receivedSpan) bool { return c.GetKind() == tracev1.Span_SPAN_KIND_CLIENT })
		if !ok {
			continue
		}
		for _, s := range spans {
			if s.service != "canopy-hub" || s.GetKind() != tracev1.Span_SPAN_KIND_SERVER ||
				s.GetName() != "PATCH /apis/apps/v1/namespaces/{:namespace}/deployments/{:name}/status" ||
				!strings.Contains(stringAttr(s.GetAttributes(), "http.target"), "/apis/apps/v1/namespaces/ns1/deployments/web/status") {
				continue
			}
			for _, l := range s.GetLinks() {
				if bytes.Equal(l.GetTraceId(), request.GetTraceId()) && bytes.Equal(l.GetSpanId(), request.GetSpanId()) {
					return fmt.Sprintf("%s -> %s; %s -> %s ~> hub %s", down.GetName(), apply.GetName(), up.GetName(), request.GetName(), s.GetName()), nil
				}
			}
		}
	}
	return "", fmt.Errorf("found %s -> %s, but no sync.up of web whose request the hub's span of the status write links to", down.GetName(), apply.GetName())
}
