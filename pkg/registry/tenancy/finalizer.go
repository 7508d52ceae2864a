package tenancy

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// DataStores are the stores of every resource kept per logical cluster,
// LogicalClusters' own and those of its custom resources among them, as
// clusterwide.Stores gives them.
type DataStores interface {
	In(ctx context.Context, cluster logicalcluster.Name) ([]*genericregistry.Store, error)
}

// dataGuard keeps a LogicalCluster's finalizer while its logical cluster
// holds objects.
//
// A logical cluster's name is its storage identity: its objects are kept
// under keys made of the name alone. So its LogicalCluster must outlive
// them, or a LogicalCluster created again under the same name would make
// a logical cluster that serves them, RBAC bindings and all. The
// finalizer is what keeps the object, and anyone who may update the
// object may try to remove it; this guard refuses them until the store
// itself holds nothing of the logical cluster, whoever asks. The hub's
// controller passes once it has deleted everything.
type dataGuard struct {
	// stores is set once the hub has built every store, before it
	// serves; nil refuses every removal.
	stores DataStores
}

// GuardData makes the removal of a LogicalCluster's finalizer wait for
// the objects of its logical cluster in data to be gone. Call it before
// the hub serves.
func (s *Storage) GuardData(data DataStores) { s.guard.stores = data }

// validateFinalizer refuses an update of old to lc, in logical cluster
// parent, that drops the hub's finalizer before the hub may: while the
// logical cluster is not being deleted, or still holds objects. Every
// way to write the object (update, any patch, apply, the status
// subresource) comes here, and the object is never removed while it
// keeps the finalizer.
func (g *dataGuard) validateFinalizer(ctx context.Context, parent logicalcluster.Name, lc, old *tenancyv1alpha1.LogicalCluster) field.ErrorList {
	const finalizer = tenancyv1alpha1.LogicalClusterFinalizer
	if !slices.Contains(old.Finalizers, finalizer) || slices.Contains(lc.Finalizers, finalizer) {
		return nil
	}
	path := field.NewPath("metadata", "finalizers")
	n, err := parent.Child(old.Name)
	if err != nil {
		return field.ErrorList{field.InternalError(path, err)}
	}
	if old.DeletionTimestamp == nil {
		return field.ErrorList{field.Forbidden(path, fmt.Sprintf(
			"logical cluster %s is not being deleted: the hub removes finalizer %s once the LogicalCluster is deleted and every object of %s is gone",
			n, finalizer, n))}
	}
	held, err := g.holding(ctx, n)
	if err != nil {
		return field.ErrorList{field.InternalError(path, fmt.Errorf("telling whether logical cluster %s still holds objects: %w", n, err))}
	}
	if len(held) > 0 {
		return field.ErrorList{field.Forbidden(path, fmt.Sprintf(
			"logical cluster %s still holds objects (%s); the hub removes finalizer %s once they are deleted, and the name can be used again then",
			n, strings.Join(held, ", "), finalizer))}
	}
	return nil
}

// holding is the resources of which logical cluster n holds at least one
// object, read from the database: a list without a resource version is
// consistent, answered by the database or by a watch cache that has
// caught up with it, so objects deleted are no longer there and
// objects created are.
func (g *dataGuard) holding(ctx context.Context, n logicalcluster.Name) ([]string, error) {
	if g.stores == nil {
		return nil, fmt.Errorf("the hub has not set up the check of its stores yet")
	}
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), n)
	stores, err := g.stores.In(ctx, n)
	if err != nil {
		return nil, err
	}
	var held []string
	for _, s := range stores {
		list, err := s.List(ctx, &metainternalversion.ListOptions{Limit: 1})
		if err != nil {
			return nil, err
		}
		if meta.LenList(list) > 0 {
			held = append(held, s.DefaultQualifiedResource.String())
		}
	}
	return held, nil
}
