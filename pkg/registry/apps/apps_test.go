package apps

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
)

func template() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.27"}}},
	}
}

func deployment() *appsv1.Deployment {
	d := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, Template: template()}}
	defaultDeployment(d)
	return d
}

func statefulSet() *appsv1.StatefulSet {
	s := &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, Template: template(), ServiceName: "web"}}
	defaultStatefulSet(s)
	return s
}

func daemonSet() *appsv1.DaemonSet {
	d := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, Template: template()}}
	defaultDaemonSet(d)
	return d
}

func TestDefaults(t *testing.T) {
	d, s, ds := deployment(), statefulSet(), daemonSet()
	rs := &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Template: template()}}
	defaultReplicaSet(rs)
	for what, ok := range map[string]bool{
		"deployment replicas":       *d.Spec.Replicas == 1,
		"deployment strategy":       d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType && d.Spec.Strategy.RollingUpdate.MaxSurge.String() == "25%" && d.Spec.Strategy.RollingUpdate.MaxUnavailable.String() == "25%",
		"deployment history":        *d.Spec.RevisionHistoryLimit == 10,
		"deployment progress":       *d.Spec.ProgressDeadlineSeconds == 600,
		"deployment template":       d.Spec.Template.Spec.RestartPolicy == corev1.RestartPolicyAlways,
		"statefulset replicas":      *s.Spec.Replicas == 1,
		"statefulset management":    s.Spec.PodManagementPolicy == appsv1.OrderedReadyPodManagement,
		"statefulset update":        s.Spec.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType && *s.Spec.UpdateStrategy.RollingUpdate.Partition == 0,
		"statefulset history":       *s.Spec.RevisionHistoryLimit == 10,
		"statefulset pvc retention": s.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted == appsv1.RetainPersistentVolumeClaimRetentionPolicyType && s.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled == appsv1.RetainPersistentVolumeClaimRetentionPolicyType,
		"daemonset update":          ds.Spec.UpdateStrategy.Type == appsv1.RollingUpdateDaemonSetStrategyType && ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable.IntValue() == 1 && ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge.IntValue() == 0,
		"daemonset history":         *ds.Spec.RevisionHistoryLimit == 10,
		"replicaset replicas":       *rs.Spec.Replicas == 1,
	} {
		if !ok {
			t.Errorf("default %s not as Kubernetes sets it", what)
		}
	}
	recreate := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}}}
	defaultDeployment(recreate)
	if recreate.Spec.Strategy.RollingUpdate != nil {
		t.Errorf("a Recreate Deployment got a rollingUpdate")
	}
}

func TestValidate(t *testing.T) {
	for name, tc := range map[string]struct {
		errs field.ErrorList
		want string
	}{
		"deployment": {validateDeployment(deployment()), ""},
		"negative replicas": {validateDeployment(fieldtest.With(deployment(), func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To(int32(-1)) })),
			"spec.replicas: Invalid value"},
		"no selector": {validateDeployment(fieldtest.With(deployment(), func(d *appsv1.Deployment) { d.Spec.Selector = nil })), "spec.selector: Required value"},
		"selector not matching": {validateDeployment(fieldtest.With(deployment(), func(d *appsv1.Deployment) { d.Spec.Template.Labels = map[string]string{"app": "db"} })),
			"spec.template.metadata.labels: Invalid value: {\"app\":\"db\"}: `selector` does not match template `labels`"},
		"restart never": {validateDeployment(fieldtest.With(deployment(), func(d *appsv1.Deployment) { d.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever })),
			"spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""},
		"no image": {validateDeployment(fieldtest.With(deployment(), func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "" })),
			"spec.template.spec.containers[0].image: Required value"},
		"both zero": {validateDeployment(fieldtest.With(deployment(), func(d *appsv1.Deployment) {
			d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: ptr.To(intstr.FromInt32(0)), MaxUnavailable: ptr.To(intstr.FromString("0%"))}
		})), "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0"},
		"recreate with rollingUpdate": {validateDeployment(fieldtest.With(deployment(), func(d *appsv1.Deployment) { d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType })),
			"spec.strategy.rollingUpdate: Forbidden"},
		"over 100%": {validateDeployment(fieldtest.With(deployment(), func(d *appsv1.Deployment) { d.Spec.Strategy.RollingUpdate.MaxSurge = ptr.To(intstr.FromString("150%")) })),
			"spec.strategy.rollingUpdate.maxSurge: Invalid value"},
		"statefulset":            {validateStatefulSet(statefulSet()), ""},
		"statefulset management": {validateStatefulSet(fieldtest.With(statefulSet(), func(s *appsv1.StatefulSet) { s.Spec.PodManagementPolicy = "Random" })), "spec.podManagementPolicy: Unsupported value"},
		"daemonset":              {validateDaemonSet(daemonSet()), ""},
		"daemonset restart": {validateDaemonSet(fieldtest.With(daemonSet(), func(d *appsv1.DaemonSet) { d.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure })),
			"spec.template.spec.restartPolicy: Unsupported value"},
		"selector changed": {validateSelectorUpdate(selectorOf(fieldtest.With(deployment(), func(d *appsv1.Deployment) { d.Spec.Selector.MatchLabels["tier"] = "x" })), selectorOf(deployment())),
			"spec.selector: Invalid value"},
		"statefulset scaled": {validateStatefulSetUpdate(fieldtest.With(statefulSet(), func(s *appsv1.StatefulSet) { s.Spec.Replicas = ptr.To(int32(4)) }), statefulSet()), ""},
		"statefulset service changed": {validateStatefulSetUpdate(fieldtest.With(statefulSet(), func(s *appsv1.StatefulSet) { s.Spec.ServiceName = "other" }), statefulSet()),
			"spec: Forbidden: updates to statefulset spec for fields other than"},
		"revision data changed": {validateControllerRevisionUpdate(&appsv1.ControllerRevision{Revision: 2}, &appsv1.ControllerRevision{Revision: 1, Data: runtime.RawExtension{Raw: []byte(`{"a":1}`)}}),
			"data: Invalid value"},
	} {
		t.Run(name, func(t *testing.T) { fieldtest.Assert(t, tc.errs, tc.want) })
	}
}
