package podspec

import (
	"fmt"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateTemplate checks a defaulted pod template at path.
func ValidateTemplate(t *corev1.PodTemplateSpec, path *field.Path) field.ErrorList {
	meta := path.Child("metadata")
	errs := metav1validation.ValidateLabels(t.Labels, meta.Child("labels"))
	errs = append(errs, apivalidation.ValidateAnnotations(t.Annotations, meta.Child("annotations"))...)
	return append(errs, Validate(&t.Spec, path.Child("spec"))...)
}

var (
	restartPolicies  = []corev1.RestartPolicy{corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}
	dnsPolicies      = []corev1.DNSPolicy{corev1.DNSClusterFirstWithHostNet, corev1.DNSClusterFirst, corev1.DNSDefault, corev1.DNSNone}
	pullPolicies     = []corev1.PullPolicy{corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever}
	protocols        = []corev1.Protocol{corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP}
	messagePolicies  = []corev1.TerminationMessagePolicy{corev1.TerminationMessageReadFile, corev1.TerminationMessageFallbackToLogsOnError}
	maxDNSNameserver = 3
)

// Validate checks a defaulted pod spec at path.
func Validate(s *corev1.PodSpec, path *field.Path) field.ErrorList {
	volumes, errs := validateVolumes(s.Volumes, path.Child("volumes"))
	if len(s.Containers) == 0 {
		errs = append(errs, field.Required(path.Child("containers"), ""))
	}
	names := sets.New[string]()
	errs = append(errs, validateContainers(s.InitContainers, volumes, names, path.Child("initContainers"))...)
	errs = append(errs, validateContainers(s.Containers, volumes, names, path.Child("containers"))...)
	errs = append(errs, oneOf(path.Child("restartPolicy"), s.RestartPolicy, restartPolicies)...)
	errs = append(errs, oneOf(path.Child("dnsPolicy"), s.DNSPolicy, dnsPolicies)...)
	if s.DNSPolicy == corev1.DNSNone && (s.DNSConfig == nil || len(s.DNSConfig.Nameservers) == 0) {
		errs = append(errs, field.Required(path.Child("dnsConfig", "nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None"))
	}
	if s.DNSConfig != nil && len(s.DNSConfig.Nameservers) > maxDNSNameserver {
		errs = append(errs, field.Invalid(path.Child("dnsConfig", "nameservers"), s.DNSConfig.Nameservers, fmt.Sprintf("must not have more than %d nameservers", maxDNSNameserver)))
	}
	if s.TerminationGracePeriodSeconds != nil {
		errs = append(errs, apivalidation.ValidateNonnegativeField(*s.TerminationGracePeriodSeconds, path.Child("terminationGracePeriodSeconds"))...)
	}
	if s.ActiveDeadlineSeconds != nil && *s.ActiveDeadlineSeconds <= 0 {
		errs = append(errs, field.Invalid(path.Child("activeDeadlineSeconds"), *s.ActiveDeadlineSeconds, "must be between 1 and 2147483647, inclusive"))
	}
	errs = append(errs, metav1validation.ValidateLabels(s.NodeSelector, path.Child("nodeSelector"))...)
	if s.ServiceAccountName != "" {
		for _, msg := range apivalidation.NameIsDNSSubdomain(s.ServiceAccountName, false) {
			errs = append(errs, field.Invalid(path.Child("serviceAccountName"), s.ServiceAccountName, msg))
		}
	}
	return errs
}

// validateVolumes checks the volumes of a pod spec and returns their names.
func validateVolumes(vs []corev1.Volume, path *field.Path) (sets.Set[string], field.ErrorList) {
	names := sets.New[string]()
	var errs field.ErrorList
	for i, v := range vs {
		p := path.Index(i)
		errs = append(errs, dnsLabel(p.Child("name"), v.Name)...)
		if names.Has(v.Name) {
			errs = append(errs, field.Duplicate(p.Child("name"), v.Name))
		}
		names.Insert(v.Name)
		switch n := setFields(v.VolumeSource); {
		case n == 0:
			errs = append(errs, field.Required(p, "must specify a volume type"))
		case n > 1:
			errs = append(errs, field.Forbidden(p, "may not specify more than 1 volume type"))
		}
	}
	return names, errs
}

func validateContainers(cs []corev1.Container, volumes, names sets.Set[string], path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range cs {
		c, p := &cs[i], path.Index(i)
		errs = append(errs, dnsLabel(p.Child("name"), c.Name)...)
		if names.Has(c.Name) {
			errs = append(errs, field.Duplicate(p.Child("name"), c.Name))
		}
		names.Insert(c.Name)
		if c.Image == "" {
			errs = append(errs, field.Required(p.Child("image"), ""))
		}
		errs = append(errs, oneOf(p.Child("imagePullPolicy"), c.ImagePullPolicy, pullPolicies)...)
		errs = append(errs, oneOf(p.Child("terminationMessagePolicy"), c.TerminationMessagePolicy, messagePolicies)...)
		errs = append(errs, validatePorts(c.Ports, p.Child("ports"))...)
		errs = append(errs, validateEnv(c.Env, p.Child("env"))...)
		errs = append(errs, validateMounts(c.VolumeMounts, volumes, p.Child("volumeMounts"))...)
		errs = append(errs, validateResources(c.Resources, p.Child("resources"))...)
		errs = append(errs, validateProbe(c.LivenessProbe, p.Child("livenessProbe"), true)...)
		errs = append(errs, validateProbe(c.ReadinessProbe, p.Child("readinessProbe"), false)...)
		errs = append(errs, validateProbe(c.StartupProbe, p.Child("startupProbe"), true)...)
		if c.Lifecycle != nil {
			for name, h := range map[string]*corev1.LifecycleHandler{"postStart": c.Lifecycle.PostStart, "preStop": c.Lifecycle.PreStop} {
				if h != nil {
					errs = append(errs, oneHandler(p.Child("lifecycle", name), h.Exec != nil, h.HTTPGet != nil, h.TCPSocket != nil, h.Sleep != nil)...)
				}
			}
		}
	}
	return errs
}

func validatePorts(ports []corev1.ContainerPort, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i, port := range ports {
		p := path.Index(i)
		if port.Name != "" {
			for _, msg := range validation.IsValidPortName(port.Name) {
				errs = append(errs, field.Invalid(p.Child("name"), port.Name, msg))
			}
			if names.Has(port.Name) {
				errs = append(errs, field.Duplicate(p.Child("name"), port.Name))
			}
			names.Insert(port.Name)
		}
		for _, msg := range validation.IsValidPortNum(int(port.ContainerPort)) {
			errs = append(errs, field.Invalid(p.Child("containerPort"), port.ContainerPort, msg))
		}
		if port.HostPort != 0 {
			for _, msg := range validation.IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, field.Invalid(p.Child("hostPort"), port.HostPort, msg))
			}
		}
		errs = append(errs, oneOf(p.Child("protocol"), port.Protocol, protocols)...)
	}
	return errs
}

