package clusterquota

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/lru"

	"golang.org/x/sync/singleflight"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// liveTTL is how long a read of a lease from the database stands in for
// the informer, which did not hold it: kube-apiserver's ResourceQuota
// admission remembers its live lookups as long. It bounds how often a
// logical cluster under no lease asks the database (once per level of
// the tree every liveTTL, however many creates it takes), not how long
// a new lease may go unseen, since the informer is asked first on every
// create and holds a new lease within its watch's delay.
const liveTTL = 30 * time.Second

// liveEntries bounds the lookups remembered: one per lease name and
// parent looked up within liveTTL, of a few hundred bytes each.
const liveEntries = 4096

// liveLookup is what the database answered for one lease, and until when
// that answer stands.
type liveLookup struct {
	quota   *tenancyv1alpha1.ClusterQuota // nil: there was none
	expires time.Time
}

// lookups are the live reads of leases the informer did not hold,
// remembered for liveTTL, and shared by the creates that ask at once.
type lookups struct {
	cache *lru.Cache
	group singleflight.Group
}

func newLookups() *lookups {
	return &lookups{cache: lru.New(liveEntries)}
}

// get is ClusterQuota name of parent, or nil, as the database answered
// within liveTTL; it asks, once for all the callers asking at once, when
// it has no answer that recent or fresh is set.
func (l *lookups) get(ctx context.Context, p *Plugin, parent logicalcluster.Name, name string, fresh bool) (*tenancyv1alpha1.ClusterQuota, error) {
	key := string(parent) + "/" + name
	if !fresh {
		if e, ok := l.cache.Get(key); ok && time.Now().Before(e.(liveLookup).expires) {
			return e.(liveLookup).quota, nil
		}
	}
	// The read is shared, so it must not end with the first caller's
	// request: it runs on its own context, bounded as a request is.
	// A fresh read is asked for after a lease was deleted, so it does not
	// join a read that may have begun before.
	flight := key
	if fresh {
		flight += "/fresh"
	}
	e, err, _ := l.group.Do(flight, func() (any, error) {
		readCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		e := liveLookup{expires: time.Now().Add(liveTTL)}
		obj, err := p.quotas.Get(logicalcluster.WithCluster(readCtx, parent), name, &metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return nil, err
		default:
			e.quota = obj.(*tenancyv1alpha1.ClusterQuota)
		}
		l.cache.Add(key, e)
		return e, nil
	})
	if err != nil {
		return nil, err
	}
	return e.(liveLookup).quota, nil
}
