package core

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// TestFieldSelection selects objects of each kind as kube-apiserver does:
// the request's selector goes through the scheme's field label conversion,
// then matches the object's fields.
func TestFieldSelection(t *testing.T) {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	meta := metav1.ObjectMeta{Name: "x", Namespace: "ns"}
	pod := &corev1.Pod{ObjectMeta: meta,
		Spec:   corev1.PodSpec{NodeName: "n1", RestartPolicy: corev1.RestartPolicyAlways, SchedulerName: "default-scheduler", ServiceAccountName: "default"},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "10.0.0.1", PodIPs: []corev1.PodIP{{IP: "10.0.0.1"}, {IP: "fd00::1"}}, NominatedNodeName: "n2"},
	}
	onlyPodIP := &corev1.Pod{ObjectMeta: meta, Status: corev1.PodStatus{PodIP: "10.0.0.2"}}
	event := &corev1.Event{ObjectMeta: meta, Reason: "Scaled", Type: corev1.EventTypeWarning, Source: corev1.EventSource{Component: "deployment-controller"},
		InvolvedObject: corev1.ObjectReference{Kind: "Deployment", Namespace: "ns", Name: "web", UID: "u1", APIVersion: "apps/v1", ResourceVersion: "7", FieldPath: "spec"},
	}
	newEvent := &corev1.Event{ObjectMeta: meta, ReportingController: "canopy.dev/syncer"}
	namespace := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}, Status: corev1.NamespaceStatus{Phase: corev1.NamespaceActive}}
	secret := &corev1.Secret{ObjectMeta: meta, Type: corev1.SecretTypeTLS}
	service := &corev1.Service{ObjectMeta: meta, Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeNodePort, ClusterIP: "10.96.0.10"}}
	for _, c := range []struct {
		obj      runtime.Object
		fields   registry.Selectable
		selector string
		match    bool
	}{
		{pod, podFields, "spec.nodeName=n1,spec.restartPolicy=Always,spec.schedulerName=default-scheduler,spec.serviceAccountName=default", true},
		{pod, podFields, "spec.hostNetwork=false,status.phase=Running,status.podIP=10.0.0.1,status.nominatedNodeName=n2", true},
		{pod, podFields, "spec.host=n1,metadata.name=x,metadata.namespace=ns", true},
		{pod, podFields, "spec.nodeName=n2", false},
		{pod, podFields, "status.phase!=Running", false},
		{pod, podFields, "status.podIPs=10.0.0.1", false},
		{pod, podFields, "status.podIPs=", true},
		{onlyPodIP, podFields, "status.podIP=10.0.0.2", true},
		{event, eventFields, "involvedObject.kind=Deployment,involvedObject.namespace=ns,involvedObject.name=web,involvedObject.uid=u1", true},
		{event, eventFields, "involvedObject.apiVersion=apps/v1,involvedObject.resourceVersion=7,involvedObject.fieldPath=spec", true},
		{event, eventFields, "reason=Scaled,type=Warning,source=deployment-controller,reportingComponent=", true},
		{event, eventFields, "type=Normal", false},
		{newEvent, eventFields, "source=canopy.dev/syncer,reportingComponent=canopy.dev/syncer", true},
		{namespace, namespaceFields, "status.phase=Active,metadata.name=ns", true},
		{namespace, namespaceFields, "status.phase=Terminating", false},
		{secret, secretFields, "type=kubernetes.io/tls", true},
		{secret, secretFields, "type=Opaque", false},
		{service, serviceFields, "spec.type=NodePort,spec.clusterIP=10.96.0.10", true},
	} {
		gvks, _, err := s.ObjectKinds(c.obj)
		if err != nil {
			t.Fatal(err)
		}
		selector, err := fields.ParseSelector(c.selector)
		if err == nil {
			selector, err = selector.Transform(func(label, value string) (string, string, error) {
				return s.ConvertFieldLabel(gvks[0], label, value)
			})
		}
		if err != nil {
			t.Errorf("%s %s: %v", gvks[0].Kind, c.selector, err)
			continue
		}
		_, set, err := c.fields.Attrs(c.obj)
		if err != nil || selector.Matches(set) != c.match {
			t.Errorf("%s %s: matches %t (%v), want %t", gvks[0].Kind, c.selector, !c.match, err, c.match)
		}
	}
}

// TestFieldLabelsRefused are the field labels kube-apiserver refuses for
// core/v1 kinds, with its messages.
func TestFieldLabelsRefused(t *testing.T) {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	for kind, cases := range map[string]map[string]string{
		"Pod":       {"spec.containers": "field label not supported: spec.containers"},
		"Event":     {"involvedObject": "field label not supported: involvedObject", "message": "field label not supported: message"},
		"Namespace": {"metadata.namespace": "field label not supported: metadata.namespace", "name": "field label not supported: name"},
		"Secret":    {"data": "field label not supported: data"},
		"Service":   {"spec.ports": "field label not supported: spec.ports"},
		"ConfigMap": {"data": `"data" is not a known field selector: only "metadata.name", "metadata.namespace"`},
	} {
		for label, want := range cases {
			if _, _, err := s.ConvertFieldLabel(corev1.SchemeGroupVersion.WithKind(kind), label, "v"); err == nil || err.Error() != want {
				t.Errorf("%s %s: error %v, want %s", kind, label, err, want)
			}
		}
	}
}
