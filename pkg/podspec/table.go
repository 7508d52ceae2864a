package podspec

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TemplateColumns are what kubectl get -o wide adds for the kinds that
// run a pod template: its containers and images.
var TemplateColumns = []metav1.TableColumnDefinition{
	{Name: "Containers", Type: "string", Description: "Names of each container in the template."},
	{Name: "Images", Type: "string", Description: "Images referenced by each container in the template."},
}

// SelectorColumns are TemplateColumns and the selector, for the kinds
// whose -o wide table shows it too; kube-apiserver describes the selector
// as the kind's own field is (description).
func SelectorColumns(description string) []metav1.TableColumnDefinition {
	return append(slices.Clone(TemplateColumns), metav1.TableColumnDefinition{Name: "Selector", Type: "string", Description: description})
}

// TemplateCells are the values of TemplateColumns.
func TemplateCells(t *corev1.PodTemplateSpec) []any {
	containers, images := ContainersAndImages(&t.Spec)
	return []any{containers, images}
}

// SelectorCells are the values of SelectorColumns: a nil selector is
// "<none>", as kube-apiserver prints it.
func SelectorCells(t *corev1.PodTemplateSpec, selector *metav1.LabelSelector) []any {
	return append(TemplateCells(t), metav1.FormatLabelSelector(selector))
}

// ContainersAndImages are the names and images of a spec's containers,
// comma-separated, as kubectl get -o wide shows them.
func ContainersAndImages(s *corev1.PodSpec) (containers, images string) {
	names := make([]string, len(s.Containers))
	imgs := make([]string, len(s.Containers))
	for i, c := range s.Containers {
		names[i], imgs[i] = c.Name, c.Image
	}
	return strings.Join(names, ","), strings.Join(imgs, ",")
}
