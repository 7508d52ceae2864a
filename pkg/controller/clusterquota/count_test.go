package clusterquota

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/informer"
)

// TestRecounted checks what a lease's account is recounted to: what was
// counted, plus the pending charges whose writes the count did not see
// stored and that have not expired; what the recount cannot count keeps
// admission's charge.
func TestRecounted(t *testing.T) {
	now := time.Now()
	c := &Controller{now: func() time.Time { return now },
		counted: map[schema.GroupResource]*informer.Informer{{Group: "apps", Resource: "deployments"}: nil}}
	cpu := func(s string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse(s)}
	}
	charge := func(uid string, gen int64, amount corev1.ResourceList, expires time.Time) tenancyv1alpha1.ClusterQuotaCharge {
		return tenancyv1alpha1.ClusterQuotaCharge{UID: types.UID(uid), Generation: gen, Amount: amount, Expires: metav1.NewTime(expires)}
	}
	later := now.Add(time.Minute)
	q := &tenancyv1alpha1.ClusterQuota{
		Spec: tenancyv1alpha1.ClusterQuotaSpec{Hard: corev1.ResourceList{
			corev1.ResourceRequestsCPU: resource.MustParse("10"), "count/widgets.example.com": resource.MustParse("5"),
		}},
		Status: tenancyv1alpha1.ClusterQuotaStatus{
			// A leak: 9 CPUs held; 2 custom objects admitted.
			Used: corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse("9"), "count/widgets.example.com": resource.MustParse("2")},
			Pending: []tenancyv1alpha1.ClusterQuotaCharge{
				charge("stored", 2, cpu("2"), later),   // the count saw its write: counted already
				charge("scaling", 3, cpu("1"), later),  // the count saw generation 2 only: still pending
				charge("creating", 1, cpu("4"), later), // not seen: still pending
				charge("lost", 1, cpu("3"), now),       // expired: its write will never be stored
				charge("widget", 1, corev1.ResourceList{"count/widgets.example.com": resource.MustParse("1")}, later),
			},
		},
	}
	counted := tally{hard: limitsOf(q.Spec.Hard), used: cpu("3"), leasedOut: corev1.ResourceList{},
		seen: map[types.UID]int64{"stored": 2, "scaling": 2}}
	status := c.recounted(q, counted)
	if got := status.Used[corev1.ResourceRequestsCPU]; got.Cmp(resource.MustParse("8")) != 0 {
		t.Errorf("used requests.cpu is %s; want 8: 3 counted, 1 scaling and 4 creating pending", got.String())
	}
	if got := status.Used["count/widgets.example.com"]; got.Cmp(resource.MustParse("2")) != 0 {
		t.Errorf("used count/widgets.example.com is %s; want admission's 2", got.String())
	}
	if got := status.LeasedOut[corev1.ResourceRequestsCPU]; !got.IsZero() {
		t.Errorf("leased out requests.cpu is %s; want 0", got.String())
	}
	var pending []types.UID
	for _, e := range status.Pending {
		pending = append(pending, e.UID)
	}
	if len(pending) != 2 || pending[0] != "scaling" || pending[1] != "creating" {
		t.Errorf("pending charges are %v; want [scaling creating]", pending)
	}
	q.Status = status
	if c.changes(q, counted) {
		t.Error("a lease recounted already changes when recounted again")
	}
}

// TestLimitsCount checks which resources' objects a lease's recount looks
// at: those whose use it limits, and the leases given below it.
func TestLimitsCount(t *testing.T) {
	l := limitsOf(corev1.ResourceList{"count/configmaps": resource.MustParse("1"), tenancyv1alpha1.ResourceLogicalClusters: resource.MustParse("1")})
	for gr, want := range map[schema.GroupResource]bool{
		{Resource: "configmaps"}:                 true,
		clustersResource:                         true,
		quotasResource:                           true,
		{Resource: "secrets"}:                    false,
		{Group: "apps", Resource: "deployments"}: false,
		{Group: "tenancy.canopy.dev", Resource: "synctargets"}: false,
	} {
		if got := l.count(gr); got != want {
			t.Errorf("a lease of %v counts %s: %v, want %v", l, gr, got, want)
		}
	}
	if !limitsOf(cpuList()).count(schema.GroupResource{Group: "apps", Resource: "deployments"}) {
		t.Error("a lease of requests.cpu does not count Deployments")
	}
}

func cpuList() corev1.ResourceList {
	return corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse("1")}
}

// TestCountAlike checks that counting objects that all use the same, by
// one multiplication, tallies what adding each one's use does.
func TestCountAlike(t *testing.T) {
	c := &Controller{}
	mine := limits{"count/configmaps": true, tenancyv1alpha1.ResourceNamespaces: true}
	for _, gr := range []schema.GroupResource{{Resource: "configmaps"}, {Resource: "namespaces"}, {Resource: "secrets"}} {
		var objs []runtime.Object
		for i := range 7 {
			objs = append(objs, &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{UID: types.UID(fmt.Sprint(i)), Generation: int64(i)}})
		}
		per, ok := sameUse(gr)
		if !ok {
			t.Fatalf("%s: its objects do not all use the same", gr)
		}
		alike := tally{used: corev1.ResourceList{}, seen: map[types.UID]int64{}}
		c.countAlike(&alike, per, objs, mine)
		each := tally{used: corev1.ResourceList{}, leasedOut: corev1.ResourceList{}, seen: map[types.UID]int64{}}
		for _, obj := range objs {
			c.countObject(&each, gr, obj, mine)
		}
		if !apiequality.Semantic.DeepEqual(alike.used, each.used) || !apiequality.Semantic.DeepEqual(alike.seen, each.seen) {
			t.Errorf("%s: counted alike %v %v, one by one %v %v", gr, alike.used, alike.seen, each.used, each.seen)
		}
	}
	for _, gr := range []schema.GroupResource{{Group: "apps", Resource: "deployments"}, quotasResource} {
		if _, ok := sameUse(gr); ok {
			t.Errorf("%s: counted alike, but its objects use what their specs say", gr)
		}
	}
}
