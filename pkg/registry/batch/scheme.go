package batch

import (
	"fmt"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/canopy-dev/canopy/pkg/registry"
	k8s_batch_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/batch/v1"
)

var internalVersion = schema.GroupVersion{Group: batchv1.GroupName, Version: runtime.APIVersionInternal}

// served are the kinds this package serves, with their lists.
var served = []runtime.Object{
	&batchv1.Job{}, &batchv1.JobList{},
	&batchv1.CronJob{}, &batchv1.CronJobList{},
}

// jobFields are what lists and watches select Jobs by, as
// kube-apiserver's: k8s.io/kubernetes@v1.37.1
// pkg/registry/batch/job/strategy.go JobToSelectableFields;
// pkg/apis/batch/v1/conversion.go, whose error differs from core/v1's.
var jobFields = registry.Fields[*batchv1.Job]{
	Values: map[string]func(*batchv1.Job) string{
		"status.successful": func(j *batchv1.Job) string { return strconv.Itoa(int(j.Status.Succeeded)) },
	},
	NotSupported: func(label string) error { return fmt.Errorf("field label %q not supported for Job", label) },
}

// AddToScheme registers batch/v1, with the served kinds as the internal
// version too, upstream's defaults of batch/v1, which the API applies to
// what it decodes, and the fields Jobs are selected by.
func AddToScheme(s *runtime.Scheme) error {
	if err := batchv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, served...)
	if err := k8s_batch_v1.RegisterDefaults(s); err != nil {
		return err
	}
	if err := registry.AddFieldLabelConversion(s, batchv1.SchemeGroupVersion.WithKind("Job"), jobFields); err != nil {
		return err
	}
	return s.SetVersionPriority(batchv1.SchemeGroupVersion)
}
