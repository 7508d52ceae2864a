package resourcequota

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	upstream "k8s.io/apiserver/pkg/admission/plugin/resourcequota"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/utils/lru"

	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
)

const (
	// written bounds the look-aside cache of quotas written: upstream's
	// size is 100 for one cluster; the hub's is shared by all of them.
	written = 1024
	// writeTimeout bounds one status write, within upstream's ten
	// seconds for a whole evaluation.
	writeTimeout = 5 * time.Second
)

var quotasResource = corev1.SchemeGroupVersion.WithResource("resourcequotas")

// accessor reads the quotas of a namespace, keyed by namespaceKey, from
// the shared informer and writes their status through the hub's API, as
// upstream's quotaAccessor does from one cluster's lister through its
// client.
type accessor struct {
	quotas *informer.Informer
	client *loopback.Client
	// updated are the quotas last written, by cluster-qualified
	// namespace and name: when the informer has not seen a write yet,
	// the next evaluation starts from what was written rather than
	// conflict with it. Resource versions compare as integers
	// (storage.APIObjectVersioner), as upstream compares etcd's.
	updated *lru.Cache
}

var _ upstream.QuotaAccessor = &accessor{}

func newAccessor(quotas *informer.Informer, client *loopback.Client) *accessor {
	return &accessor{quotas: quotas, client: client, updated: lru.New(written)}
}

// GetQuotas is the quotas of the namespace key names, each a copy whose
// namespace is key, so that the Evaluator's retry, which looks quotas up
// again by the namespace of one, finds the same.
func (a *accessor) GetQuotas(key string) ([]corev1.ResourceQuota, error) {
	cluster, ns := parseKey(key)
	objs := a.quotas.InNamespace(cluster, ns)
	quotas := make([]corev1.ResourceQuota, 0, len(objs))
	for _, obj := range objs {
		q, ok := obj.(*corev1.ResourceQuota)
		if !ok {
			continue
		}
		q = a.newest(key, q)
		c := *q.DeepCopy()
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
	out.TypeMeta = metav1.TypeMeta{APIVersion: corev1.SchemeGroupVersion.String(), Kind: "ResourceQuota"}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(out)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(logicalcluster.WithCluster(context.Background(), cluster), writeTimeout)
	defer cancel()
	written, err := a.client.Resource(quotasResource).Namespace(ns).Update(ctx, &unstructured.Unstructured{Object: u},
		metav1.UpdateOptions{FieldManager: a.client.FieldManager}, "status")
	if err != nil {
		return err
	}
	updated := &corev1.ResourceQuota{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(written.Object, updated); err != nil {
		return fmt.Errorf("reading the ResourceQuota %s/%s written: %w", ns, q.Name, err)
	}
	a.updated.Add(key+"/"+q.Name, updated)
	return nil
}
