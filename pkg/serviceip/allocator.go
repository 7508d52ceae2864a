package serviceip

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/netip"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// maxProbes is how many addresses an allocation tries, at most, before it
// gives up.
const maxProbes = 256

// managedBy is the IPAddress label kube's allocator sets, naming who
// manages the claim.
const managedBy = "ipaddress.kubernetes.io/managed-by"

// Allocator claims cluster IPs of Range for Services, as IPAddresses in
// Claims.
type Allocator struct {
	Claims *genericregistry.Store
	Range  netip.Prefix
}

// Install makes services, the Services' store, do what kube-apiserver's
// service storage does before its strategy runs, and allocate and
// release cluster IPs with a: on create, clusterIPs kept in step with
// clusterIP, the IP family fields set (their errors answered alone), and
// a cluster IP given or claimed, and a health check node port where one
// is needed (giveHealthCheckNodePort); on update, what was allocated kept
// over an update that leaves it out, then the same.
func (a *Allocator) Install(services *genericregistry.Store) {
	beginCreate, beginUpdate, afterDelete := services.BeginCreate, services.BeginUpdate, services.AfterDelete
	services.BeginCreate = func(ctx context.Context, obj runtime.Object, options *metav1.CreateOptions) (genericregistry.FinishFunc, error) {
		svc := obj.(*corev1.Service)
		normalizeClusterIPs(svc, nil)
		if err := a.initIPFamilyFields(svc, nil); err != nil {
			return nil, err
		}
		release, err := a.allocate(ctx, svc, len(options.DryRun) > 0)
		if err != nil {
			return nil, err
		}
		giveHealthCheckNodePort(svc)
		return chain(ctx, release, func() (genericregistry.FinishFunc, error) { return beginCreate(ctx, obj, options) })
	}
	services.BeginUpdate = func(ctx context.Context, obj, old runtime.Object, options *metav1.UpdateOptions) (genericregistry.FinishFunc, error) {
		svc, was := obj.(*corev1.Service), old.(*corev1.Service).DeepCopy()
		a.defaultOnReadIPFamilies(was)
		patchAllocatedValues(svc, was)
		normalizeClusterIPs(svc, was)
		if err := a.initIPFamilyFields(svc, was); err != nil {
			return nil, err
		}
		finish, err := a.update(ctx, svc, was, len(options.DryRun) > 0)
		if err != nil {
			return nil, err
		}
		giveHealthCheckNodePort(svc)
		return chain(ctx, finish, func() (genericregistry.FinishFunc, error) { return beginUpdate(ctx, obj, old, options) })
	}
	services.AfterDelete = func(obj runtime.Object, options *metav1.DeleteOptions) {
		if afterDelete != nil {
			afterDelete(obj, options)
		}
		if len(options.DryRun) > 0 {
			return
		}
		svc := obj.(*corev1.Service)
		cluster, err := logicalcluster.FromObject(svc)
		if err != nil {
			klog.ErrorS(err, "A deleted Service has no logical cluster", "namespace", svc.Namespace, "name", svc.Name)
			return
		}
		a.release(logicalcluster.WithCluster(context.Background(), cluster), svc)
	}
}

// update allocates or releases what an update of old to svc changes, as
// kube-apiserver does (k8s.io/kubernetes@v1.37.1
// pkg/registry/core/service/storage/alloc.go, updateClusterIPs): a
// Service that was ExternalName gets a cluster IP, one that becomes
// ExternalName gives its up once the update is stored; the hub's one
// family has no secondary IP to add or drop.
func (a *Allocator) update(ctx context.Context, svc, old *corev1.Service, dryRun bool) (genericregistry.FinishFunc, error) {
	nothing := func(context.Context, bool) {}
	switch {
	case isMatchingPreferDualStackClusterIPFields(svc, old):
		return nothing, nil
	case old.Spec.Type == corev1.ServiceTypeExternalName && svc.Spec.Type != corev1.ServiceTypeExternalName:
		return a.allocate(ctx, svc, dryRun)
	case svc.Spec.Type == corev1.ServiceTypeExternalName && old.Spec.Type != corev1.ServiceTypeExternalName && !dryRun:
		return func(ctx context.Context, ok bool) {
			if ok {
				a.release(ctx, old)
			}
		}, nil
	}
	return nothing, nil
}

// chain runs next after finish's allocation, and finishes both.
func chain(ctx context.Context, finish genericregistry.FinishFunc, next func() (genericregistry.FinishFunc, error)) (genericregistry.FinishFunc, error) {
	then, err := next()
	if err != nil {
		finish(ctx, false)
		return nil, err
	}
	return func(ctx context.Context, ok bool) {
		then(ctx, ok)
		finish(ctx, ok)
	}, nil
}

// hasIP tells whether svc has a cluster IP, not None.
func hasIP(svc *corev1.Service) bool {
	return svc.Spec.ClusterIP != "" && svc.Spec.ClusterIP != corev1.ClusterIPNone
}

