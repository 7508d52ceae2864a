package core

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/internal/fieldtest"
)

// The strategies here are upstream's (package upstream): these tests check
// that the hub runs them, defaults included, on its v1 objects, and that
// what the hub adds (cluster IPs kept over updates) goes with them.

// testKinds are the strategies NewStorage serves the kinds with.
var testKinds = kinds(scheme())

func scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}

// created is obj as a create would store it: decoded, with upstream's
// defaults, then prepared by strategy.
func created(strategy rest.RESTCreateStrategy, obj runtime.Object) runtime.Object {
	scheme().Default(obj)
	strategy.PrepareForCreate(createContext(), obj)
	return obj
}

func createContext() context.Context {
	return genericapirequest.WithRequestInfo(genericapirequest.WithNamespace(context.Background(), "shop"),
		&genericapirequest.RequestInfo{APIVersion: "v1", Resource: "services", Verb: "create"})
}

// createErrors is what a create of obj answers: the causes of its 422.
func createErrors(strategy rest.RESTCreateStrategy, obj runtime.Object) field.ErrorList {
	return rest.ValidateCreate(createContext(), created(strategy, obj), strategy)
}

// objectMeta is the metadata of a test object.
func objectMeta() metav1.ObjectMeta { return metav1.ObjectMeta{Name: "web", Namespace: "shop"} }

func TestDefaultService(t *testing.T) {
	svc := &corev1.Service{ObjectMeta: objectMeta(), Spec: corev1.ServiceSpec{
		ClusterIP: "10.0.0.1",
		Ports:     []corev1.ServicePort{{Port: 80}, {Port: 81, TargetPort: intstr.FromString("web")}},
	}}
	created(testKinds.services, svc)
	s := svc.Spec
	if s.Type != corev1.ServiceTypeClusterIP || s.SessionAffinity != corev1.ServiceAffinityNone ||
		*s.InternalTrafficPolicy != corev1.ServiceInternalTrafficPolicyCluster || s.ExternalTrafficPolicy != "" {
		t.Errorf("defaulted spec %+v", s)
	}
	if p := s.Ports[0]; p.Protocol != corev1.ProtocolTCP || p.TargetPort != intstr.FromInt32(80) {
		t.Errorf("defaulted port %+v", p)
	}
	if p := s.Ports[1]; p.TargetPort != intstr.FromString("web") {
		t.Errorf("a named target port became %+v", p.TargetPort)
	}

	lb := &corev1.Service{ObjectMeta: objectMeta(), Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, SessionAffinity: corev1.ServiceAffinityClientIP, ClusterIPs: []string{"fd00::1"}}}
	created(testKinds.services, lb)
	if lb.Spec.ExternalTrafficPolicy != corev1.ServiceExternalTrafficPolicyCluster || !*lb.Spec.AllocateLoadBalancerNodePorts ||
		*lb.Spec.SessionAffinityConfig.ClientIP.TimeoutSeconds != corev1.DefaultClientIPServiceAffinitySeconds || lb.Spec.ClusterIP != "" {
		t.Errorf("defaulted load balancer %+v", lb.Spec)
	}

	name := &corev1.Service{ObjectMeta: objectMeta(), Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "db.example.com"}}
	created(testKinds.services, name)
	if name.Spec.InternalTrafficPolicy != nil || name.Spec.IPFamilyPolicy != nil {
		t.Errorf("an ExternalName service got traffic or family policies: %+v", name.Spec)
	}
}

