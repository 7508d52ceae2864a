package batch

import (
	"maps"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/podspec"
)

// Kubernetes' defaults of the batch/v1 kinds.
const (
	defaultBackoffLimit               = int32(6)
	defaultSuccessfulJobsHistoryLimit = int32(3)
	defaultFailedJobsHistoryLimit     = int32(1)
)

func defaultJob(j *batchv1.Job) {
	// A Job without labels of its own is labelled as its pods.
	if len(j.Labels) == 0 && j.Spec.Template.Labels != nil {
		j.Labels = maps.Clone(j.Spec.Template.Labels)
	}
	podspec.DefaultTemplate(&j.Spec.Template)
	s := &j.Spec
	// Unbounded parallelism and completions mean one pod, run once.
	if s.Completions == nil && s.Parallelism == nil {
		s.Completions = ptr.To(int32(1))
	}
	if s.Parallelism == nil {
		s.Parallelism = ptr.To(int32(1))
	}
	if s.BackoffLimit == nil {
		s.BackoffLimit = ptr.To(defaultBackoffLimit)
	}
	if s.CompletionMode == nil {
		s.CompletionMode = ptr.To(batchv1.NonIndexedCompletion)
	}
	if s.Suspend == nil {
		s.Suspend = ptr.To(false)
	}
	if s.PodReplacementPolicy == nil {
		// A pod failure policy needs pods to have finished before it
		// can judge them.
		policy := batchv1.TerminatingOrFailed
		if s.PodFailurePolicy != nil {
			policy = batchv1.Failed
		}
		s.PodReplacementPolicy = &policy
	}
}

func defaultCronJob(c *batchv1.CronJob) {
	podspec.DefaultTemplate(&c.Spec.JobTemplate.Spec.Template)
	s := &c.Spec
	if s.ConcurrencyPolicy == "" {
		s.ConcurrencyPolicy = batchv1.AllowConcurrent
	}
	if s.Suspend == nil {
		s.Suspend = ptr.To(false)
	}
	if s.SuccessfulJobsHistoryLimit == nil {
		s.SuccessfulJobsHistoryLimit = ptr.To(defaultSuccessfulJobsHistoryLimit)
	}
	if s.FailedJobsHistoryLimit == nil {
		s.FailedJobsHistoryLimit = ptr.To(defaultFailedJobsHistoryLimit)
	}
}
