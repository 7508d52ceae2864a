package serviceip

import (
	"net/netip"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// What a Service's create and update do before the strategy, as
// kube-apiserver's service storage does on a single-stack IPv4 cluster.

func service(change func(*corev1.ServiceSpec)) *corev1.Service {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}, Spec: corev1.ServiceSpec{
		Type: corev1.ServiceTypeClusterIP, Selector: map[string]string{"app": "web"}, Ports: []corev1.ServicePort{{Port: 80}},
	}}
	change(&svc.Spec)
	return svc
}

// causes are the fields of err's causes, nil when err is nil.
func causes(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	status, ok := err.(apierrors.APIStatus)
	if !ok || status.Status().Details == nil {
		t.Fatalf("%v: want a 422 naming its fields", err)
	}
	var fields []string
	for _, c := range status.Status().Details.Causes {
		fields = append(fields, c.Field)
	}
	return fields
}

func TestInitIPFamilyFields(t *testing.T) {
	a := &Allocator{Range: netip.MustParsePrefix("10.96.0.0/12")}
	for _, tc := range []struct {
		name     string
		change   func(*corev1.ServiceSpec)
		causes   []string
		policy   corev1.IPFamilyPolicy
		families []corev1.IPFamily
	}{
		{"no IP", func(*corev1.ServiceSpec) {}, nil, corev1.IPFamilyPolicySingleStack, []corev1.IPFamily{corev1.IPv4Protocol}},
		{"given IP", func(s *corev1.ServiceSpec) { s.ClusterIP = "10.96.0.10" }, nil, corev1.IPFamilyPolicySingleStack, []corev1.IPFamily{corev1.IPv4Protocol}},
		// The cluster IP fields are checked first, and their errors
		// answered alone: the bad port is not named.
		{"bad IPs", func(s *corev1.ServiceSpec) {
			s.ClusterIP, s.ClusterIPs, s.Ports[0].Port = "web", []string{"OnFailure", "web"}, 0
		}, []string{"spec.clusterIPs", "spec.clusterIPs[0]", "spec.clusterIPs[1]"}, corev1.IPFamilyPolicySingleStack, nil},
		{"dual stack required", func(s *corev1.ServiceSpec) { s.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicyRequireDualStack) },
			[]string{"spec.ipFamilyPolicy"}, corev1.IPFamilyPolicyRequireDualStack, nil},
		{"dual stack preferred", func(s *corev1.ServiceSpec) { s.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicyPreferDualStack) },
			nil, corev1.IPFamilyPolicyPreferDualStack, []corev1.IPFamily{corev1.IPv4Protocol}},
		{"IPv6", func(s *corev1.ServiceSpec) { s.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol} },
			[]string{"spec.ipFamilies[0]"}, corev1.IPFamilyPolicySingleStack, []corev1.IPFamily{corev1.IPv6Protocol}},
		{"headless without selector", func(s *corev1.ServiceSpec) { s.ClusterIP, s.Selector = corev1.ClusterIPNone, nil },
			nil, corev1.IPFamilyPolicyRequireDualStack, []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}},
		{"external name", func(s *corev1.ServiceSpec) { s.Type, s.ExternalName = corev1.ServiceTypeExternalName, "db.example.com" }, nil, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc := service(tc.change)
			normalizeClusterIPs(svc, nil)
			err := a.initIPFamilyFields(svc, nil)
			if got := causes(t, err); !slices.Equal(got, tc.causes) {
				t.Errorf("causes %v, want %v", got, tc.causes)
			}
			if got := ptr.Deref(svc.Spec.IPFamilyPolicy, ""); got != tc.policy {
				t.Errorf("ipFamilyPolicy %q, want %q", got, tc.policy)
			}
			if err == nil && !slices.Equal(svc.Spec.IPFamilies, tc.families) {
				t.Errorf("ipFamilies %v, want %v", svc.Spec.IPFamilies, tc.families)
			}
		})
	}
}

