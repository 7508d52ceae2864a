package registry

import (
	"fmt"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Fields are the fields lists and watches may select a kind's objects by
// (a field selector, ?fieldSelector=status.phase=Running), besides
// metadata.name and, for a namespaced kind, metadata.namespace. Kubernetes
// spreads each kind's over two places, its registry strategy's
// ToSelectableFields (the values) and its API version's field label
// conversion (the labels a request may use); here they are one literal,
// taken from both, with a comment naming the upstream files and the
// version of k8s.io/kubernetes they were taken from.
type Fields[T runtime.Object] struct {
	// ClusterScoped kinds have no metadata.namespace to select by.
	ClusterScoped bool
	// Values are the other fields, each with its value in an object.
	Values map[string]func(T) string
	// Aliases are labels older clients use for one of Values.
	Aliases map[string]string
	// NotSupported is the error of a selector on any other field; nil is
	// Kubernetes' usual "field label not supported: LABEL".
	NotSupported func(label string) error
}

// Selectable is a kind's Fields, whatever the kind, for a Resource.
type Selectable interface {
	// ConvertFieldLabel is the scheme's field label conversion: a label a
	// request may select by, under its current name, or the error that
	// the request answers with, 400 Bad Request.
	ConvertFieldLabel(label, value string) (string, string, error)
	// Attrs gives the labels and selectable fields of an object, for the
	// store, the datastore's list and watch, and the watch cache.
	Attrs(obj runtime.Object) (labels.Set, fields.Set, error)
}

func (f Fields[T]) ConvertFieldLabel(label, value string) (string, string, error) {
	if name, ok := f.Aliases[label]; ok {
		return name, value, nil
	}
	_, known := f.Values[label]
	if known || label == "metadata.name" || label == "metadata.namespace" && !f.ClusterScoped {
		return label, value, nil
	}
	if f.NotSupported != nil {
		return "", "", f.NotSupported(label)
	}
	return "", "", fmt.Errorf("field label not supported: %s", label)
}

func (f Fields[T]) Attrs(obj runtime.Object) (labels.Set, fields.Set, error) {
	o, ok := obj.(T)
	if !ok {
		return nil, nil, fmt.Errorf("selecting by fields: %T is not a %T", obj, *new(T))
	}
	m := metaOf(o)
	set := make(fields.Set, len(f.Values)+2)
	set["metadata.name"] = m.GetName()
	if !f.ClusterScoped {
		set["metadata.namespace"] = m.GetNamespace()
	}
	for label, value := range f.Values {
		set[label] = value(o)
	}
	return m.GetLabels(), set, nil
}

// AddFieldLabelConversion makes s accept, in the requests for gvk, the
// field labels of f, as Kubernetes registers its kinds'. Without it a
// request may select by metadata.name and metadata.namespace only.
func AddFieldLabelConversion(s *runtime.Scheme, gvk schema.GroupVersionKind, f Selectable) error {
	return s.AddFieldLabelConversionFunc(gvk, f.ConvertFieldLabel)
}