func TestValidateService(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*corev1.Service)
		want   []string
	}{
		{"valid", func(*corev1.Service) {}, nil},
		{"headless without ports", func(s *corev1.Service) {
			s.Spec.ClusterIP, s.Spec.ClusterIPs, s.Spec.Ports = "None", []string{"None"}, nil
		}, nil},
		{"given cluster IP", func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.96.0.1", []string{"10.96.0.1"} }, nil},
		{"no ports", func(s *corev1.Service) { s.Spec.Ports = nil }, []string{"spec.ports"}},
		{"port 0", func(s *corev1.Service) { s.Spec.Ports[0].Port, s.Spec.Ports[0].TargetPort = 0, intstr.FromInt32(0) }, []string{"spec.ports[0].port", "spec.ports[0].targetPort"}},
		{"target port too big", func(s *corev1.Service) { s.Spec.Ports[0].TargetPort = intstr.FromInt32(70000) }, []string{"spec.ports[0].targetPort"}},
		{"port too big", func(s *corev1.Service) { s.Spec.Ports[0].Port = 65536 }, []string{"spec.ports[0].port"}},
		{"unnamed of two", func(s *corev1.Service) { s.Spec.Ports[1].Name = "" }, []string{"spec.ports[1].name"}},
		{"same name", func(s *corev1.Service) { s.Spec.Ports[1].Name = "http" }, []string{"spec.ports[1].name"}},
		{"bad name", func(s *corev1.Service) { s.Spec.Ports[1].Name = "Admin_Port" }, []string{"spec.ports[1].name"}},
		{"protocol", func(s *corev1.Service) { s.Spec.Ports[0].Protocol = "HTTP" }, []string{"spec.ports[0].protocol"}},
		{"target port name", func(s *corev1.Service) { s.Spec.Ports[0].TargetPort = intstr.FromString("not a name") }, []string{"spec.ports[0].targetPort"}},
		{"same port twice", func(s *corev1.Service) { s.Spec.Ports[1].Port = 80 }, []string{"spec.ports[1]"}},
		{"node port of ClusterIP", func(s *corev1.Service) { s.Spec.Ports[0].NodePort = 30000 }, []string{"spec.ports[0].nodePort"}},
		{"selector", func(s *corev1.Service) { s.Spec.Selector = map[string]string{"app": "no spaces"} }, []string{"spec.selector"}},
		{"type", func(s *corev1.Service) { s.Spec.Type = "Internal" }, []string{"spec.type"}},
		{"cluster IP", func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.0.0.300", []string{"10.0.0.300"} }, []string{"spec.clusterIPs[0]"}},
		{"clusterIPs", func(s *corev1.Service) { s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.0.0.1", []string{"10.0.0.2"} }, []string{"spec.clusterIPs"}},
		{"external name", func(s *corev1.Service) { s.Spec.Type = corev1.ServiceTypeExternalName }, []string{"spec.externalName"}},
		{"external name with IP", func(s *corev1.Service) {
			s.Spec.Type, s.Spec.ExternalName, s.Spec.ClusterIP, s.Spec.ClusterIPs = corev1.ServiceTypeExternalName, "db.example.com", "10.0.0.1", []string{"10.0.0.1"}
		}, []string{"spec.clusterIPs"}},
		{"external traffic of ClusterIP", func(s *corev1.Service) { s.Spec.ExternalTrafficPolicy = "Local" }, []string{"spec.externalTrafficPolicy"}},
		{"affinity timeout", func(s *corev1.Service) {
			s.Spec.SessionAffinity = corev1.ServiceAffinityClientIP
			s.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr.To[int32](0)}}
		}, []string{"spec.sessionAffinityConfig.clientIP.timeoutSeconds"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := &corev1.Service{ObjectMeta: objectMeta(), Spec: corev1.ServiceSpec{
				Selector: map[string]string{"app": "web"},
				Ports:    []corev1.ServicePort{{Name: "http", Port: 80}, {Name: "admin", Port: 8080}},
			}}
			scheme().Default(svc)
			tc.change(svc)
			fieldtest.Fields(t, createErrors(testKinds.services, svc), tc.want...)
		})
	}
}

func TestValidateEndpoints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*corev1.EndpointSubset)
		want   []string
	}{
		{"valid", func(*corev1.EndpointSubset) {}, nil},
		{"ip", func(s *corev1.EndpointSubset) { s.Addresses[0].IP = "web" }, []string{"subsets[0].addresses[0].ip"}},
		{"no addresses", func(s *corev1.EndpointSubset) { s.Addresses = nil }, []string{"subsets[0]"}},
		{"port", func(s *corev1.EndpointSubset) { s.Ports[0].Port = 0 }, []string{"subsets[0].ports[0].port"}},
		{"protocol", func(s *corev1.EndpointSubset) { s.Ports[0].Protocol = "ICMP" }, []string{"subsets[0].ports[0].protocol"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep := &corev1.Endpoints{ObjectMeta: objectMeta(), Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1"}}, Ports: []corev1.EndpointPort{{Port: 80}}}}}
			scheme().Default(ep)
			tc.change(&ep.Subsets[0])
			fieldtest.Fields(t, createErrors(testKinds.endpoints, ep), tc.want...)
		})
	}
}

