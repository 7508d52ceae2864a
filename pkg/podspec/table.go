package podspec

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TemplateColumns are what kubectl get -o wide adds for the kinds that
// run a pod template: its containers and images, and the selector.
var TemplateColumns = []metav1.TableColumnDefinition{
	{Name: "Containers", Type: "string", Description: "Names of each container in the template."},
	{Name: "Images", Type: "string", Description: "Images referenced by each container in the template."},
	{Name: "Selector", Type: "string", Description: "Label selector for pods."},
}

// TemplateCells are the values of TemplateColumns, without the selector
// when it is nil, for kinds whose table has no selector column.
func TemplateCells(t *corev1.PodTemplateSpec, selector *metav1.LabelSelector) []any {
	containers, images := ContainersAndImages(&t.Spec)
	if selector == nil {
		return []any{containers, images}
	}
	return []any{containers, images, metav1.FormatLabelSelector(selector)}
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
