package upsync

import (
	"encoding/json"
	"maps"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/sync/spec"
)

// Event is the hub copy, namespace/name, of downstream Event down, for the
// syncer of the target of key: all but its metadata, about the object of
// the same name at the hub, labelled with the upsynced mark.
func Event(down *unstructured.Unstructured, namespace, name, key string) *unstructured.Unstructured {
	out := &unstructured.Unstructured{Object: map[string]any{}}
	for field, value := range down.Object {
		if field != "metadata" {
			out.Object[field] = value
		}
	}
	out = out.DeepCopy()
	out.SetName(name)
	out.SetNamespace(namespace)
	out.SetLabels(map[string]string{workloadv1alpha1.UpsyncedLabel: key})
	// The downstream object's UID and version mean nothing at the hub.
	unstructured.RemoveNestedField(out.Object, "involvedObject", "uid")
	unstructured.RemoveNestedField(out.Object, "involvedObject", "resourceVersion")
	_ = unstructured.SetNestedField(out.Object, namespace, "involvedObject", "namespace")
	return out
}

// EventWrite is the merge patch that makes hub copy current of an Event
// hold desired, Event's copy: its fields but the metadata, which the
// copy keeps; nil when current holds them already, as the hub answers
// them (spec.Contains: what the hub adds is no difference).
func EventWrite(current, desired *unstructured.Unstructured) ([]byte, error) {
	if spec.Contains(current.Object, desired.Object) {
		return nil, nil
	}
	fields := maps.Clone(desired.Object)
	delete(fields, "metadata")
	return json.Marshal(fields)
}
