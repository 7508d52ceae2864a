package apps

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/pkg/podspec"
)

var spec = field.NewPath("spec")

// validateWorkload checks what every apps/v1 workload has: replicas when
// it has them, a selector of its pod template, a template whose pods
// keep running, and history and readiness bounds.
func validateWorkload(kind string, replicas *int32, s *podSelector, minReadySeconds int32, historyLimit *int32) field.ErrorList {
	var errs field.ErrorList
	if replicas != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*replicas), spec.Child("replicas"))...)
	}
	errs = append(errs, podspec.ValidateSelector(kind, s.selector, s.template, spec)...)
	errs = append(errs, podspec.ValidateTemplate(s.template, spec.Child("template"))...)
	errs = append(errs, podspec.RestartPolicy(s.template, spec, corev1.RestartPolicyAlways)...)
	errs = append(errs, apivalidation.ValidateNonnegativeField(int64(minReadySeconds), spec.Child("minReadySeconds"))...)
	if historyLimit != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*historyLimit), spec.Child("revisionHistoryLimit"))...)
	}
	return errs
}

// validateSelectorUpdate refuses a changed selector: apps/v1 workloads
// would otherwise lose track of the pods they made.
func validateSelectorUpdate(s, old *podSelector) field.ErrorList {
	return apivalidation.ValidateImmutableField(s.selector, old.selector, spec.Child("selector"))
}

func validateDeployment(d *appsv1.Deployment) field.ErrorList {
	errs := validateWorkload("deployment", d.Spec.Replicas, selectorOf(d), d.Spec.MinReadySeconds, d.Spec.RevisionHistoryLimit)
	strategy := spec.Child("strategy")
	switch d.Spec.Strategy.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if d.Spec.Strategy.RollingUpdate != nil {
			errs = append(errs, field.Forbidden(strategy.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"))
		}
	case appsv1.RollingUpdateDeploymentStrategyType:
		if r := d.Spec.Strategy.RollingUpdate; r != nil {
			errs = append(errs, validateRollingUpdate(r.MaxUnavailable, r.MaxSurge, strategy.Child("rollingUpdate"))...)
		}
	default:
		errs = append(errs, field.NotSupported(strategy.Child("type"), d.Spec.Strategy.Type,
			[]string{string(appsv1.RecreateDeploymentStrategyType), string(appsv1.RollingUpdateDeploymentStrategyType)}))
	}
	if p := d.Spec.ProgressDeadlineSeconds; p != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*p), spec.Child("progressDeadlineSeconds"))...)
		if *p <= d.Spec.MinReadySeconds {
			errs = append(errs, field.Invalid(spec.Child("progressDeadlineSeconds"), *p, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateRollingUpdate checks the bounds of a rolling update, which
// must let it make progress: not both zero.
func validateRollingUpdate(maxUnavailable, maxSurge *intstr.IntOrString, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, intOrPercent(maxUnavailable, path.Child("maxUnavailable"))...)
	errs = append(errs, intOrPercent(maxSurge, path.Child("maxSurge"))...)
	if isZero(maxUnavailable) && isZero(maxSurge) {
		errs = append(errs, field.Invalid(path.Child("maxUnavailable"), maxUnavailable.String(), "may not be 0 when `maxSurge` is 0"))
	}
	return errs
}

func intOrPercent(v *intstr.IntOrString, path *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if v.Type == intstr.Int {
		return apivalidation.ValidateNonnegativeField(int64(v.IntValue()), path)
	}
	var errs field.ErrorList
	for _, msg := range validation.IsValidPercent(v.StrVal) {
		errs = append(errs, field.Invalid(path, v.StrVal, msg))
	}
	if len(errs) == 0 {
		if p, _ := intstr.GetScaledValueFromIntOrPercent(v, 100, false); p > 100 {
			errs = append(errs, field.Invalid(path, v.StrVal, "must not be greater than 100%"))
		}
	}
	return errs
}

func isZero(v *intstr.IntOrString) bool {
	if v == nil {
		return true
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(v, 100, false)
	return err == nil && n == 0
}

func validateReplicaSet(rs *appsv1.ReplicaSet) field.ErrorList {
	return validateWorkload("replicaset", rs.Spec.Replicas, selectorOf(rs), rs.Spec.MinReadySeconds, nil)
}

func validateStatefulSet(s *appsv1.StatefulSet) field.ErrorList {
	errs := validateWorkload("statefulset", s.Spec.Replicas, selectorOf(s), s.Spec.MinReadySeconds, s.Spec.RevisionHistoryLimit)
	switch s.Spec.PodManagementPolicy {
	case appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement:
	default:
		errs = append(errs, field.NotSupported(spec.Child("podManagementPolicy"), s.Spec.PodManagementPolicy,
			[]string{string(appsv1.OrderedReadyPodManagement), string(appsv1.ParallelPodManagement)}))
	}
	update := spec.Child("updateStrategy")
	switch s.Spec.UpdateStrategy.Type {
	case appsv1.OnDeleteStatefulSetStrategyType:
		if s.Spec.UpdateStrategy.RollingUpdate != nil {
			errs = append(errs, field.Invalid(update.Child("rollingUpdate"), s.Spec.UpdateStrategy.RollingUpdate,
				fmt.Sprintf("only allowed for updateStrategy '%s'", appsv1.RollingUpdateStatefulSetStrategyType)))
		}
	case appsv1.RollingUpdateStatefulSetStrategyType:
		if r := s.Spec.UpdateStrategy.RollingUpdate; r != nil && r.Partition != nil {
			errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*r.Partition), update.Child("rollingUpdate", "partition"))...)
		}
	default:
		errs = append(errs, field.NotSupported(update.Child("type"), s.Spec.UpdateStrategy.Type,
			[]string{string(appsv1.RollingUpdateStatefulSetStrategyType), string(appsv1.OnDeleteStatefulSetStrategyType)}))
	}
	if p := s.Spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		policies := []string{string(appsv1.RetainPersistentVolumeClaimRetentionPolicyType), string(appsv1.DeletePersistentVolumeClaimRetentionPolicyType)}
		path := spec.Child("persistentVolumeClaimRetentionPolicy")
		for name, v := range map[string]appsv1.PersistentVolumeClaimRetentionPolicyType{"whenDeleted": p.WhenDeleted, "whenScaled": p.WhenScaled} {
			if v != appsv1.RetainPersistentVolumeClaimRetentionPolicyType && v != appsv1.DeletePersistentVolumeClaimRetentionPolicyType {
				errs = append(errs, field.NotSupported(path.Child(name), v, policies))
			}
		}
	}
	if o := s.Spec.Ordinals; o != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(o.Start), spec.Child("ordinals", "start"))...)
	}
	return errs
}

