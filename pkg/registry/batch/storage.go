package batch

import (
	"fmt"
	"time"
	// Upstream's validation checks CronJob time zones against the IANA
	// database, which the hub carries rather than trusting its host to
	// have.
	_ "time/tzdata"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/podspec"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/batch/cronjob"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/batch/job"
)

// all is the category of kubectl get all.
var all = []string{"all"}

// NewStorage returns the batch/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	jobs := registry.Kind[*batchv1.Job]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(job.Strategy)}
	cronJobs := registry.Kind[*batchv1.CronJob]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(cronjob.Strategy)}
	return f.Build(batchv1.SchemeGroupVersion,
		registry.Resource{
			Singular: "job", Plural: "jobs", Categories: all,
			New:      func() runtime.Object { return &batchv1.Job{} },
			NewList:  func() runtime.Object { return &batchv1.JobList{} },
			Fields:   jobFields,
			Strategy: jobs,
			Status:   registry.StatusOf[*batchv1.Job]{Kind: jobs, Upstream: upstream.For(job.StatusStrategy)},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Status", "string", "Status of the job."),
					registry.Column("Completions", "string", batchv1.JobStatus{}.SwaggerDoc()["succeeded"]),
					registry.Column("Duration", "string", "Time required to complete the job."),
				},
				Cells: func(o runtime.Object) []any {
					j := o.(*batchv1.Job)
					return []any{jobStatus(j), completions(j), jobDuration(j)}
				},
				Wide: podspec.SelectorColumns(batchv1.JobSpec{}.SwaggerDoc()["selector"]),
				WideCells: func(o runtime.Object) []any {
					j := o.(*batchv1.Job)
					return podspec.SelectorCells(&j.Spec.Template, j.Spec.Selector)
				},
			},
		},
		registry.Resource{
			Singular: "cronjob", Plural: "cronjobs", ShortNames: []string{"cj"}, Categories: all,
			New:      func() runtime.Object { return &batchv1.CronJob{} },
			NewList:  func() runtime.Object { return &batchv1.CronJobList{} },
			Strategy: cronJobs,
			Status:   registry.StatusOf[*batchv1.CronJob]{Kind: cronJobs, Upstream: upstream.For(cronjob.StatusStrategy)},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Schedule", "string", batchv1.CronJobSpec{}.SwaggerDoc()["schedule"]),
					registry.Column("Timezone", "string", batchv1.CronJobSpec{}.SwaggerDoc()["timeZone"]),
					registry.Column("Suspend", "boolean", batchv1.CronJobSpec{}.SwaggerDoc()["suspend"]),
					registry.Column("Active", "integer", batchv1.CronJobStatus{}.SwaggerDoc()["active"]),
					registry.Column("Last Schedule", "string", batchv1.CronJobStatus{}.SwaggerDoc()["lastScheduleTime"]),
				},
				Cells: func(o runtime.Object) []any {
					c := o.(*batchv1.CronJob)
					last := "<none>"
					if t := c.Status.LastScheduleTime; t != nil {
						last = duration.HumanDuration(time.Since(t.Time))
					}
					return []any{c.Spec.Schedule, ptr.Deref(c.Spec.TimeZone, "<none>"), printBool(ptr.Deref(c.Spec.Suspend, false)),
						int64(len(c.Status.Active)), last}
				},
				Wide: podspec.SelectorColumns(batchv1.JobSpec{}.SwaggerDoc()["selector"]),
				WideCells: func(o runtime.Object) []any {
					c := o.(*batchv1.CronJob)
					return podspec.SelectorCells(&c.Spec.JobTemplate.Spec.Template, c.Spec.JobTemplate.Spec.Selector)
				},
			},
		},
	)
}

// printBool is a flag as Kubernetes' tables print it.
func printBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// jobStatus is the state kubectl shows of a Job: how it ended, or
// whether it is held or running.
func jobStatus(j *batchv1.Job) string {
	for _, t := range []batchv1.JobConditionType{batchv1.JobFailed, batchv1.JobComplete, batchv1.JobFailureTarget, batchv1.JobSuccessCriteriaMet} {
		for _, c := range j.Status.Conditions {
			if c.Type == t && c.Status == corev1.ConditionTrue {
				return string(t)
			}
		}
	}
	if ptr.Deref(j.Spec.Suspend, false) {
		return "Suspended"
	}
	return "Running"
}

func completions(j *batchv1.Job) string {
	if j.Spec.Completions != nil {
		return fmt.Sprintf("%d/%d", j.Status.Succeeded, *j.Spec.Completions)
	}
	if p := ptr.Deref(j.Spec.Parallelism, 0); p > 1 {
		return fmt.Sprintf("%d/1 of %d", j.Status.Succeeded, p)
	}
	return fmt.Sprintf("%d/1", j.Status.Succeeded)
}

func jobDuration(j *batchv1.Job) string {
	start := j.Status.StartTime
	if start == nil {
		return ""
	}
	if end := j.Status.CompletionTime; end != nil {
		return duration.HumanDuration(end.Sub(start.Time))
	}
	return duration.HumanDuration(time.Since(start.Time))
}
