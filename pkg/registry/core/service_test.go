package core

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
)

func TestDefaultService(t *testing.T) {
	svc := &corev1.Service{Spec: corev1.ServiceSpec{
		ClusterIP: "10.0.0.1",
		Ports:     []corev1.ServicePort{{Port: 80}, {Port: 81, TargetPort: intstr.FromString("web")}},
	}}
	defaultService(svc)
	s := svc.Spec
	if s.Type != corev1.ServiceTypeClusterIP || s.SessionAffinity != corev1.ServiceAffinityNone ||
		*s.InternalTrafficPolicy != corev1.ServiceInternalTrafficPolicyCluster || *s.IPFamilyPolicy != corev1.IPFamilyPolicySingleStack ||
		s.ExternalTrafficPolicy != "" || len(s.ClusterIPs) != 1 || s.ClusterIPs[0] != "10.0.0.1" {
		t.Errorf("defaulted spec %+v", s)
	}
	if p := s.Ports[0]; p.Protocol != corev1.ProtocolTCP || p.TargetPort != intstr.FromInt32(80) {
		t.Errorf("defaulted port %+v", p)
	}
	if p := s.Ports[1]; p.TargetPort != intstr.FromString("web") {
		t.Errorf("a named target port became %+v", p.TargetPort)
	}

	lb := &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, SessionAffinity: corev1.ServiceAffinityClientIP, ClusterIPs: []string{"fd00::1"}}}
	defaultService(lb)
	if lb.Spec.ExternalTrafficPolicy != corev1.ServiceExternalTrafficPolicyCluster || !*lb.Spec.AllocateLoadBalancerNodePorts ||
		*lb.Spec.SessionAffinityConfig.ClientIP.TimeoutSeconds != defaultClientIPTimeoutSeconds || lb.Spec.ClusterIP != "fd00::1" {
		t.Errorf("defaulted load balancer %+v", lb.Spec)
	}

	name := &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "db.example.com"}}
	defaultService(name)
	if name.Spec.InternalTrafficPolicy != nil || name.Spec.IPFamilyPolicy != nil {
		t.Errorf("an ExternalName service got traffic or family policies: %+v", name.Spec)
	}
}

func TestValidateService(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*corev1.Service)
		want   string
	}{
		{"valid", func(*corev1.Service) {}, ""},
		{"headless without ports", func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.Ports = "None", nil }, ""},
		{"given cluster IP", func(s *corev1.Service) { s.Spec.ClusterIP = "10.96.0.1" }, ""},
		{"no ports", func(s *corev1.Service) { s.Spec.Ports = nil }, "spec.ports"},
		{"port 0", func(s *corev1.Service) { s.Spec.Ports[0].Port, s.Spec.Ports[0].TargetPort = 0, intstr.FromInt32(0) }, "spec.ports[0].port"},
		{"target port too big", func(s *corev1.Service) { s.Spec.Ports[0].TargetPort = intstr.FromInt32(70000) }, "spec.ports[0].targetPort"},
		{"port too big", func(s *corev1.Service) { s.Spec.Ports[0].Port = 65536 }, "spec.ports[0].port"},
		{"unnamed of two", func(s *corev1.Service) { s.Spec.Ports[1].Name = "" }, "spec.ports[1].name"},
		{"same name", func(s *corev1.Service) { s.Spec.Ports[1].Name = "http" }, "spec.ports[1].name"},
		{"bad name", func(s *corev1.Service) { s.Spec.Ports[1].Name = "Admin_Port" }, "spec.ports[1].name"},
		{"protocol", func(s *corev1.Service) { s.Spec.Ports[0].Protocol = "HTTP" }, "spec.ports[0].protocol"},
		{"target port name", func(s *corev1.Service) { s.Spec.Ports[0].TargetPort = intstr.FromString("not a name") }, "spec.ports[0].targetPort"},
		{"same port twice", func(s *corev1.Service) { s.Spec.Ports[1].Port = 80 }, "spec.ports[1]"},
		{"node port of ClusterIP", func(s *corev1.Service) { s.Spec.Ports[0].NodePort = 30000 }, "spec.ports[0].nodePort"},
		{"selector", func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "no spaces"} }, "spec.selector"},
		{"type", func(s *corev1.Service) { s.Spec.Type = "Internal" }, "spec.type"},
		{"cluster IP", func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.0.0.300", []string{"10.0.0.300"} }, "spec.clusterIP"},
		{"clusterIPs", func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.0.0.1", []string{"10.0.0.2"} }, "spec.clusterIPs[0]"},
		{"external name", func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }, "spec.externalName"},
		{"external name with IP", func(s *corev1.Service) {
			s.Spec.Type, s.Spec.ExternalName, s.Spec.ClusterIP = corev1.ServiceTypeExternalName, "db.example.com", "10.0.0.1"
		}, "spec.clusterIP"},
		{"external traffic of ClusterIP", func(s *corev1.Service) { s.Spec.ExternalTrafficPolicy = "Local" }, "spec.externalTrafficPolicy"},
		{"affinity timeout", func(s *corev1.Service) {
			s.Spec.SessionAffinity = corev1.ServiceAffinityClientIP
			s.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr.To[int32](0)}}
		}, "spec.sessionAffinityConfig.clientIP.timeoutSeconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := &corev1.Service{Spec: corev1.ServiceSpec{
				Selector: map[string]string{"app": "web"},
				Ports:    []corev1.ServicePort{{Name: "http", Port: 80}, {Name: "admin", Port: 8080}},
			}}
			defaultService(svc)
			tc.change(svc)
			fieldtest.OnlyField(t, validateService(svc), tc.want)
		})
	}
}

