package placement

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/sets"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/podspec"
)

// ObjectFrom is the Object of obj, in unstructured form, of resource gr
// in logical cluster cluster: its replicas, what one replica requests,
// and the targets placement put it on, as its labels and annotations
// say.
func ObjectFrom(cluster logicalcluster.Name, gr workloadv1alpha1.GroupResource, obj map[string]any) Object {
	u := unstructured.Unstructured{Object: obj}
	o := Object{Cluster: cluster, Namespace: u.GetNamespace(), Name: u.GetName(), Resource: gr, Requests: requests(obj)}
	if n, ok, _ := unstructured.NestedInt64(obj, "spec", "replicas"); ok {
		replicas := int32(n)
		o.Replicas = &replicas
	}
	o.Current = Shares(u.GetLabels(), u.GetAnnotations(), o.Replicas)
	return o
}

// requests are what one replica of obj requests, or obj as a whole if it
// has no replicas: its pod's, as the scheduler counts them, the most of
// the sum of its containers and of each init container; empty for an
// object that runs no pods.
func requests(obj map[string]any) corev1.ResourceList {
	spec, ok := podspec.OfUnstructured(obj)
	if !ok {
		return nil
	}
	out := corev1.ResourceList{}
	for _, ct := range spec.Containers {
		for name, q := range ct.Resources.Requests {
			sum := out[name]
			sum.Add(q)
			out[name] = sum
		}
	}
	for _, ct := range spec.InitContainers {
		for name, q := range ct.Resources.Requests {
			if q.Cmp(out[name]) > 0 {
				out[name] = q.DeepCopy()
			}
		}
	}
	return out
}

// Placed are the keys of the targets, of an object with labels and
// annotations, whose assignment label placement set and that the object
// still carries.
func Placed(labels, annotations map[string]string) sets.Set[string] {
	out := sets.New[string]()
	for _, key := range strings.Split(annotations[workloadv1alpha1.PlacedAnnotation], ",") {
		if key != "" && labels[workloadv1alpha1.StateLabel(key)] == workloadv1alpha1.StateSync {
			out.Insert(key)
		}
	}
	return out
}

// Shares are the targets placement put an object with labels and
// annotations on, with the replicas each runs: its share where placement
// divided them, else all of replicas; 0 for an object without replicas.
func Shares(labels, annotations map[string]string, replicas *int32) map[string]int32 {
	out := map[string]int32{}
	for key := range Placed(labels, annotations) {
		out[key] = 0
		if replicas != nil {
			out[key] = *replicas
		}
		if n, err := strconv.ParseInt(annotations[workloadv1alpha1.ReplicasAnnotation(key)], 10, 32); err == nil && n >= 0 {
			out[key] = int32(n)
		}
	}
	return out
}
