package apps

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// What upstream's strategies (pkg/registry/apps/*/strategy.go of
// Kubernetes v1.37.1) do beyond validation and the status and generation
// handling every kind with a spec gets.

// deploymentGeneration bumps a Deployment's generation on a change of its
// spec or of its annotations, which its controller copies to its
// ReplicaSets.
func deploymentGeneration(d, old *appsv1.Deployment) bool {
	return registry.SpecChanged(d, old) || !equality.Semantic.DeepEqual(d.Annotations, old.Annotations)
}

// A DaemonSet counts the changes of its pod template in its
// spec.templateGeneration, which apps/v1 shows as an annotation: 1 on
// create unless set higher, and one more on each update that changes the
// template. An annotation that is no number is left for validation to
// refuse.

func createDaemonSet(d *appsv1.DaemonSet) {
	g, ok := templateGeneration(d)
	if !ok {
		return
	}
	setTemplateGeneration(d, max(g, 1))
}

func updateDaemonSet(d, old *appsv1.DaemonSet) {
	if _, ok := templateGeneration(d); !ok {
		return
	}
	g, _ := templateGeneration(old)
	if !equality.Semantic.DeepEqual(d.Spec.Template, old.Spec.Template) {
		g++
	}
	setTemplateGeneration(d, g)
}

// keepTemplateGeneration keeps the template generation through the status
// subresource, which may not change the spec.
func keepTemplateGeneration(d, old *appsv1.DaemonSet) {
	if g, ok := templateGeneration(old); ok {
		setTemplateGeneration(d, g)
	}
}

// templateGeneration is the template generation d's annotation gives, 0
// without one; false when it is no number.
func templateGeneration(d *appsv1.DaemonSet) (int64, bool) {
	v, ok := d.Annotations[appsv1.DeprecatedTemplateGeneration]
	if !ok {
		return 0, true
	}
	g, err := strconv.ParseInt(v, 10, 64)
	return g, err == nil
}

func setTemplateGeneration(d *appsv1.DaemonSet, g int64) {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[appsv1.DeprecatedTemplateGeneration] = strconv.FormatInt(g, 10)
}

// statefulSetWarnings warns of a negative revisionHistoryLimit, which
// keeps every revision.
func statefulSetWarnings(s, _ *appsv1.StatefulSet) []string {
	if l := s.Spec.RevisionHistoryLimit; l != nil && *l < 0 {
		return []string{"spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended"}
	}
	return nil
}
