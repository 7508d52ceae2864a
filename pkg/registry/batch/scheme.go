package batch

import (
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var internalVersion = schema.GroupVersion{Group: batchv1.GroupName, Version: runtime.APIVersionInternal}

// served are the kinds this package serves, with their lists.
var served = []runtime.Object{
	&batchv1.Job{}, &batchv1.JobList{},
	&batchv1.CronJob{}, &batchv1.CronJobList{},
}

// AddToScheme registers batch/v1, with the served kinds as the internal
// version too, and the defaults the API applies to what it decodes.
func AddToScheme(s *runtime.Scheme) error {
	if err := batchv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, served...)
	s.AddTypeDefaultingFunc(&batchv1.Job{}, func(o any) { defaultJob(o.(*batchv1.Job)) })
	s.AddTypeDefaultingFunc(&batchv1.CronJob{}, func(o any) { defaultCronJob(o.(*batchv1.CronJob)) })
	return s.SetVersionPriority(batchv1.SchemeGroupVersion)
}