// allocate gives svc, whose IP family fields are set, a cluster IP, or
// claims the one it has, and returns what releases the claim should the
// write fail. A dry run claims nothing: it checks an IP given as a write
// would, but whether another Service holds it, and answers one it does
// not allocate, the first address of the range, as kube-apiserver's dry
// run does (k8s.io/kubernetes@v1.37.1
// pkg/registry/core/service/ipallocator/ipallocator.go,
// allocateNextService), rather than look for a free one.
func (a *Allocator) allocate(ctx context.Context, svc *corev1.Service, dryRun bool) (genericregistry.FinishFunc, error) {
	nothing := func(context.Context, bool) {}
	if svc.Spec.Type == corev1.ServiceTypeExternalName || len(svc.Spec.ClusterIPs) > 0 && svc.Spec.ClusterIPs[0] == corev1.ClusterIPNone {
		return nothing, nil
	}
	if hasIP(svc) {
		ip, err := netip.ParseAddr(svc.Spec.ClusterIP)
		if err != nil || !a.Range.Contains(ip) || dryRun {
			// Validation refused what is no IP; an IP outside the range
			// is the user's to keep.
			return nothing, nil
		}
		if err := a.claim(ctx, svc, ip); apierrors.IsAlreadyExists(err) {
			return nil, invalid(svc, field.ErrorList{field.Invalid(field.NewPath("spec", "clusterIPs"), svc.Spec.ClusterIPs,
				fmt.Sprintf("failed to allocate IP %s: provided IP is already allocated", ip))})
		} else if err != nil {
			return nil, err
		}
		return a.releaseOnFailure(svc), nil
	}
	if dryRun {
		a.give(svc, a.Range.Masked().Addr())
		return nothing, nil
	}
	size := Size(a.Range)
	if size == 0 {
		return nil, apierrors.NewInternalError(fmt.Errorf("the service cluster IP range %s has no address to allocate; give the hub a larger --service-cluster-ip-range", a.Range))
	}
	// Addresses are tried in order from a random one, so that a small
	// range is tried whole and is full only when it is.
	start, probes := rand.Uint64N(size), min(size, maxProbes)
	for i := range probes {
		ip := Nth(a.Range, (start+i)%size)
		err := a.claim(ctx, svc, ip)
		if apierrors.IsAlreadyExists(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		a.give(svc, ip)
		return a.releaseOnFailure(svc), nil
	}
	if probes == size {
		return nil, apierrors.NewInternalError(fmt.Errorf("failed to allocate a serviceIP: range is full: every address of %s is allocated; delete Services or give the hub a larger --service-cluster-ip-range", a.Range))
	}
	return nil, apierrors.NewInternalError(fmt.Errorf("failed to allocate a serviceIP: %d addresses of %s in a row were allocated; the range is nearly full: delete Services or give the hub a larger --service-cluster-ip-range", probes, a.Range))
}

// give makes ip svc's cluster IP, the first of its clusterIPs.
func (a *Allocator) give(svc *corev1.Service, ip netip.Addr) {
	svc.Spec.ClusterIP = ip.String()
	if len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{ip.String()}
	} else {
		svc.Spec.ClusterIPs[0] = ip.String()
	}
}

func (a *Allocator) releaseOnFailure(svc *corev1.Service) genericregistry.FinishFunc {
	return func(ctx context.Context, ok bool) {
		if !ok {
			a.release(ctx, svc)
		}
	}
}

// claim creates the IPAddress of ip for svc; AlreadyExists says another
// holds it.
func (a *Allocator) claim(ctx context.Context, svc *corev1.Service, ip netip.Addr) error {
	claim := &networkingv1.IPAddress{
		ObjectMeta: metav1.ObjectMeta{Name: ip.String(), Labels: map[string]string{managedBy: "canopy-hub"}},
		Spec: networkingv1.IPAddressSpec{ParentRef: &networkingv1.ParentReference{
			Group: "", Resource: "services", Namespace: svc.Namespace, Name: svc.Name,
		}},
	}
	_, err := a.Claims.Create(genericapirequest.WithNamespace(ctx, ""), claim, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	return err
}

// release deletes the claim of svc's cluster IP, if svc holds it.
func (a *Allocator) release(ctx context.Context, svc *corev1.Service) {
	if !hasIP(svc) {
		return
	}
	ctx = genericapirequest.WithNamespace(ctx, "")
	obj, err := a.Claims.Get(ctx, svc.Spec.ClusterIP, &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return
	}
	if err == nil {
		ref := obj.(*networkingv1.IPAddress).Spec.ParentRef
		if ref == nil || ref.Resource != "services" || ref.Namespace != svc.Namespace || ref.Name != svc.Name {
			return
		}
		_, _, err = a.Claims.Delete(ctx, svc.Spec.ClusterIP, rest.ValidateAllObjectFunc,
			&metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions(string(obj.(*networkingv1.IPAddress).UID))})
	}
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		klog.ErrorS(err, "Releasing a Service's cluster IP", "namespace", svc.Namespace, "name", svc.Name, "ip", svc.Spec.ClusterIP)
	}
}
