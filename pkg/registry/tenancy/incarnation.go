package tenancy

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/types"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// incarnationKey is the context key of the UID of the LogicalCluster that
// made the logical cluster of a request when the request came in.
type incarnationKey struct{}

// Enter returns nil and ctx, remembering which LogicalCluster makes n now,
// if logical cluster n is served; or the error Served returns.
//
// A logical cluster's name is its storage identity, and a request is
// authorized, against the RBAC of the logical cluster of that name,
// before its body is read. A client that sends the body slowly could
// have it written after that logical cluster was deleted and another made
// under its name, with the rights it had in the old one; StillServed
// refuses such a write.
func (s *Storage) Enter(ctx context.Context, n logicalcluster.Name) (context.Context, error) {
	uid, err := s.served(ctx, n)
	if err != nil {
		return ctx, err
	}
	return context.WithValue(ctx, incarnationKey{}, uid), nil
}

// StillServed returns nil if the logical cluster of ctx is served and is
// the one that was when the request entered (Enter), and otherwise an
// error saying that it was deleted meanwhile. A request that did not come
// through Enter, as the hub's own, passes.
func (s *Storage) StillServed(ctx context.Context) error {
	entered, ok := ctx.Value(incarnationKey{}).(types.UID)
	n, inCluster := logicalcluster.ClusterFrom(ctx)
	if !ok || !inCluster || entered == "" {
		return nil
	}
	uid, err := s.served(ctx, n)
	if err != nil {
		return err
	}
	if uid != entered {
		return fmt.Errorf("logical cluster %s was deleted, and made again, while this request was being received: "+
			"it was authorized in the deleted one, so send it again", n)
	}
	return nil
}
