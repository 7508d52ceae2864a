package clusterwide

import (
	"context"

	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Stores are the stores of every resource kept per logical cluster: the
// hub's own, the same in each, and those of the custom resources each
// logical cluster defines, which come and go with its definitions.
type Stores struct {
	Fixed  []*genericregistry.Store
	Custom CustomStores
}

// CustomStores are the stores of custom resources.
type CustomStores interface {
	// In is a store for each resource that cluster defines, at its
	// definition's storage version and scope.
	In(ctx context.Context, cluster logicalcluster.Name) ([]*genericregistry.Store, error)
}

// In is the stores of the resources of cluster: the fixed ones, then
// those of its custom resources.
func (s Stores) In(ctx context.Context, cluster logicalcluster.Name) ([]*genericregistry.Store, error) {
	custom, err := s.CustomIn(ctx, cluster)
	if err != nil {
		return nil, err
	}
	return append(append([]*genericregistry.Store(nil), s.Fixed...), custom...), nil
}

// CustomIn is the stores of the custom resources of cluster.
func (s Stores) CustomIn(ctx context.Context, cluster logicalcluster.Name) ([]*genericregistry.Store, error) {
	if s.Custom == nil {
		return nil, nil
	}
	return s.Custom.In(ctx, cluster)
}