// An update that leaves out what was allocated keeps it, and one that
// changes clusterIP alone changes clusterIPs with it.
func TestUpdateKeepsAllocated(t *testing.T) {
	a := &Allocator{Range: netip.MustParsePrefix("10.96.0.0/12")}
	// Stored before the hub set ipFamilies.
	old := service(func(s *corev1.ServiceSpec) {
		s.Type, s.ClusterIP, s.ClusterIPs = corev1.ServiceTypeNodePort, "10.96.0.10", []string{"10.96.0.10"}
		s.Ports[0].Name, s.Ports[0].NodePort = "http", 30080
	})
	a.defaultOnReadIPFamilies(old)
	if !slices.Equal(old.Spec.IPFamilies, []corev1.IPFamily{corev1.IPv4Protocol}) || *old.Spec.IPFamilyPolicy != corev1.IPFamilyPolicySingleStack {
		t.Errorf("a stored Service without families read as %v %v", old.Spec.IPFamilies, old.Spec.IPFamilyPolicy)
	}
	svc := service(func(s *corev1.ServiceSpec) { s.Type, s.Ports[0].Name = corev1.ServiceTypeNodePort, "http" })
	patchAllocatedValues(svc, old)
	normalizeClusterIPs(svc, old)
	if err := a.initIPFamilyFields(svc, old); err != nil {
		t.Fatal(err)
	}
	if svc.Spec.ClusterIP != "10.96.0.10" || !slices.Equal(svc.Spec.ClusterIPs, old.Spec.ClusterIPs) || svc.Spec.Ports[0].NodePort != 30080 ||
		*svc.Spec.IPFamilyPolicy != corev1.IPFamilyPolicySingleStack {
		t.Errorf("an update without cluster IP, node port and IP family policy kept %+v", svc.Spec)
	}

	changed := old.DeepCopy()
	changed.Spec.ClusterIP = "10.96.0.11"
	normalizeClusterIPs(changed, old)
	if !slices.Equal(changed.Spec.ClusterIPs, []string{"10.96.0.11"}) {
		t.Errorf("clusterIPs %v did not follow a changed clusterIP", changed.Spec.ClusterIPs)
	}
	cleared := old.DeepCopy()
	cleared.Spec.ClusterIP = ""
	normalizeClusterIPs(cleared, old)
	if cleared.Spec.ClusterIPs != nil {
		t.Errorf("clusterIPs %v were not cleared with clusterIP", cleared.Spec.ClusterIPs)
	}
}

// A LoadBalancer Service with externalTrafficPolicy Local gets a health
// check node port, which upstream's validation requires, of the node port
// range and none of its own node ports; one it has is kept.
func TestHealthCheckNodePort(t *testing.T) {
	lb := func(hc int32) *corev1.Service {
		return service(func(s *corev1.ServiceSpec) {
			s.Type, s.ExternalTrafficPolicy, s.HealthCheckNodePort = corev1.ServiceTypeLoadBalancer, corev1.ServiceExternalTrafficPolicyLocal, hc
			s.Ports[0].NodePort = 30000
		})
	}
	for range 100 {
		svc := lb(0)
		giveHealthCheckNodePort(svc)
		if p := svc.Spec.HealthCheckNodePort; p < 30001 || p > 32767 {
			t.Fatalf("health check node port %d, want one of 30001-32767", p)
		}
	}
	given := lb(31000)
	giveHealthCheckNodePort(given)
	if given.Spec.HealthCheckNodePort != 31000 {
		t.Errorf("a given health check node port became %d", given.Spec.HealthCheckNodePort)
	}
	cluster := service(func(s *corev1.ServiceSpec) { s.Type = corev1.ServiceTypeLoadBalancer })
	giveHealthCheckNodePort(cluster)
	if cluster.Spec.HealthCheckNodePort != 0 {
		t.Errorf("a LoadBalancer with externalTrafficPolicy Cluster got health check node port %d", cluster.Spec.HealthCheckNodePort)
	}
}
