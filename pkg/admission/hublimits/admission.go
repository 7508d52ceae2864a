package hublimits

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Limits are the platform admin's bounds; a zero one is not enforced.
type Limits struct {
	// LogicalClustersPerParent is how many LogicalClusters one logical
	// cluster may hold.
	LogicalClustersPerParent int
	// ObjectBytes is the largest a built-in object may be, encoded as
	// JSON.
	ObjectBytes int
}

// DefaultLimits are the hub's defaults: a thousand children, and
// etcd's largest request, which bounds kube-apiserver's objects.
var DefaultLimits = Limits{LogicalClustersPerParent: 1000, ObjectBytes: 3 * 1024 * 1024 / 2}

// Children counts the LogicalClusters stored in a logical cluster.
type Children func(parent logicalcluster.Name) int

// Plugin enforces Limits.
type Plugin struct {
	*admission.Handler
	limits   Limits
	children Children
}

var _ admission.ValidationInterface = &Plugin{}

// New is the plugin enforcing limits, counting LogicalClusters with
// children.
func New(limits Limits, children Children) *Plugin {
	return &Plugin{Handler: admission.NewHandler(admission.Create, admission.Update), limits: limits, children: children}
}

// Validate refuses a LogicalCluster past its parent's limit, 403, and a
// built-in object past the size limit, 413, each naming its flag.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if u := a.GetUserInfo(); u != nil && slices.Contains(u.GetGroups(), user.SystemPrivilegedGroup) {
		return nil
	}
	if a.GetOperation() == admission.Create && a.GetSubresource() == "" && a.GetResource().GroupResource() == tenancyv1alpha1.Resource("logicalclusters") {
		if err := p.validateChildren(ctx, a); err != nil {
			return err
		}
	}
	return p.validateSize(a)
}

func (p *Plugin) validateChildren(ctx context.Context, a admission.Attributes) error {
	parent, ok := logicalcluster.ClusterFrom(ctx)
	if !ok || p.limits.LogicalClustersPerParent <= 0 {
		return nil
	}
	if n := p.children(parent); n >= p.limits.LogicalClustersPerParent {
		return admission.NewForbidden(a, fmt.Errorf("logical cluster %s already holds %d LogicalClusters, the most one may (the hub's --max-logical-clusters-per-parent): delete one, or ask the platform admin",
			parent, n))
	}
	return nil
}

func (p *Plugin) validateSize(a admission.Attributes) error {
	obj := a.GetObject()
	if p.limits.ObjectBytes <= 0 || obj == nil {
		return nil
	}
	// Custom resources are bounded by --custom-resource-max-bytes.
	if _, custom := obj.(*unstructured.Unstructured); custom {
		return nil
	}
	size, err := encodedSize(obj)
	if err != nil || size <= p.limits.ObjectBytes {
		return err
	}
	if old := a.GetOldObject(); old != nil {
		if before, err := encodedSize(old); err == nil && size <= before {
			return nil
		}
	}
	gr := a.GetResource().GroupResource()
	return apierrors.NewRequestEntityTooLargeError(fmt.Sprintf("%s %q is %d bytes encoded as JSON, more than the %d bytes an object may be (the hub's --max-object-bytes)",
		gr, a.GetName(), size, p.limits.ObjectBytes))
}

// encodedSize is how many bytes obj is encoded as JSON.
func encodedSize(obj runtime.Object) (int, error) {
	var c counter
	err := json.NewEncoder(&c).Encode(obj)
	return int(c) - 1, err // the encoder's newline
}

// counter counts what is written to it, keeping none of it.
type counter int

func (c *counter) Write(b []byte) (int, error) {
	*c += counter(len(b))
	return len(b), nil
}