func TestServiceUpdate(t *testing.T) {
	old := &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeNodePort, ClusterIP: "10.0.0.1", ClusterIPs: []string{"10.0.0.1"},
		Ports: []corev1.ServicePort{{Port: 80, Protocol: corev1.ProtocolTCP, NodePort: 30080}}}}
	svc := &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeNodePort, Ports: []corev1.ServicePort{{Port: 80, Protocol: corev1.ProtocolTCP}}}}
	keepAllocated(svc, old)
	if svc.Spec.ClusterIP != "10.0.0.1" || svc.Spec.Ports[0].NodePort != 30080 {
		t.Errorf("an update without cluster IP and node port kept %+v", svc.Spec)
	}
	fieldtest.OnlyField(t, validateServiceUpdate(svc, old), "")
	svc.Spec.ClusterIP = "10.0.0.2"
	fieldtest.OnlyField(t, validateServiceUpdate(svc, old), "spec.clusterIP")
	svc.Spec.Type, svc.Spec.ClusterIP = corev1.ServiceTypeExternalName, ""
	fieldtest.OnlyField(t, validateServiceUpdate(svc, old), "")
}

func TestValidateEndpoints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*corev1.EndpointSubset)
		want   string
	}{
		{"valid", func(*corev1.EndpointSubset) {}, ""},
		{"ip", func(s *corev1.EndpointSubset) { s.Addresses[0].IP = "web" }, "subsets[0].addresses[0].ip"},
		{"no addresses", func(s *corev1.EndpointSubset) { s.Addresses = nil }, "subsets[0]"},
		{"port", func(s *corev1.EndpointSubset) { s.Ports[0].Port = 0 }, "subsets[0].ports[0].port"},
		{"protocol", func(s *corev1.EndpointSubset) { s.Ports[0].Protocol = "ICMP" }, "subsets[0].ports[0].protocol"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep := &corev1.Endpoints{Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1"}}, Ports: []corev1.EndpointPort{{Port: 80}}}}}
			defaultEndpoints(ep)
			tc.change(&ep.Subsets[0])
			fieldtest.OnlyField(t, validateEndpoints(ep), tc.want)
		})
	}
}

