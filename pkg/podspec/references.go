package podspec

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// Paths are where the kinds that run pods keep their pod spec, in
// unstructured form.
var Paths = [][]string{
	{"spec", "template", "spec"},                        // Deployment, ReplicaSet, StatefulSet, DaemonSet, Job
	{"spec", "jobTemplate", "spec", "template", "spec"}, // CronJob
}

// OfUnstructured is the pod spec of obj, an object of a kind that runs
// pods in unstructured form; false for any other.
func OfUnstructured(obj map[string]any) (*corev1.PodSpec, bool) {
	for _, path := range Paths {
		m, ok, _ := unstructured.NestedMap(obj, path...)
		if !ok {
			continue
		}
		var spec corev1.PodSpec
		if runtime.DefaultUnstructuredConverter.FromUnstructured(m, &spec) == nil {
			return &spec, true
		}
	}
	return nil, false
}

// ReferencedResources are the core resources whose objects a pod spec
// refers to, which follow a workload downstream.
var ReferencedResources = []string{"configmaps", "secrets", "serviceaccounts"}

// Reference is an object that a pod spec refers to in its own namespace:
// one of ReferencedResources, by resource and name.
type Reference struct {
	Resource string
	Name     string
}

// References are the objects spec refers to, each once: its
// ServiceAccount, image pull Secrets, and the ConfigMaps and Secrets of
// its volumes, projected volumes and the environments of its containers,
// init and ephemeral ones included.
func References(spec *corev1.PodSpec) []Reference {
	seen := map[Reference]bool{}
	var refs []Reference
	add := func(resource, name string) {
		r := Reference{resource, name}
		if name != "" && !seen[r] {
			seen[r] = true
			refs = append(refs, r)
		}
	}
	add("serviceaccounts", spec.ServiceAccountName)
	for _, s := range spec.ImagePullSecrets {
		add("secrets", s.Name)
	}
	for _, v := range spec.Volumes {
		if v.ConfigMap != nil {
			add("configmaps", v.ConfigMap.Name)
		}
		if v.Secret != nil {
			add("secrets", v.Secret.SecretName)
		}
		if v.Projected != nil {
			for _, p := range v.Projected.Sources {
				if p.ConfigMap != nil {
					add("configmaps", p.ConfigMap.Name)
				}
				if p.Secret != nil {
					add("secrets", p.Secret.Name)
				}
			}
		}
	}
	containers := append(spec.InitContainers, spec.Containers...)
	for _, e := range spec.EphemeralContainers {
		containers = append(containers, corev1.Container{Env: e.Env, EnvFrom: e.EnvFrom})
	}
	for _, c := range containers {
		for _, e := range c.EnvFrom {
			if e.ConfigMapRef != nil {
				add("configmaps", e.ConfigMapRef.Name)
			}
			if e.SecretRef != nil {
				add("secrets", e.SecretRef.Name)
			}
		}
		for _, e := range c.Env {
			if e.ValueFrom != nil && e.ValueFrom.ConfigMapKeyRef != nil {
				add("configmaps", e.ValueFrom.ConfigMapKeyRef.Name)
			}
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				add("secrets", e.ValueFrom.SecretKeyRef.Name)
			}
		}
	}
	return refs
}
