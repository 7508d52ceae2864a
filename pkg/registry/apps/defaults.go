package apps

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/podspec"
)

// Kubernetes' defaults of the apps/v1 kinds.
const (
	defaultReplicas                = int32(1)
	defaultRevisionHistoryLimit    = int32(10)
	defaultProgressDeadlineSeconds = int32(600)
)

var defaultRollingPercent = intstr.FromString("25%")

func defaultReplicasOf(replicas **int32) {
	if *replicas == nil {
		*replicas = ptr.To(defaultReplicas)
	}
}

func defaultHistoryLimit(limit **int32) {
	if *limit == nil {
		*limit = ptr.To(defaultRevisionHistoryLimit)
	}
}

func defaultDeployment(d *appsv1.Deployment) {
	podspec.DefaultTemplate(&d.Spec.Template)
	defaultReplicasOf(&d.Spec.Replicas)
	defaultHistoryLimit(&d.Spec.RevisionHistoryLimit)
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = ptr.To(defaultProgressDeadlineSeconds)
	}
	s := &d.Spec.Strategy
	if s.Type == "" {
		s.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if s.Type != appsv1.RollingUpdateDeploymentStrategyType {
		return
	}
	if s.RollingUpdate == nil {
		s.RollingUpdate = &appsv1.RollingUpdateDeployment{}
	}
	if s.RollingUpdate.MaxUnavailable == nil {
		s.RollingUpdate.MaxUnavailable = ptr.To(defaultRollingPercent)
	}
	if s.RollingUpdate.MaxSurge == nil {
		s.RollingUpdate.MaxSurge = ptr.To(defaultRollingPercent)
	}
}

func defaultReplicaSet(rs *appsv1.ReplicaSet) {
	podspec.DefaultTemplate(&rs.Spec.Template)
	defaultReplicasOf(&rs.Spec.Replicas)
}

func defaultStatefulSet(s *appsv1.StatefulSet) {
	podspec.DefaultTemplate(&s.Spec.Template)
	defaultReplicasOf(&s.Spec.Replicas)
	defaultHistoryLimit(&s.Spec.RevisionHistoryLimit)
	if s.Spec.PodManagementPolicy == "" {
		s.Spec.PodManagementPolicy = appsv1.OrderedReadyPodManagement
	}
	u := &s.Spec.UpdateStrategy
	if u.Type == "" {
		u.Type = appsv1.RollingUpdateStatefulSetStrategyType
	}
	if u.Type == appsv1.RollingUpdateStatefulSetStrategyType {
		if u.RollingUpdate == nil {
			u.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
		if u.RollingUpdate.Partition == nil {
			u.RollingUpdate.Partition = ptr.To(int32(0))
		}
	}
	if s.Spec.PersistentVolumeClaimRetentionPolicy == nil {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	p := s.Spec.PersistentVolumeClaimRetentionPolicy
	if p.WhenDeleted == "" {
		p.WhenDeleted = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p.WhenScaled == "" {
		p.WhenScaled = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
}

func defaultDaemonSet(d *appsv1.DaemonSet) {
	podspec.DefaultTemplate(&d.Spec.Template)
	defaultHistoryLimit(&d.Spec.RevisionHistoryLimit)
	u := &d.Spec.UpdateStrategy
	if u.Type == "" {
		u.Type = appsv1.RollingUpdateDaemonSetStrategyType
	}
	if u.Type != appsv1.RollingUpdateDaemonSetStrategyType {
		return
	}
	if u.RollingUpdate == nil {
		u.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
	}
	if u.RollingUpdate.MaxUnavailable == nil {
		u.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromInt32(1))
	}
	if u.RollingUpdate.MaxSurge == nil {
		u.RollingUpdate.MaxSurge = ptr.To(intstr.FromInt32(0))
	}
}
