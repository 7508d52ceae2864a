package core

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
)

// TestPodDefaults checks that a decoded pod gets upstream's defaults,
// those only pods get included.
func TestPodDefaults(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: objectMeta(), Spec: corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "a", Image: "nginx",
			Ports:          []corev1.ContainerPort{{ContainerPort: 80}},
			LivenessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{}}},
			Env:            []corev1.EnvVar{{Name: "N", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}},
			Resources:      corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{}}, PeriodSeconds: 5},
		}},
		Volumes: []corev1.Volume{{Name: "e"}, {Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{}}}},
	}}
	created(testKinds.pods, pod)
	s, c := pod.Spec, pod.Spec.Containers[0]
	for what, ok := range map[string]bool{
		"restartPolicy":           s.RestartPolicy == corev1.RestartPolicyAlways,
		"dnsPolicy":               s.DNSPolicy == corev1.DNSClusterFirst,
		"schedulerName":           s.SchedulerName == "default-scheduler",
		"grace period":            *s.TerminationGracePeriodSeconds == 30,
		"securityContext":         s.SecurityContext != nil,
		"enableServiceLinks":      *s.EnableServiceLinks,
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
		"requests from limits":    c.Resources.Requests.Cpu().String() == "1",
		"pending":                 pod.Status.Phase == corev1.PodPending,
		"QoS class":               pod.Status.QOSClass == corev1.PodQOSBurstable,
		"generation":              pod.Generation == 1,
	} {
		if !ok {
			t.Errorf("default %s not as Kubernetes sets it: %+v", what, pod)
		}
	}
}

// validPod is a valid pod, as created, that tests break one rule of.
func validPod() *corev1.Pod {
	return created(testKinds.pods, &corev1.Pod{ObjectMeta: objectMeta(), Spec: corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "main", Image: "nginx:1.27",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
		}},
		Tolerations:           []corev1.Toleration{{Key: "a", Operator: corev1.TolerationOpExists}},
		ActiveDeadlineSeconds: ptr.To(int64(100)),
	}}).(*corev1.Pod)
}

func TestPodImageWhitespace(t *testing.T) {
	pod := validPod()
	pod.Spec.Containers[0].Image = " nginx"
	fieldtest.Assert(t, rest.ValidateCreate(createContext(), pod, testKinds.pods), "spec.containers[0].image: Invalid value")
}

func TestPodUpdate(t *testing.T) {
	for name, tc := range map[string]struct {
		change func(*corev1.PodSpec)
		want   string
	}{
		"image": {func(s *corev1.PodSpec) { s.Containers[0].Image = "nginx:1.28" }, ""},
		"new toleration": {func(s *corev1.PodSpec) {
			s.Tolerations = append(s.Tolerations, corev1.Toleration{Key: "b", Operator: corev1.TolerationOpExists})
		}, ""},
		"toleration gone":  {func(s *corev1.PodSpec) { s.Tolerations = nil }, "spec.tolerations: Forbidden: existing toleration can not be modified"},
		"shorter deadline": {func(s *corev1.PodSpec) { s.ActiveDeadlineSeconds = ptr.To(int64(10)) }, ""},
		"longer deadline":  {func(s *corev1.PodSpec) { s.ActiveDeadlineSeconds = ptr.To(int64(1000)) }, "spec.activeDeadlineSeconds: Invalid value"},
		"ports":            {func(s *corev1.PodSpec) { s.Containers[0].Ports[0].ContainerPort = 81 }, "spec: Forbidden: pod updates may not change fields"},
		"another container": {func(s *corev1.PodSpec) {
			s.Containers = append(s.Containers, corev1.Container{Name: "b", Image: "b"})
		}, "spec.containers: Forbidden: pod updates may not add or remove containers"},
	} {
		t.Run(name, func(t *testing.T) {
			old := validPod()
			old.ResourceVersion = "1"
			pod := old.DeepCopy()
			tc.change(&pod.Spec)
			scheme().Default(pod)
			testKinds.pods.PrepareForUpdate(createContext(), pod, old)
			fieldtest.Assert(t, rest.ValidateUpdate(createContext(), pod, old, testKinds.pods), tc.want)
		})
	}
}