func TestValidateEvent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*corev1.Event)
		want   []string
	}{
		{"valid", func(*corev1.Event) {}, nil},
		{"other namespace", func(e *corev1.Event) { e.InvolvedObject.Namespace = "other" }, []string{"involvedObject.namespace"}},
		{"cluster-scoped object in default", func(e *corev1.Event) { e.Namespace, e.InvolvedObject.Namespace = "default", "" }, nil},
		{"cluster-scoped object elsewhere", func(e *corev1.Event) { e.InvolvedObject.Namespace = "" }, []string{"involvedObject.namespace"}},
		{"new without reporter", func(e *corev1.Event) {
			e.EventTime, e.Action, e.Type = metav1.NowMicro(), "Sync", corev1.EventTypeNormal
		}, []string{"reportingComponent", "reportingInstance"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := &corev1.Event{ObjectMeta: objectMeta(), Reason: "Synced",
				InvolvedObject: corev1.ObjectReference{Kind: "Service", Name: "web", Namespace: "shop"}}
			tc.change(ev)
			fieldtest.Fields(t, createErrors(testKinds.events, ev), tc.want...)
		})
	}
}

func TestLimitRange(t *testing.T) {
	q := resource.MustParse
	lr := &corev1.LimitRange{ObjectMeta: objectMeta(), Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{
		Type: corev1.LimitTypeContainer, Max: corev1.ResourceList{"cpu": q("2")}, Min: corev1.ResourceList{"memory": q("64Mi")},
	}}}}
	created(testKinds.limitRanges, lr)
	l := lr.Spec.Limits[0]
	if d, r, m := l.Default["cpu"], l.DefaultRequest["cpu"], l.DefaultRequest["memory"]; d.String() != "2" || r.String() != "2" || m.String() != "64Mi" {
		t.Errorf("defaulted limits %+v", l)
	}
	for _, tc := range []struct {
		name   string
		change func(*corev1.LimitRangeItem)
		want   []string
	}{
		{"valid", func(*corev1.LimitRangeItem) {}, nil},
		{"type", func(l *corev1.LimitRangeItem) { l.Type = "Node" }, []string{"spec.limits[0].type"}},
		{"min over max", func(l *corev1.LimitRangeItem) { l.Min = corev1.ResourceList{"cpu": q("3")} }, []string{"spec.limits[0].min[cpu]", "spec.limits[0].default[cpu]", "spec.limits[0].defaultRequest[cpu]"}},
		{"resource name", func(l *corev1.LimitRangeItem) { l.Max["gpu"] = q("1") }, []string{"spec.limits[0].max[gpu]", "spec.limits[0].default[gpu]", "spec.limits[0].defaultRequest[gpu]"}},
		// Kubernetes takes negative limits, which no pod can meet.
		{"negative", func(l *corev1.LimitRangeItem) { l.Max["memory"] = q("-1") }, nil},
		{"ratio", func(l *corev1.LimitRangeItem) { l.MaxLimitRequestRatio = corev1.ResourceList{"cpu": q("500m")} }, []string{"spec.limits[0].maxLimitRequestRatio[cpu]"}},
		{"pod defaults", func(l *corev1.LimitRangeItem) { l.Type, l.Min, l.Max = corev1.LimitTypePod, nil, nil }, []string{"spec.limits[0].default", "spec.limits[0].defaultRequest"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lr := &corev1.LimitRange{ObjectMeta: objectMeta(), Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{
				Type: corev1.LimitTypeContainer, Max: corev1.ResourceList{"cpu": q("2")}, Min: corev1.ResourceList{"cpu": q("100m")},
			}}}}
			scheme().Default(lr)
			tc.change(&lr.Spec.Limits[0])
			fieldtest.Fields(t, createErrors(testKinds.limitRanges, lr), tc.want...)
		})
	}
}

func TestValidateResourceQuota(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec corev1.ResourceQuotaSpec
		want []string
	}{
		{"valid", corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{"pods": resource.MustParse("10"), "count/deployments.apps": resource.MustParse("2"), "requests.nvidia.com/gpu": resource.MustParse("1")}}, nil},
		{"unknown", corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{"podz": resource.MustParse("1")}}, []string{"spec.hard[podz]"}},
		{"negative", corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{"pods": resource.MustParse("-1")}}, []string{"spec.hard[pods]"}},
		{"scope", corev1.ResourceQuotaSpec{Scopes: []corev1.ResourceQuotaScope{"Cheap"}}, []string{"spec.scopes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fieldtest.Fields(t, createErrors(testKinds.resourceQuotas, &corev1.ResourceQuota{ObjectMeta: objectMeta(), Spec: tc.spec}), tc.want...)
		})
	}
}
