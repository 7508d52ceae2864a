package core

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// eventTable is Kubernetes' table of events, which starts with when an
// event was last seen and keeps the name for -o wide.
var eventTable = registry.Table{
	Whole: true,
	Columns: []metav1.TableColumnDefinition{
		registry.Column("Last Seen", "string", corev1.Event{}.SwaggerDoc()["lastTimestamp"]),
		registry.Column("Type", "string", corev1.Event{}.SwaggerDoc()["type"]),
		registry.Column("Reason", "string", corev1.Event{}.SwaggerDoc()["reason"]),
		registry.Column("Object", "string", corev1.Event{}.SwaggerDoc()["involvedObject"]),
		wide(registry.Column("Subobject", "string", corev1.ObjectReference{}.SwaggerDoc()["fieldPath"])),
		wide(registry.Column("Source", "string", corev1.Event{}.SwaggerDoc()["source"])),
		registry.Column("Message", "string", corev1.Event{}.SwaggerDoc()["message"]),
		wide(registry.Column("First Seen", "string", corev1.Event{}.SwaggerDoc()["firstTimestamp"])),
		wide(registry.Column("Count", "string", corev1.Event{}.SwaggerDoc()["count"])),
		{Name: "Name", Type: "string", Format: "name", Priority: 1, Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]},
	},
	Cells: func(o runtime.Object) []any {
		ev := o.(*corev1.Event)
		first, last, count := ev.FirstTimestamp, ev.LastTimestamp, int64(ev.Count)
		if first.IsZero() {
			first = metav1.NewTime(ev.EventTime.Time)
		}
		if last.IsZero() {
			last = first
		}
		if ev.Series != nil {
			last, count = metav1.NewTime(ev.Series.LastObservedTime.Time), int64(ev.Series.Count)
		} else if count == 0 {
			// An events.k8s.io/v1 Event that happened once has no count.
			count = 1
		}
		object := strings.ToLower(ev.InvolvedObject.Kind)
		if ev.InvolvedObject.Name != "" {
			object += "/" + ev.InvolvedObject.Name
		}
		return []any{registry.Age(last), ev.Type, ev.Reason, object, ev.InvolvedObject.FieldPath,
			eventSource(ev), strings.TrimSpace(ev.Message), registry.Age(first), count, ev.Name}
	},
}

// eventSource is who reported an event, the older fields first.
func eventSource(ev *corev1.Event) string {
	component, host := ev.Source.Component, ev.Source.Host
	if component == "" {
		component, host = ev.ReportingController, ev.ReportingInstance
	}
	if host == "" {
		return component
	}
	return fmt.Sprintf("%s, %s", component, host)
}

func wide(c metav1.TableColumnDefinition) metav1.TableColumnDefinition {
	c.Priority = 1
	return c
}
