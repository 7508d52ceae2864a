package podspec

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Kubernetes' defaults for what a pod spec leaves out.
const (
	defaultTerminationGracePeriodSeconds = int64(corev1.DefaultTerminationGracePeriodSeconds)
	defaultVolumeMode                    = int32(corev1.SecretVolumeSourceDefaultMode)
	defaultTokenExpirationSeconds        = int64(60 * 60)
)

// DefaultTemplate fills in what Kubernetes defaults in a pod template.
func DefaultTemplate(t *corev1.PodTemplateSpec) { Default(&t.Spec) }

// Default fills in what Kubernetes defaults in a pod spec.
func Default(s *corev1.PodSpec) {
	if s.DNSPolicy == "" {
		s.DNSPolicy = corev1.DNSClusterFirst
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = corev1.RestartPolicyAlways
	}
	if s.TerminationGracePeriodSeconds == nil {
		seconds := defaultTerminationGracePeriodSeconds
		s.TerminationGracePeriodSeconds = &seconds
	}
	if s.SecurityContext == nil {
		s.SecurityContext = &corev1.PodSecurityContext{}
	}
	if s.SchedulerName == "" {
		s.SchedulerName = corev1.DefaultSchedulerName
	}
	for i := range s.Volumes {
		defaultVolume(&s.Volumes[i].VolumeSource)
	}
	for _, cs := range [][]corev1.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			defaultContainer(&cs[i], s.HostNetwork)
		}
	}
}

func defaultContainer(c *corev1.Container, hostNetwork bool) {
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = pullPolicy(c.Image)
	}
	for i := range c.Ports {
		p := &c.Ports[i]
		if p.Protocol == "" {
			p.Protocol = corev1.ProtocolTCP
		}
		// On the host's network a container's port is the host's.
		if hostNetwork && p.HostPort == 0 {
			p.HostPort = p.ContainerPort
		}
	}
	for i := range c.Env {
		if from := c.Env[i].ValueFrom; from != nil && from.FieldRef != nil {
			defaultFieldRef(from.FieldRef)
		}
	}
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			defaultProbe(p)
		}
	}
	if c.Lifecycle != nil {
		for _, h := range []*corev1.LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
			if h != nil {
				defaultHTTPGet(h.HTTPGet)
			}
		}
	}
}

// pullPolicy is Always for an image at its latest tag, named or implied,
// since it may change under the same name; IfNotPresent otherwise.
func pullPolicy(image string) corev1.PullPolicy {
	if strings.Contains(image, "@") {
		return corev1.PullIfNotPresent
	}
	name := image[strings.LastIndex(image, "/")+1:]
	if _, tag, ok := strings.Cut(name, ":"); ok && tag != "latest" {
		return corev1.PullIfNotPresent
	}
	return corev1.PullAlways
}

func defaultProbe(p *corev1.Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	defaultHTTPGet(p.HTTPGet)
}

func defaultHTTPGet(h *corev1.HTTPGetAction) {
	if h == nil {
		return
	}
	if h.Path == "" {
		h.Path = "/"
	}
	if h.Scheme == "" {
		h.Scheme = corev1.URISchemeHTTP
	}
}

func defaultFieldRef(f *corev1.ObjectFieldSelector) {
	if f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

func defaultMode(mode **int32) {
	if *mode == nil {
		m := defaultVolumeMode
		*mode = &m
	}
}

func defaultVolume(v *corev1.VolumeSource) {
	if *v == (corev1.VolumeSource{}) {
		// A volume of no type is an empty directory.
		v.EmptyDir = &corev1.EmptyDirVolumeSource{}
	}
	if v.HostPath != nil && v.HostPath.Type == nil {
		unset := corev1.HostPathUnset
		v.HostPath.Type = &unset
	}
	if v.Secret != nil {
		defaultMode(&v.Secret.DefaultMode)
	}
	if v.ConfigMap != nil {
		defaultMode(&v.ConfigMap.DefaultMode)
	}
	if v.DownwardAPI != nil {
		defaultMode(&v.DownwardAPI.DefaultMode)
		defaultDownwardAPIItems(v.DownwardAPI.Items)
	}
	if v.Projected != nil {
		defaultMode(&v.Projected.DefaultMode)
		for _, src := range v.Projected.Sources {
			if src.DownwardAPI != nil {
				defaultDownwardAPIItems(src.DownwardAPI.Items)
			}
			if t := src.ServiceAccountToken; t != nil && t.ExpirationSeconds == nil {
				seconds := defaultTokenExpirationSeconds
				t.ExpirationSeconds = &seconds
			}
		}
	}
}

func defaultDownwardAPIItems(items []corev1.DownwardAPIVolumeFile) {
	for _, item := range items {
		if item.FieldRef != nil {
			defaultFieldRef(item.FieldRef)
		}
	}
}
