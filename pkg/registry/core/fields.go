package core

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// The fields lists and watches of core/v1 kinds select by, as
// kube-apiserver's. Each is taken from the kind's strategy in
// k8s.io/kubernetes (the values) and pkg/apis/core/v1/conversion.go (the
// labels a request may use), at the version each comment names.

// podFields: k8s.io/kubernetes@v1.37.1 pkg/registry/core/pod/strategy.go
// ToSelectableFields; pkg/apis/core/v1/conversion.go, kind Pod.
var podFields = registry.Fields[*corev1.Pod]{
	Values: map[string]func(*corev1.Pod) string{
		"spec.nodeName":           func(p *corev1.Pod) string { return p.Spec.NodeName },
		"spec.restartPolicy":      func(p *corev1.Pod) string { return string(p.Spec.RestartPolicy) },
		"spec.schedulerName":      func(p *corev1.Pod) string { return p.Spec.SchedulerName },
		"spec.serviceAccountName": func(p *corev1.Pod) string { return p.Spec.ServiceAccountName },
		"spec.hostNetwork":        func(p *corev1.Pod) string { return strconv.FormatBool(p.Spec.HostNetwork) },
		"status.phase":            func(p *corev1.Pod) string { return string(p.Status.Phase) },
		"status.podIP":            podIP,
		// Kubernetes accepts status.podIPs but gives it no value, so it
		// matches only the empty string.
		"status.podIPs":            func(*corev1.Pod) string { return "" },
		"status.nominatedNodeName": func(p *corev1.Pod) string { return p.Status.NominatedNodeName },
	},
	// Old v1 clients send spec.host.
	Aliases: map[string]string{"spec.host": "spec.nodeName"},
}

// podIP is a pod's primary IP, the first of status.podIPs; Kubernetes
// converts a v1 pod with only status.podIP to that.
func podIP(p *corev1.Pod) string {
	if len(p.Status.PodIPs) > 0 {
		return p.Status.PodIPs[0].IP
	}
	return p.Status.PodIP
}

// eventFields: k8s.io/kubernetes@v1.37.1 pkg/registry/core/event/strategy.go
// ToSelectableFields; pkg/apis/core/v1/conversion.go
// AddFieldLabelConversionsForEvent.
var eventFields = registry.Fields[*corev1.Event]{
	Values: map[string]func(*corev1.Event) string{
		"involvedObject.kind":            func(e *corev1.Event) string { return e.InvolvedObject.Kind },
		"involvedObject.namespace":       func(e *corev1.Event) string { return e.InvolvedObject.Namespace },
		"involvedObject.name":            func(e *corev1.Event) string { return e.InvolvedObject.Name },
		"involvedObject.uid":             func(e *corev1.Event) string { return string(e.InvolvedObject.UID) },
		"involvedObject.apiVersion":      func(e *corev1.Event) string { return e.InvolvedObject.APIVersion },
		"involvedObject.resourceVersion": func(e *corev1.Event) string { return e.InvolvedObject.ResourceVersion },
		"involvedObject.fieldPath":       func(e *corev1.Event) string { return e.InvolvedObject.FieldPath },
		"reason":                         func(e *corev1.Event) string { return e.Reason },
		"reportingComponent":             func(e *corev1.Event) string { return e.ReportingController },
		// The older source.component, or the newer reporter.
		"source": func(e *corev1.Event) string {
			if e.Source.Component != "" {
				return e.Source.Component
			}
			return e.ReportingController
		},
		"type": func(e *corev1.Event) string { return e.Type },
	},
}

// namespaceFields: k8s.io/kubernetes@v1.37.1
// pkg/registry/core/namespace/strategy.go NamespaceToSelectableFields;
// pkg/apis/core/v1/conversion.go AddFieldLabelConversionsForNamespace. The
// strategy's field "name" is left out: the conversion refuses it.
var namespaceFields = registry.Fields[*corev1.Namespace]{
	ClusterScoped: true,
	Values: map[string]func(*corev1.Namespace) string{
		"status.phase": func(ns *corev1.Namespace) string { return string(ns.Status.Phase) },
	},
}

// secretFields: k8s.io/kubernetes@v1.37.1
// pkg/registry/core/secret/strategy.go SelectableFields;
// pkg/apis/core/v1/conversion.go AddFieldLabelConversionsForSecret.
var secretFields = registry.Fields[*corev1.Secret]{
	Values: map[string]func(*corev1.Secret) string{
		"type": func(s *corev1.Secret) string { return string(s.Type) },
	},
}

// serviceFields: k8s.io/kubernetes@v1.37.1
// pkg/registry/core/service/strategy.go SelectableFields;
// pkg/apis/core/v1/conversion.go AddFieldLabelConversionsForService.
var serviceFields = registry.Fields[*corev1.Service]{
	Values: map[string]func(*corev1.Service) string{
		"spec.clusterIP": func(s *corev1.Service) string { return s.Spec.ClusterIP },
		"spec.type":      func(s *corev1.Service) string { return string(s.Spec.Type) },
	},
}

// replicationControllerFields: k8s.io/kubernetes@v1.37.1
// pkg/registry/core/replicationcontroller/strategy.go
// ControllerToSelectableFields; pkg/apis/core/v1/conversion.go, kind
// ReplicationController.
var replicationControllerFields = registry.Fields[*replicationController]{
	Values: map[string]func(*replicationController) string{
		"status.replicas": func(rc *replicationController) string { return registry.Count(int(rc.Status.Replicas)) },
	},
}

// addFieldLabelConversions makes s accept the field labels above in
// requests for core/v1.
func addFieldLabelConversions(s *runtime.Scheme) error {
	for kind, f := range map[string]registry.Selectable{
		"Pod": podFields, "Node": nodeFields, "Event": eventFields, "Namespace": namespaceFields, "Secret": secretFields, "Service": serviceFields,
		"ReplicationController": replicationControllerFields,
	} {
		if err := registry.AddFieldLabelConversion(s, corev1.SchemeGroupVersion.WithKind(kind), f); err != nil {
			return err
		}
	}
	return nil
}
