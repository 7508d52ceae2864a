package resourcequota

import (
	"context"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	upstream "k8s.io/apiserver/pkg/admission/plugin/resourcequota"
	quota "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/apiserver/pkg/quota/v1/generic"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	hubquota "github.com/canopy-dev/canopy/pkg/quota"
	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// workers is how many namespaces' requests are checked at once:
// kube-apiserver's number (upstream's Register).
const workers = 5

// Config is what the plugin reads and writes.
type Config struct {
	// Quotas is the shared informer of ResourceQuotas.
	Quotas *informer.Informer
	// Counted are the resources quota counts: the hub's namespaced
	// built-in resources, as the quota controller counts them.
	Counted []schema.GroupResource
	// Status is the quotas' status storage, which their charges are
	// written to.
	Status rest.Updater
	// Stop ends the Evaluator's workers: the server's drained signal, as
	// kube-apiserver's.
	Stop <-chan struct{}
	// Ledger takes the charges of plain creates to the stores, which pay
	// them in the creates' own transactions (charge.go).
	Ledger *sqlstorage.Ledger
	// QuotaStore is the quotas' SQL store, through which they are paid,
	// and QuotaKey the storage key of a quota of the request's namespace.
	QuotaStore *sqlstorage.Store
	QuotaKey   func(ctx context.Context, name string) (string, error)
}

// Plugin enforces the ResourceQuotas of every logical cluster.
type Plugin struct {
	*admission.Handler
	quotas     *informer.Informer
	registry   quota.Registry
	accessor   *accessor
	evaluator  upstream.Evaluator
	ledger     *sqlstorage.Ledger
	quotaStore *sqlstorage.Store
	quotaKey   func(ctx context.Context, name string) (string, error)
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin of c.
func New(c Config) *Plugin {
	registry := hubquota.NewRegistry(c.Counted, nilList)
	accessor := newAccessor(c.Quotas, c.Status)
	return &Plugin{
		Handler:    admission.NewHandler(admission.Create, admission.Update),
		quotas:     c.Quotas,
		registry:   registry,
		accessor:   accessor,
		evaluator:  upstream.NewQuotaEvaluator(accessor, nil, registry, nil, nil, workers, c.Stop),
		ledger:     c.Ledger,
		quotaStore: c.QuotaStore,
		quotaKey:   c.QuotaKey,
	}
}

// nilList lists nothing: admission measures a request's object alone.
func nilList(schema.GroupResource) generic.ListFuncByNamespace { return nil }

// Validate checks a against the quotas of its namespace, as
// kube-apiserver's plugin does (upstream's QuotaAdmission.Validate), and
// charges it to them: a plain create in its own transaction
// (chargeInStore), anything else through upstream's Evaluator.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetNamespace() == "" || (a.GetOperation() == admission.Create && a.GetKind().GroupKind() == namespaceKind) {
		return nil
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok || p.registry.Get(a.GetResource().GroupResource()) == nil || hubquota.Upsynced(a.GetObject()) {
		return nil
	}
	if len(p.quotas.InNamespace(cluster, a.GetNamespace())) == 0 {
		return nil
	}
	if handled, err := p.chargeInStore(ctx, cluster, a); handled {
		return err
	}
	return p.evaluator.Evaluate(&keyed{Attributes: a, key: namespaceKey(cluster, a.GetNamespace())})
}

var namespaceKind = corev1.SchemeGroupVersion.WithKind("Namespace").GroupKind()

// keyed is a request as the Evaluator sees it: its namespace qualified
// by its logical cluster, by which the Evaluator queues, batches and
// looks up quotas.
type keyed struct {
	admission.Attributes
	key string
}

func (k *keyed) GetNamespace() string { return k.key }

// namespaceKey qualifies namespace ns by cluster. Neither a logical
// cluster's name nor a namespace's holds a slash.
func namespaceKey(cluster logicalcluster.Name, ns string) string { return string(cluster) + "/" + ns }

// parseKey is the logical cluster and namespace of key.
func parseKey(key string) (logicalcluster.Name, string) {
	cluster, ns, _ := strings.Cut(key, "/")
	return logicalcluster.Name(cluster), ns
}