func validateEnv(env []corev1.EnvVar, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, e := range env {
		p := path.Index(i)
		if e.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		}
		// Kubernetes takes any printable ASCII but '=' as a name.
		for _, msg := range validation.IsRelaxedEnvVarName(e.Name) {
			errs = append(errs, field.Invalid(p.Child("name"), e.Name, msg))
		}
		if e.ValueFrom == nil {
			continue
		}
		from := p.Child("valueFrom")
		n := setFields(*e.ValueFrom)
		switch {
		case n == 0:
			errs = append(errs, field.Invalid(from, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"))
		case e.Value != "":
			errs = append(errs, field.Invalid(from, "", "may not be specified when `value` is not empty"))
		case n > 1:
			errs = append(errs, field.Invalid(from, "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

func validateMounts(mounts []corev1.VolumeMount, volumes sets.Set[string], path *field.Path) field.ErrorList {
	var errs field.ErrorList
	paths := sets.New[string]()
	for i, m := range mounts {
		p := path.Index(i)
		switch {
		case m.Name == "":
			errs = append(errs, field.Required(p.Child("name"), ""))
		case !volumes.Has(m.Name):
			errs = append(errs, field.NotFound(p.Child("name"), m.Name))
		}
		if m.MountPath == "" {
			errs = append(errs, field.Required(p.Child("mountPath"), ""))
		}
		if paths.Has(m.MountPath) {
			errs = append(errs, field.Invalid(p.Child("mountPath"), m.MountPath, "must be unique"))
		}
		paths.Insert(m.MountPath)
	}
	return errs
}

func validateResources(r corev1.ResourceRequirements, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, list := range []struct {
		name string
		rl   corev1.ResourceList
	}{{"limits", r.Limits}, {"requests", r.Requests}} {
		for name, q := range list.rl {
			if q.Sign() < 0 {
				errs = append(errs, field.Invalid(path.Child(list.name).Key(string(name)), q.String(), "must be greater than or equal to 0"))
			}
		}
	}
	for name, request := range r.Requests {
		if limit, ok := r.Limits[name]; ok && request.Cmp(limit) > 0 {
			errs = append(errs, field.Invalid(path.Child("requests").Key(string(name)), request.String(),
				fmt.Sprintf("must be less than or equal to %s limit of %s", name, limit.String())))
		}
	}
	return errs
}

// validateProbe checks a defaulted probe; only readiness may need more
// than one success in a row.
func validateProbe(probe *corev1.Probe, path *field.Path, oneSuccess bool) field.ErrorList {
	if probe == nil {
		return nil
	}
	h := probe.ProbeHandler
	errs := oneHandler(path, h.Exec != nil, h.HTTPGet != nil, h.TCPSocket != nil, h.GRPC != nil)
	for name, v := range map[string]int32{
		"initialDelaySeconds": probe.InitialDelaySeconds, "timeoutSeconds": probe.TimeoutSeconds,
		"periodSeconds": probe.PeriodSeconds, "successThreshold": probe.SuccessThreshold, "failureThreshold": probe.FailureThreshold,
	} {
		errs = append(errs, apivalidation.ValidateNonnegativeField(int64(v), path.Child(name))...)
	}
	if oneSuccess && probe.SuccessThreshold != 1 {
		errs = append(errs, field.Invalid(path.Child("successThreshold"), probe.SuccessThreshold, "must be 1"))
	}
	return errs
}

// oneHandler checks that exactly one of a probe's or hook's handlers is set.
func oneHandler(path *field.Path, set ...bool) field.ErrorList {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	switch {
	case n == 0:
		return field.ErrorList{field.Required(path, "must specify a handler type")}
	case n > 1:
		return field.ErrorList{field.Forbidden(path, "may not specify more than 1 handler type")}
	}
	return nil
}

// ValidateSelector checks the selector of a workload of kind, as
// "deployment", and that it selects the labels of its pod template, as
// the workload's controller would need to find its pods.
func ValidateSelector(kind string, selector *metav1.LabelSelector, template *corev1.PodTemplateSpec, path *field.Path) field.ErrorList {
	p := path.Child("selector")
	if selector == nil {
		return field.ErrorList{field.Required(p, "")}
	}
	errs := metav1validation.ValidateLabelSelector(selector, metav1validation.LabelSelectorValidationOptions{}, p)
	if len(selector.MatchLabels)+len(selector.MatchExpressions) == 0 {
		errs = append(errs, field.Invalid(p, selector, "empty selector is invalid for "+kind))
	}
	if len(errs) > 0 {
		return errs
	}
	s, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return field.ErrorList{field.Invalid(p, selector, err.Error())}
	}
	if !s.Matches(labels.Set(template.Labels)) {
		errs = append(errs, field.Invalid(path.Child("template", "metadata", "labels"), template.Labels, "`selector` does not match template `labels`"))
	}
	return errs
}

// RestartPolicy checks that a workload's template restarts its pods as
// the workload needs.
func RestartPolicy(t *corev1.PodTemplateSpec, path *field.Path, allowed ...corev1.RestartPolicy) field.ErrorList {
	return oneOf(path.Child("template", "spec", "restartPolicy"), t.Spec.RestartPolicy, allowed)
}

func oneOf[T ~string](path *field.Path, v T, allowed []T) field.ErrorList {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	if v == "" {
		return field.ErrorList{field.Required(path, "")}
	}
	values := make([]string, len(allowed))
	for i, a := range allowed {
		values[i] = string(a)
	}
	return field.ErrorList{field.NotSupported(path, v, values)}
}

func dnsLabel(path *field.Path, name string) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(path, "")}
	}
	var errs field.ErrorList
	for _, msg := range validation.IsDNS1123Label(name) {
		errs = append(errs, field.Invalid(path, name, msg))
	}
	return errs
}

// setFields counts the fields of a struct of pointers that are set, as
// in a union of sources.
func setFields(union any) int {
	v, n := reflect.ValueOf(union), 0
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() {
			n++
		}
	}
	return n
}
