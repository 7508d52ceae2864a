package resourcequota

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	upstream "k8s.io/apiserver/pkg/admission/plugin/resourcequota"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	quota "k8s.io/apiserver/pkg/quota/v1"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// Track has the creates of s carry their quota charges to the store
// (chargeInStore): each create opens its tab in the ledger for as long as
// it runs.
func (p *Plugin) Track(s *genericregistry.Store) {
	registry.AroundCreate(s, func(ctx context.Context) func(context.Context, bool) {
		closeTab := p.ledger.Open(ctx)
		return func(context.Context, bool) { closeTab() }
	})
}

// chargeInStore checks create a against the informer's copies of the
// quotas of its namespace, refusing it at once with kube's message when
// it does not fit them, and otherwise hands its charges to the store,
// which checks them again against the stored quotas and pays them in the
// create's own transaction. It is false when a is no plain create (a POST
// whose tab is open): upstream's Evaluator charges those.
func (p *Plugin) chargeInStore(ctx context.Context, cluster logicalcluster.Name, a admission.Attributes) (bool, error) {
	if a.GetOperation() != admission.Create || a.IsDryRun() || !isPost(ctx) {
		return false, nil
	}
	evaluator := p.registry.Get(a.GetResource().GroupResource())
	quotas, err := p.accessor.GetQuotas(namespaceKey(cluster, a.GetNamespace()))
	if err != nil {
		return true, err
	}
	charged, err := upstream.CheckRequest(quotas, a, evaluator, nil)
	if err != nil {
		return true, err
	}
	var charges []sqlstorage.Charge
	for i := range quotas {
		if quota.Equals(quotas[i].Status.Used, charged[i].Status.Used) {
			continue
		}
		key, err := p.quotaKey(ctx, quotas[i].Name)
		if err != nil {
			return true, err
		}
		c, err := p.quotaStore.Charge(key, pay(a, evaluator))
		if err != nil {
			return true, err
		}
		charges = append(charges, c)
	}
	return len(charges) == 0 || p.ledger.Add(ctx, charges...), nil
}

// isPost tells whether ctx is a create's own request, not an update or
// patch that creates: only a create's store writes with Create, which
// pays the charges.
func isPost(ctx context.Context) bool {
	info, ok := genericapirequest.RequestInfoFrom(ctx)
	return ok && info.Verb == "create"
}

// pay charges a to a stored quota: its usage is added to the quota's
// status.used, or, if it does not fit, the create is refused with kube's
// message. It is upstream's decision (CheckRequest), on the quota as
// stored when the create commits rather than as the informer last saw it.
func pay(a admission.Attributes, evaluator quota.Evaluator) func(runtime.Object) error {
	return func(obj runtime.Object) error {
		q, ok := obj.(*corev1.ResourceQuota)
		if !ok {
			return fmt.Errorf("charging a quota: the store holds a %T", obj)
		}
		charged, err := upstream.CheckRequest([]corev1.ResourceQuota{*q}, a, evaluator, nil)
		if err != nil {
			return err
		}
		q.Status.Used = charged[0].Status.Used
		return nil
	}
}
