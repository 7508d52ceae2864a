package events

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// TestConversions checks that an events.k8s.io/v1 Event is stored as the
// core/v1 Event kube-apiserver makes of it, and read back unchanged, and
// that field selectors of events.k8s.io/v1 name core/v1's fields.
func TestConversions(t *testing.T) {
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	when := metav1.NewMicroTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	in := &eventsv1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: "default"},
		EventTime:  when, ReportingController: "example.com/c", ReportingInstance: "c-1",
		Action: "Test", Reason: "Tested", Note: "the note", Type: "Normal",
		Regarding:        corev1.ObjectReference{Kind: "ConfigMap", Namespace: "default", Name: "cm"},
		DeprecatedSource: corev1.EventSource{Component: "old"}, DeprecatedCount: 3,
	}
	internal, err := s.ConvertToVersion(in, schema.GroupVersion{Group: eventsv1.GroupName, Version: runtime.APIVersionInternal})
	if err != nil {
		t.Fatal(err)
	}
	core, ok := internal.(*corev1.Event)
	if !ok {
		t.Fatalf("the internal Event of events.k8s.io is a %T, not core/v1's", internal)
	}
	if core.Message != "the note" || core.InvolvedObject.Name != "cm" || core.Source.Component != "old" || core.Count != 3 ||
		core.ReportingController != "example.com/c" || !core.EventTime.Equal(&when) {
		t.Errorf("stored as %+v", core)
	}
	back, err := s.ConvertToVersion(core, eventsv1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	out := back.(*eventsv1.Event)
	out.TypeMeta = in.TypeMeta
	if out.Note != in.Note || out.Regarding != in.Regarding || out.DeprecatedCount != 3 || out.Action != "Test" {
		t.Errorf("read back as %+v, written as %+v", out, in)
	}

	list := &corev1.EventList{Items: []corev1.Event{*core}}
	versioned, err := s.ConvertToVersion(list, eventsv1.SchemeGroupVersion)
	if err != nil {
		t.Fatal(err)
	}
	if items := versioned.(*eventsv1.EventList).Items; len(items) != 1 || items[0].Note != "the note" {
		t.Errorf("a list reads as %+v", items)
	}

	for label, want := range map[string]string{"regarding.name": "involvedObject.name", "reportingController": "reportingComponent", "type": "type"} {
		got, _, err := s.ConvertFieldLabel(eventsv1.SchemeGroupVersion.WithKind("Event"), label, "x")
		if err != nil || got != want {
			t.Errorf("field label %s selects %q (%v), want %q", label, got, err, want)
		}
	}
	if _, _, err := s.ConvertFieldLabel(eventsv1.SchemeGroupVersion.WithKind("Event"), "involvedObject.name", "x"); err == nil {
		t.Error("events.k8s.io/v1 takes core/v1's field label involvedObject.name, which kube-apiserver refuses there")
	}
}
