package batch

import (
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The unprefixed labels Kubernetes still sets on a Job's pods, for the
// clients that select them so.
const (
	legacyControllerUIDLabel = "controller-uid"
	legacyJobNameLabel       = "job-name"
)

// generateSelector gives a Job whose selector is not manual the selector
// of its own pods, by its UID, and labels its pods so, as Kubernetes
// does: two Jobs of one name, one after the other, never share pods. It
// runs once the UID is set.
func generateSelector(j *batchv1.Job) {
	if manualSelector(j) {
		return
	}
	uid := string(j.UID)
	if j.Spec.Template.Labels == nil {
		j.Spec.Template.Labels = map[string]string{}
	}
	for key, value := range map[string]string{
		legacyControllerUIDLabel: uid, batchv1.ControllerUidLabel: uid,
		legacyJobNameLabel: j.Name, batchv1.JobNameLabel: j.Name,
	} {
		if _, ok := j.Spec.Template.Labels[key]; !ok {
			j.Spec.Template.Labels[key] = value
		}
	}
	if j.Spec.Selector == nil {
		j.Spec.Selector = &metav1.LabelSelector{}
	}
	if j.Spec.Selector.MatchLabels == nil {
		j.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := j.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel]; !ok {
		j.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel] = uid
	}
}

func manualSelector(j *batchv1.Job) bool {
	return j.Spec.ManualSelector != nil && *j.Spec.ManualSelector
}
