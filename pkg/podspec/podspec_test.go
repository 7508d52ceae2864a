package podspec

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/canopy-dev/canopy/internal/fieldtest"
)

// TestDefault checks the defaults of a template's spec; a pod's are
// upstream's (pkg/registry/core).
func TestDefault(t *testing.T) {
	tmpl := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "a", Image: "nginx",
			Ports:          []corev1.ContainerPort{{ContainerPort: 80}},
			LivenessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{}}},
			Env:            []corev1.EnvVar{{Name: "N", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{}}, PeriodSeconds: 5},
		}},
		Volumes: []corev1.Volume{{Name: "e"}, {Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{}}}},
	}}
	DefaultTemplate(tmpl)
	s, c := tmpl.Spec, tmpl.Spec.Containers[0]
	for what, ok := range map[string]bool{
		"restartPolicy":           s.RestartPolicy == corev1.RestartPolicyAlways,
		"dnsPolicy":               s.DNSPolicy == corev1.DNSClusterFirst,
		"schedulerName":           s.SchedulerName == "default-scheduler",
		"grace period":            *s.TerminationGracePeriodSeconds == 30,
		"securityContext":         s.SecurityContext != nil,
		"emptyDir":                s.Volumes[0].EmptyDir != nil,
		"secret defaultMode":      *s.Volumes[1].Secret.DefaultMode == 0o644,
		"termination path":        c.TerminationMessagePath == "/dev/termination-log",
		"termination policy":      c.TerminationMessagePolicy == corev1.TerminationMessageReadFile,
		"pull policy":             c.ImagePullPolicy == corev1.PullAlways,
		"port protocol":           c.Ports[0].Protocol == corev1.ProtocolTCP,
		"probe":                   c.LivenessProbe.TimeoutSeconds == 1 && c.LivenessProbe.PeriodSeconds == 10 && c.LivenessProbe.SuccessThreshold == 1 && c.LivenessProbe.FailureThreshold == 3,
		"probe keeps what is set": c.ReadinessProbe.PeriodSeconds == 5,
		"httpGet":                 c.LivenessProbe.HTTPGet.Path == "/" && c.LivenessProbe.HTTPGet.Scheme == corev1.URISchemeHTTP,
		"fieldRef apiVersion":     c.Env[0].ValueFrom.FieldRef.APIVersion == "v1",
	} {
		if !ok {
			t.Errorf("default %s not as Kubernetes sets it: %+v", what, tmpl.Spec)
		}
	}
	if tmpl.Spec.EnableServiceLinks != nil {
		t.Errorf("a template got enableServiceLinks, which only pods get")
	}
}

func TestPullPolicy(t *testing.T) {
	for image, want := range map[string]corev1.PullPolicy{
		"nginx": corev1.PullAlways, "nginx:latest": corev1.PullAlways, "nginx:1.27": corev1.PullIfNotPresent,
		"registry:5000/nginx": corev1.PullAlways, "registry:5000/nginx:1": corev1.PullIfNotPresent, "nginx@sha256:abc": corev1.PullIfNotPresent,
	} {
		if got := pullPolicy(image); got != want {
			t.Errorf("pullPolicy(%q) = %s, want %s", image, got, want)
		}
	}
}

// validPod is a defaulted valid pod spec that tests break one rule of.
func validPod() *corev1.PodSpec {
	pod := &corev1.Pod{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "main", Image: "nginx:1.27",
			Ports:        []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
			Env:          []corev1.EnvVar{{Name: "A", Value: "b"}},
			VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
		}},
		Volumes: []corev1.Volume{{Name: "data"}},
	}}
	Default(&pod.Spec)
	return &pod.Spec
}

