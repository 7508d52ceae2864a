package batch

import (
	"context"
	"fmt"
	"strings"
	"time"

	// CronJob time zones are checked against the IANA database, which
	// the hub carries rather than trusting its host to have.
	_ "time/tzdata"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/pkg/podspec"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// maxCronJobNameLength leaves room for the suffix of the Jobs a CronJob
// makes, within the 63 characters of a label value.
const maxCronJobNameLength = 52

var spec = field.NewPath("spec")

// jobStrategy is the strategy of Jobs, which get their selector, from
// their UID, when validated: the first moment the UID is known.
type jobStrategy struct{ registry.Kind[*batchv1.Job] }

func (s jobStrategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	generateSelector(obj.(*batchv1.Job))
	return s.Kind.Validate(ctx, obj)
}

func validateJob(j *batchv1.Job) field.ErrorList {
	errs := validateJobSpec(&j.Spec, spec)
	errs = append(errs, podspec.ValidateSelector("job", j.Spec.Selector, &j.Spec.Template, spec)...)
	if !manualSelector(j) && j.Spec.Selector != nil && j.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel] != string(j.UID) {
		errs = append(errs, field.Invalid(spec.Child("selector"), j.Spec.Selector, "`selector` not auto-generated"))
	}
	return errs
}

// validateJobUpdate keeps what a Job's pods were made from.
func validateJobUpdate(j, old *batchv1.Job) field.ErrorList {
	errs := apivalidation.ValidateImmutableField(j.Spec.Selector, old.Spec.Selector, spec.Child("selector"))
	errs = append(errs, apivalidation.ValidateImmutableField(j.Spec.Template, old.Spec.Template, spec.Child("template"))...)
	errs = append(errs, apivalidation.ValidateImmutableField(j.Spec.CompletionMode, old.Spec.CompletionMode, spec.Child("completionMode"))...)
	return append(errs, apivalidation.ValidateImmutableField(j.Spec.Completions, old.Spec.Completions, spec.Child("completions"))...)
}

// validateJobSpec checks the spec of a Job or of a CronJob's Jobs.
func validateJobSpec(s *batchv1.JobSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for name, v := range map[string]*int32{
		"parallelism": s.Parallelism, "completions": s.Completions, "backoffLimit": s.BackoffLimit, "ttlSecondsAfterFinished": s.TTLSecondsAfterFinished,
	} {
		if v != nil {
			errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*v), path.Child(name))...)
		}
	}
	if s.ActiveDeadlineSeconds != nil && *s.ActiveDeadlineSeconds <= 0 {
		errs = append(errs, field.Invalid(path.Child("activeDeadlineSeconds"), *s.ActiveDeadlineSeconds, "must be greater than 0"))
	}
	if m := s.CompletionMode; m != nil {
		switch *m {
		case batchv1.NonIndexedCompletion:
		case batchv1.IndexedCompletion:
			if s.Completions == nil {
				errs = append(errs, field.Required(path.Child("completions"), "when completion mode is Indexed"))
			}
		default:
			errs = append(errs, field.NotSupported(path.Child("completionMode"), *m, []string{string(batchv1.NonIndexedCompletion), string(batchv1.IndexedCompletion)}))
		}
	}
	if p := s.PodReplacementPolicy; p != nil && *p != batchv1.TerminatingOrFailed && *p != batchv1.Failed {
		errs = append(errs, field.NotSupported(path.Child("podReplacementPolicy"), *p, []string{string(batchv1.TerminatingOrFailed), string(batchv1.Failed)}))
	}
	errs = append(errs, podspec.ValidateTemplate(&s.Template, path.Child("template"))...)
	// A Job's pods run to an end: the Job counts how they ended.
	return append(errs, podspec.RestartPolicy(&s.Template, path, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever)...)
}

func validateCronJob(c *batchv1.CronJob) field.ErrorList {
	var errs field.ErrorList
	if len(c.Name) > maxCronJobNameLength {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), c.Name, fmt.Sprintf("must be no more than %d characters", maxCronJobNameLength)))
	}
	switch schedule := spec.Child("schedule"); {
	case c.Spec.Schedule == "":
		errs = append(errs, field.Required(schedule, ""))
	case strings.Contains(c.Spec.Schedule, "TZ"):
		errs = append(errs, field.Invalid(schedule, c.Spec.Schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	default:
		if err := parseSchedule(c.Spec.Schedule); err != nil {
			errs = append(errs, field.Invalid(schedule, c.Spec.Schedule, err.Error()))
		}
	}
	if tz := c.Spec.TimeZone; tz != nil {
		if _, err := time.LoadLocation(*tz); err != nil || *tz == "" || strings.EqualFold(*tz, "local") {
			errs = append(errs, field.Invalid(spec.Child("timeZone"), *tz, "unknown time zone"))
		}
	}
	switch c.Spec.ConcurrencyPolicy {
	case batchv1.AllowConcurrent, batchv1.ForbidConcurrent, batchv1.ReplaceConcurrent:
	default:
		errs = append(errs, field.NotSupported(spec.Child("concurrencyPolicy"), c.Spec.ConcurrencyPolicy,
			[]string{string(batchv1.AllowConcurrent), string(batchv1.ForbidConcurrent), string(batchv1.ReplaceConcurrent)}))
	}
	for name, v := range map[string]*int32{"successfulJobsHistoryLimit": c.Spec.SuccessfulJobsHistoryLimit, "failedJobsHistoryLimit": c.Spec.FailedJobsHistoryLimit} {
		if v != nil {
			errs = append(errs, apivalidation.ValidateNonnegativeField(int64(*v), spec.Child(name))...)
		}
	}
	if d := c.Spec.StartingDeadlineSeconds; d != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(*d, spec.Child("startingDeadlineSeconds"))...)
	}
	return append(errs, validateJobSpec(&c.Spec.JobTemplate.Spec, spec.Child("jobTemplate", "spec"))...)
}
