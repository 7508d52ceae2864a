package resourcequota

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	upstream "k8s.io/apiserver/pkg/admission/plugin/resourcequota"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/utils/lru"

	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

const (
	// written bounds the look-aside cache of quotas written: upstream's
	// size is 100 for one cluster; the hub's is shared by all of them.
	written = 1024
	// writeTimeout bounds one status write, within upstream's ten
	// seconds for a whole evaluation.
	writeTimeout = 5 * time.Second
)

// accessor reads the quotas of a namespace, keyed by namespaceKey, from
// the shared informer and writes their status to the quotas' status
// storage, as upstream's quotaAccessor does from one cluster's lister
// through its loopback client. The hub's storage is the same database
// write, with the same resourceVersion precondition, without the loopback
// request's encoding, TLS and handler chain, which would cost each charge
// about what the create it admits costs (bench/quota); the placement
// controller writes its status so too.
type accessor struct {
	quotas *informer.Informer
	status rest.Updater
	// updated are the quotas last written, by cluster-qualified
	// namespace and name: when the informer has not seen a write yet,
	// the next evaluation starts from what was written rather than
	// conflict with it. Resource versions compare as integers
	// (storage.APIObjectVersioner), as upstream compares etcd's.
	updated *lru.Cache
}

var _ upstream.QuotaAccessor = &accessor{}

func newAccessor(quotas *informer.Informer, status rest.Updater) *accessor {
	return &accessor{quotas: quotas, status: status, updated: lru.New(written)}
}

// GetQuotas is the quotas of the namespace key names, each a copy whose
// namespace is key, so that the Evaluator's retry, which looks quotas up
// again by the namespace of one, finds the same. The copies have no
// managed fields: the Evaluator copies each quota again per request it
// checks, and UpdateQuotaStatus writes the stored quota's managed fields
// whatever it is given (storedManagedFields).
func (a *accessor) GetQuotas(key string) ([]corev1.ResourceQuota, error) {
	cluster, ns := parseKey(key)
	objs := a.quotas.InNamespace(cluster, ns)
	quotas := make([]corev1.ResourceQuota, 0, len(objs))
	for _, obj := range objs {
		q, ok := obj.(*corev1.ResourceQuota)
		if !ok {
			continue
		}
		shallow := *a.newest(key, q)
		shallow.ManagedFields = nil
		c := *shallow.DeepCopy()
		c.Namespace = key
		quotas = append(quotas, c)
	}
	return quotas, nil
}

var versioner = storage.APIObjectVersioner{}

// newest is q or what was last written of it, whichever is newer.
func (a *accessor) newest(key string, q *corev1.ResourceQuota) *corev1.ResourceQuota {
	cacheKey := key + "/" + q.Name
	cached, ok := a.updated.Get(cacheKey)
	if !ok {
		return q
	}
	w := cached.(*corev1.ResourceQuota)
	if versioner.CompareResourceVersion(q, w) >= 0 {
		a.updated.Remove(cacheKey)
		return q
	}
	return w
}

// UpdateQuotaStatus writes q's status, conflicting with any write of q
// since it was read.
func (a *accessor) UpdateQuotaStatus(q *corev1.ResourceQuota) error {
	key := q.Namespace
	cluster, ns := parseKey(key)
	out := q.DeepCopy()
	out.Namespace = ns
	ctx, cancel := context.WithTimeout(logicalcluster.WithCluster(genericapirequest.WithNamespace(context.Background(), ns), cluster), writeTimeout)
	defer cancel()
	written, _, err := a.status.Update(ctx, q.Name, rest.DefaultUpdatedObjectInfo(out, storedManagedFields),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	updated, ok := written.(*corev1.ResourceQuota)
	if !ok {
		return fmt.Errorf("writing the status of ResourceQuota %s/%s gave a %T", ns, q.Name, written)
	}
	a.updated.Add(key+"/"+q.Name, updated)
	return nil
}

// storedManagedFields gives the status write obj the managed fields of
// old, the quota as stored. The write goes to the storage directly, past
// the handler's field manager, which would have kept them, and GetQuotas's
// copies have none: written without them, the quota would lose every
// manager's fields, and the field manager records no manager of a later
// update of an object that has none, so a client's update would show as
// no one's. The write applies only at the resourceVersion the copy was
// made of, so these are that version's managed fields.
func storedManagedFields(_ context.Context, obj, old runtime.Object) (runtime.Object, error) {
	o, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	stored, err := meta.Accessor(old)
	if err != nil {
		return nil, err
	}
	o.SetManagedFields(stored.GetManagedFields())
	return obj, nil
}