func TestValidate(t *testing.T) {
	for name, tc := range map[string]struct {
		change func(*corev1.PodSpec)
		want   string
	}{
		"valid":          {func(*corev1.PodSpec) {}, ""},
		"no containers":  {func(s *corev1.PodSpec) { s.Containers = nil }, "spec.containers: Required value"},
		"bad name":       {func(s *corev1.PodSpec) { s.Containers[0].Name = "Main" }, "spec.containers[0].name: Invalid value"},
		"duplicate name": {func(s *corev1.PodSpec) { s.InitContainers = []corev1.Container{s.Containers[0]} }, "spec.containers[0].name: Duplicate value"},
		"no image":       {func(s *corev1.PodSpec) { s.Containers[0].Image = "" }, "spec.containers[0].image: Required value"},
		"port 0":         {func(s *corev1.PodSpec) { s.Containers[0].Ports[0].ContainerPort = 0 }, "spec.containers[0].ports[0].containerPort: Invalid value"},
		"port too big":   {func(s *corev1.PodSpec) { s.Containers[0].Ports[0].ContainerPort = 65536 }, "spec.containers[0].ports[0].containerPort: Invalid value"},
		"bad port name":  {func(s *corev1.PodSpec) { s.Containers[0].Ports[0].Name = "http_1" }, "spec.containers[0].ports[0].name: Invalid value"},
		"dup port name": {func(s *corev1.PodSpec) {
			s.Containers[0].Ports = append(s.Containers[0].Ports, s.Containers[0].Ports[0])
		}, "spec.containers[0].ports[1].name: Duplicate value"},
		"bad protocol": {func(s *corev1.PodSpec) { s.Containers[0].Ports[0].Protocol = "ICMP" }, "spec.containers[0].ports[0].protocol: Unsupported value"},
		"bad env name": {func(s *corev1.PodSpec) { s.Containers[0].Env[0].Name = "A=B" }, "spec.containers[0].env[0].name: Invalid value"},
		"env value and ref": {func(s *corev1.PodSpec) {
			s.Containers[0].Env[0].ValueFrom = &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{}}
		}, "spec.containers[0].env[0].valueFrom: Invalid value"},
		"dup volume":       {func(s *corev1.PodSpec) { s.Volumes = append(s.Volumes, s.Volumes[0]) }, "spec.volumes[1].name: Duplicate value"},
		"mount of nothing": {func(s *corev1.PodSpec) { s.Containers[0].VolumeMounts[0].Name = "other" }, "spec.containers[0].volumeMounts[0].name: Not found"},
		"negative request": {func(s *corev1.PodSpec) {
			s.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("-1")}
		}, "spec.containers[0].resources.requests[cpu]: Invalid value"},
		"request over limit": {func(s *corev1.PodSpec) {
			s.Containers[0].Resources = corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("2Gi")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
			}
		}, "must be less than or equal to memory limit of 1Gi"},
		"probe without handler": {func(s *corev1.PodSpec) { s.Containers[0].LivenessProbe = &corev1.Probe{SuccessThreshold: 1} }, "spec.containers[0].livenessProbe: Required value: must specify a handler type"},
		"probe with two": {func(s *corev1.PodSpec) {
			s.Containers[0].ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{}, TCPSocket: &corev1.TCPSocketAction{}}}
		}, "spec.containers[0].readinessProbe: Forbidden: may not specify more than 1 handler type"},
		"bad restartPolicy": {func(s *corev1.PodSpec) { s.RestartPolicy = "Sometimes" }, "spec.restartPolicy: Unsupported value"},
		"bad dnsPolicy":     {func(s *corev1.PodSpec) { s.DNSPolicy = "Mine" }, "spec.dnsPolicy: Unsupported value"},
	} {
		t.Run(name, func(t *testing.T) {
			s := validPod()
			tc.change(s)
			fieldtest.Assert(t, Validate(s, field.NewPath("spec")), tc.want)
		})
	}
}

func TestValidateSelector(t *testing.T) {
	template := &corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}}}
	for name, tc := range map[string]struct {
		selector *metav1.LabelSelector
		want     string
	}{
		"matches":   {&metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, ""},
		"missing":   {nil, "spec.selector: Required value"},
		"empty":     {&metav1.LabelSelector{}, "spec.selector: Invalid value"},
		"bad label": {&metav1.LabelSelector{MatchLabels: map[string]string{"app": "-"}}, "spec.selector.matchLabels: Invalid value"},
		"no match":  {&metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		"bad op":    {&metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}}, "spec.selector.matchExpressions[0].operator: Invalid value"},
	} {
		t.Run(name, func(t *testing.T) {
			fieldtest.Assert(t, ValidateSelector("deployment", tc.selector, template, field.NewPath("spec")), tc.want)
		})
	}
}
