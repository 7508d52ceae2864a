package tenancy

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Served returns nil if logical cluster n is served, or a NotFound error
// saying which logical cluster on its path is missing and how to make it.
//
// Root always is. Any other logical cluster is served while it and each
// logical cluster above it have a LogicalCluster object in their parent
// that is not being deleted. Each object is read from the watch cache; a
// miss there is confirmed with a read from the database, so a logical
// cluster is served as soon as its LogicalCluster's create returns, once
// this hub's watch caches have caught up with that create. A
// LogicalCluster the cache holds as being deleted is confirmed the same
// way: on a hub whose watches run behind the database, it may be one
// already gone and made again under its name. Past ConfirmationRate
// confirmations a second, as under a flood of requests to names that do
// not exist, the cache's refusal stands unconfirmed: a refusal, never a
// wrong admission, until this hub's watch catches up.
func (s *Storage) Served(ctx context.Context, n logicalcluster.Name) error {
	_, err := s.served(ctx, n)
	return err
}

// served is the UID of the LogicalCluster that makes n, empty for root,
// if n is served.
func (s *Storage) served(ctx context.Context, n logicalcluster.Name) (types.UID, error) {
	segments := strings.Split(string(n), ":")
	at := logicalcluster.Root
	var uid types.UID
	for _, seg := range segments[1:] {
		parent := at
		at = logicalcluster.Name(string(at) + ":" + seg)
		lc, err := s.get(ctx, parent, seg)
		if apierrors.IsNotFound(err) {
			return "", notServed(n, fmt.Sprintf("logical cluster %q does not exist: create a LogicalCluster (%s) named %q in logical cluster %q to make it",
				at, tenancyv1alpha1.SchemeGroupVersion, seg, parent))
		}
		if err != nil {
			return "", err
		}
		if lc.DeletionTimestamp != nil {
			return "", notServed(n, fmt.Sprintf("logical cluster %q is being deleted", at))
		}
		uid = lc.UID
	}
	return uid, nil
}

func (s *Storage) get(ctx context.Context, parent logicalcluster.Name, name string) (*tenancyv1alpha1.LogicalCluster, error) {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), parent)
	obj, err := s.LogicalClusters.Get(ctx, name, &metav1.GetOptions{ResourceVersion: "0"})
	// Only refusals are confirmed, at one read of the database each, and
	// at most ConfirmationRate a second (confirmations): a served logical
	// cluster is answered from the cache alone.
	if (apierrors.IsNotFound(err) || (err == nil && obj.(*tenancyv1alpha1.LogicalCluster).DeletionTimestamp != nil)) && s.confirmations.Allow() {
		obj, err = s.caughtUp(ctx, name)
	}
	if err != nil {
		return nil, err
	}
	return obj.(*tenancyv1alpha1.LogicalCluster), nil
}

// caughtUp reads LogicalCluster name from the database and, when it is
// there, waits until this hub's watch cache has seen it too.
//
// The name may be that of a logical cluster deleted a moment ago, which
// the cache may still hold as being deleted or no longer hold at all: its
// LogicalCluster went only once its objects had been deleted (dataGuard),
// but a hub whose watches run behind the database (another replica's
// writes reach it within the store's poll interval) may still hold them
// in its watch caches, which serve RBAC and reads at resource version 0.
// Every cache here is fed by one poller in revision order, so once the
// cache of LogicalClusters has reached the new LogicalCluster's revision,
// the poller has passed every delete before it.
func (s *Storage) caughtUp(ctx context.Context, name string) (runtime.Object, error) {
	obj, err := s.LogicalClusters.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	rv := obj.(*tenancyv1alpha1.LogicalCluster).ResourceVersion
	return s.LogicalClusters.Get(ctx, name, &metav1.GetOptions{ResourceVersion: rv})
}

func notServed(n logicalcluster.Name, message string) error {
	return &apierrors.StatusError{ErrStatus: metav1.Status{
		Status: metav1.StatusFailure,
		Code:   http.StatusNotFound,
		Reason: metav1.StatusReasonNotFound,
		Details: &metav1.StatusDetails{
			Group: tenancyv1alpha1.GroupName,
			Kind:  "logicalclusters",
			Name:  string(n),
		},
		Message: message,
	}}
}

// A replica confirms at most ConfirmationRate refusals a second with the
// database, after a burst of ConfirmationBurst: a cache miss is almost
// always a name that does not exist, and a flood of them, from one client
// or many, must not become a flood of reads. A legitimate confirmation,
// of a logical cluster just made through another replica, is needed only
// for the poll interval it takes this replica's watch to see it, so the
// budget is far above what clients making logical clusters use.
const (
	ConfirmationRate  = 20
	ConfirmationBurst = 20
)
