package batch

import (
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
)

func job() *batchv1.Job {
	j := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "once", UID: "uid-1"},
		Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "main", Image: "busybox"}},
		}}},
	}
	defaultJob(j)
	generateSelector(j)
	return j
}

func cronJob() *batchv1.CronJob {
	c := &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "nightly"},
		Spec: batchv1.CronJobSpec{Schedule: "0 3 * * *", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyOnFailure, Containers: []corev1.Container{{Name: "main", Image: "busybox"}},
		}}}}},
	}
	defaultCronJob(c)
	return c
}

func TestDefaults(t *testing.T) {
	j, c := job(), cronJob()
	for what, ok := range map[string]bool{
		"completions":          *j.Spec.Completions == 1,
		"parallelism":          *j.Spec.Parallelism == 1,
		"backoffLimit":         *j.Spec.BackoffLimit == 6,
		"completionMode":       *j.Spec.CompletionMode == batchv1.NonIndexedCompletion,
		"suspend":              !*j.Spec.Suspend,
		"manualSelector":       j.Spec.ManualSelector == nil,
		"podReplacementPolicy": *j.Spec.PodReplacementPolicy == batchv1.TerminatingOrFailed,
		"selector":             j.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel] == "uid-1",
		"pod labels":           j.Spec.Template.Labels[batchv1.JobNameLabel] == "once" && j.Spec.Template.Labels["controller-uid"] == "uid-1",
		"concurrencyPolicy":    c.Spec.ConcurrencyPolicy == batchv1.AllowConcurrent,
		"cron suspend":         !*c.Spec.Suspend,
		"history limits":       *c.Spec.SuccessfulJobsHistoryLimit == 3 && *c.Spec.FailedJobsHistoryLimit == 1,
		"cron pod template":    c.Spec.JobTemplate.Spec.Template.Spec.DNSPolicy == corev1.DNSClusterFirst,
	} {
		if !ok {
			t.Errorf("default %s not as Kubernetes sets it", what)
		}
	}
	parallel := &batchv1.Job{Spec: batchv1.JobSpec{Parallelism: ptr.To(int32(3))}}
	defaultJob(parallel)
	if parallel.Spec.Completions != nil {
		t.Errorf("a Job with parallelism got completions %d", *parallel.Spec.Completions)
	}
}

func TestValidate(t *testing.T) {
	for name, tc := range map[string]struct {
		errs field.ErrorList
		want string
	}{
		"job": {validateJob(job()), ""},
		"restart always": {validateJob(fieldtest.With(job(), func(j *batchv1.Job) { j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways })),
			"spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\""},
		"negative backoff": {validateJob(fieldtest.With(job(), func(j *batchv1.Job) { j.Spec.BackoffLimit = ptr.To(int32(-1)) })), "spec.backoffLimit: Invalid value"},
		"indexed without completions": {validateJob(fieldtest.With(job(), func(j *batchv1.Job) {
			j.Spec.CompletionMode, j.Spec.Completions = ptr.To(batchv1.IndexedCompletion), nil
		})), "spec.completions: Required value"},
		"selector of another job": {validateJob(fieldtest.With(job(), func(j *batchv1.Job) { j.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel] = "other" })),
			"spec.selector: Invalid value"},
		"template changed": {validateJobUpdate(fieldtest.With(job(), func(j *batchv1.Job) { j.Spec.Template.Spec.Containers[0].Image = "other" }), job()),
			"spec.template: Invalid value"},
		"cronjob":           {validateCronJob(cronJob()), ""},
		"descriptor":        {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.Schedule = "@hourly" })), ""},
		"names and steps":   {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.Schedule = "*/15 1-5 ? JAN-mar mon,fri" })), ""},
		"four fields":       {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.Schedule = "0 3 * *" })), "spec.schedule: Invalid value: \"0 3 * *\": expected exactly 5 fields"},
		"minute 60":         {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.Schedule = "60 * * * *" })), "minute: 60 out of range [0, 59]"},
		"backwards range":   {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.Schedule = "* 5-1 * * *" })), "beginning of range (5) beyond end of range (1)"},
		"TZ in schedule":    {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.Schedule = "TZ=UTC 0 3 * * *" })), "use timeZone field instead"},
		"time zone":         {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.TimeZone = ptr.To("Europe/Paris") })), ""},
		"unknown time zone": {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.TimeZone = ptr.To("Mars/Olympus") })), "spec.timeZone: Invalid value"},
		"no schedule":       {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.Schedule = "" })), "spec.schedule: Required value"},
		"long name": {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Name = strings.Repeat("a", 53) })),
			"metadata.name: Invalid value"},
		"cron restart always": {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) {
			c.Spec.JobTemplate.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
		})), "spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value"},
		"concurrency": {validateCronJob(fieldtest.With(cronJob(), func(c *batchv1.CronJob) { c.Spec.ConcurrencyPolicy = "Sometimes" })), "spec.concurrencyPolicy: Unsupported value"},
	} {
		t.Run(name, func(t *testing.T) { fieldtest.Assert(t, tc.errs, tc.want) })
	}
}
