package batch

import (
	"fmt"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// cronJobWarnings are upstream's (pkg/registry/batch/cronjob/strategy.go
// of Kubernetes v1.37.1): a name too long for a pod's on create, and a
// time zone in the schedule, which only an update can keep, on update.
// The path it names is upstream's, spec.spec.schedule.
func cronJobWarnings(c, old *batchv1.CronJob) []string {
	if old == nil {
		return registry.PodNameWarnings(c, old)
	}
	if strings.Contains(c.Spec.Schedule, "TZ") {
		return []string{fmt.Sprintf("cannot use TZ or CRON_TZ in %s, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details",
			field.NewPath("spec", "spec", "schedule"))}
	}
	return nil
}
