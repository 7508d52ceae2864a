package podspec

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

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