func TestValidateEvent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*corev1.Event)
		want   string
	}{
		{"valid", func(*corev1.Event) {}, ""},
		{"other namespace", func(e *corev1.Event) { e.InvolvedObject.Namespace = "other" }, "involvedObject.namespace"},
		{"cluster-scoped object in default", func(e *corev1.Event) { e.Namespace, e.InvolvedObject.Namespace = "default", "" }, ""},
		{"cluster-scoped object elsewhere", func(e *corev1.Event) { e.InvolvedObject.Namespace = "" }, "involvedObject.namespace"},
		{"new without reporter", func(e *corev1.Event) {
			e.EventTime, e.Action, e.Type = metav1.NowMicro(), "Sync", corev1.EventTypeNormal
		}, "reportingComponent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "shop"}, Reason: "Synced",
				InvolvedObject: corev1.ObjectReference{Kind: "Service", Name: "web", Namespace: "shop"}}
			tc.change(ev)
			fieldtest.OnlyField(t, validateEvent(ev), tc.want)
		})
	}
}

func TestLimitRange(t *testing.T) {
	q := resource.MustParse
	lr := &corev1.LimitRange{Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{
		Type: corev1.LimitTypeContainer, Max: corev1.ResourceList{"cpu": q("2")}, Min: corev1.ResourceList{"memory": q("64Mi")},
	}}}}
	defaultLimitRange(lr)
	l := lr.Spec.Limits[0]
	if d, r, m := l.Default["cpu"], l.DefaultRequest["cpu"], l.DefaultRequest["memory"]; d.String() != "2" || r.String() != "2" || m.String() != "64Mi" {
		t.Errorf("defaulted limits %+v", l)
	}
	for _, tc := range []struct {
		name   string
		change func(*corev1.LimitRangeItem)
		want   string
	}{
		{"valid", func(*corev1.LimitRangeItem) {}, ""},
		{"type", func(l *corev1.LimitRangeItem) { l.Type = "Node" }, "spec.limits[0].type"},
		{"min over max", func(l *corev1.LimitRangeItem) { l.Min = corev1.ResourceList{"cpu": q("3")} }, "spec.limits[0].min[cpu]"},
		{"resource name", func(l *corev1.LimitRangeItem) { l.Max["gpu"] = q("1") }, "spec.limits[0].max[gpu]"},
		{"negative", func(l *corev1.LimitRangeItem) { l.Max["example.com/gpu"] = q("-1") }, "spec.limits[0].max[example.com/gpu]"},
		{"ratio", func(l *corev1.LimitRangeItem) { l.MaxLimitRequestRatio = corev1.ResourceList{"cpu": q("500m")} }, "spec.limits[0].maxLimitRequestRatio[cpu]"},
		{"pod defaults", func(l *corev1.LimitRangeItem) { l.Type, l.Min, l.Max = corev1.LimitTypePod, nil, nil }, "spec.limits[0].default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lr := &corev1.LimitRange{Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{
				Type: corev1.LimitTypeContainer, Max: corev1.ResourceList{"cpu": q("2")}, Min: corev1.ResourceList{"cpu": q("100m")},
			}}}}
			defaultLimitRange(lr)
			tc.change(&lr.Spec.Limits[0])
			fieldtest.OnlyField(t, validateLimitRange(lr), tc.want)
		})
	}
}

func TestValidateResourceQuota(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec corev1.ResourceQuotaSpec
		want string
	}{
		{"valid", corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{"pods": resource.MustParse("10"), "count/deployments.apps": resource.MustParse("2"), "requests.nvidia.com/gpu": resource.MustParse("1")}}, ""},
		{"unknown", corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{"podz": resource.MustParse("1")}}, "spec.hard[podz]"},
		{"negative", corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{"pods": resource.MustParse("-1")}}, "spec.hard[pods]"},
		{"scope", corev1.ResourceQuotaSpec{Scopes: []corev1.ResourceQuotaScope{"Cheap"}}, "spec.scopes[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fieldtest.OnlyField(t, validateResourceQuota(&corev1.ResourceQuota{Spec: tc.spec}), tc.want)
		})
	}
}