// validateStatefulSetUpdate allows the changes Kubernetes allows: those a
// StatefulSet can roll out to the pods and claims it already has.
func validateStatefulSetUpdate(s, old *appsv1.StatefulSet) field.ErrorList {
	mutable := old.Spec.DeepCopy()
	mutable.Replicas = s.Spec.Replicas
	mutable.Ordinals = s.Spec.Ordinals
	mutable.Template = s.Spec.Template
	mutable.UpdateStrategy = s.Spec.UpdateStrategy
	mutable.PersistentVolumeClaimRetentionPolicy = s.Spec.PersistentVolumeClaimRetentionPolicy
	mutable.MinReadySeconds = s.Spec.MinReadySeconds
	mutable.RevisionHistoryLimit = s.Spec.RevisionHistoryLimit
	if !equality.Semantic.DeepEqual(*mutable, s.Spec) {
		return field.ErrorList{field.Forbidden(spec, "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "+
			"'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")}
	}
	return nil
}

func validateDaemonSet(d *appsv1.DaemonSet) field.ErrorList {
	errs := validateWorkload("daemonset", nil, selectorOf(d), d.Spec.MinReadySeconds, d.Spec.RevisionHistoryLimit)
	update := spec.Child("updateStrategy")
	switch d.Spec.UpdateStrategy.Type {
	case appsv1.OnDeleteDaemonSetStrategyType:
	case appsv1.RollingUpdateDaemonSetStrategyType:
		if r := d.Spec.UpdateStrategy.RollingUpdate; r != nil {
			errs = append(errs, validateRollingUpdate(r.MaxUnavailable, r.MaxSurge, update.Child("rollingUpdate"))...)
		}
	default:
		errs = append(errs, field.NotSupported(update.Child("type"), d.Spec.UpdateStrategy.Type,
			[]string{string(appsv1.RollingUpdateDaemonSetStrategyType), string(appsv1.OnDeleteDaemonSetStrategyType)}))
	}
	return errs
}

func validateControllerRevision(r *appsv1.ControllerRevision) field.ErrorList {
	return apivalidation.ValidateNonnegativeField(r.Revision, field.NewPath("revision"))
}

// validateControllerRevisionUpdate keeps a revision's data, which is the
// record of what it was.
func validateControllerRevisionUpdate(r, old *appsv1.ControllerRevision) field.ErrorList {
	return apivalidation.ValidateImmutableField(r.Data, old.Data, field.NewPath("data"))
}
