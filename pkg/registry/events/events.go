package events

import (
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/core"
	k8s_api_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/core/v1"
	k8s_events_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/events/v1"
)

var internalVersion = schema.GroupVersion{Group: eventsv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers events.k8s.io/v1, with upstream's defaults and
// field label conversions, core/v1's Event as its internal version, and
// the conversions between the two.
func AddToScheme(s *runtime.Scheme) error {
	if err := eventsv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, &corev1.Event{}, &corev1.EventList{})
	for _, c := range []struct {
		a, b any
		f    conversion.ConversionFunc
	}{
		{(*eventsv1.Event)(nil), (*corev1.Event)(nil), func(a, b any, s conversion.Scope) error { return toCore(a.(*eventsv1.Event), b.(*corev1.Event), s) }},
		{(*corev1.Event)(nil), (*eventsv1.Event)(nil), func(a, b any, s conversion.Scope) error { return fromCore(a.(*corev1.Event), b.(*eventsv1.Event), s) }},
		{(*eventsv1.EventList)(nil), (*corev1.EventList)(nil), func(a, b any, s conversion.Scope) error {
			in, out := a.(*eventsv1.EventList), b.(*corev1.EventList)
			out.ListMeta, out.Items = in.ListMeta, make([]corev1.Event, len(in.Items))
			return convertItems(in.Items, out.Items, s, toCore)
		}},
		{(*corev1.EventList)(nil), (*eventsv1.EventList)(nil), func(a, b any, s conversion.Scope) error {
			in, out := a.(*corev1.EventList), b.(*eventsv1.EventList)
			out.ListMeta, out.Items = in.ListMeta, make([]eventsv1.Event, len(in.Items))
			return convertItems(in.Items, out.Items, s, fromCore)
		}},
	} {
		if err := s.AddConversionFunc(c.a, c.b, c.f); err != nil {
			return err
		}
	}
	return s.SetVersionPriority(eventsv1.SchemeGroupVersion)
}

// toCore converts an events.k8s.io/v1 Event to core/v1's through
// upstream's internal Event.
func toCore(in *eventsv1.Event, out *corev1.Event, s conversion.Scope) error {
	var e core.Event
	if err := k8s_events_v1.Convert_v1_Event_To_core_Event(in, &e, s); err != nil {
		return err
	}
	return k8s_api_v1.Convert_core_Event_To_v1_Event(&e, out, s)
}

// fromCore converts a core/v1 Event to events.k8s.io/v1's through
// upstream's internal Event.
func fromCore(in *corev1.Event, out *eventsv1.Event, s conversion.Scope) error {
	var e core.Event
	if err := k8s_api_v1.Convert_v1_Event_To_core_Event(in, &e, s); err != nil {
		return err
	}
	return k8s_events_v1.Convert_core_Event_To_v1_Event(&e, out, s)
}

func convertItems[A, B any](in []A, out []B, s conversion.Scope, convert func(*A, *B, conversion.Scope) error) error {
	for i := range in {
		if err := convert(&in[i], &out[i], s); err != nil {
			return err
		}
	}
	return nil
}

// Serve is events.k8s.io/v1 over v1, the core/v1 group's storage: its
// Events' store, which serves both versions.
func Serve(v1 registry.Group) registry.Group {
	return registry.Group{Storage: map[string]rest.Storage{"events": v1.Storage["events"]}}
}
