package fairness

import (
	"context"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilflowcontrol "k8s.io/apiserver/pkg/util/flowcontrol"
	fq "k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing"
	fcrequest "k8s.io/apiserver/pkg/util/flowcontrol/request"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// New is upstream's priority and fairness controller over the hub's
// configuration, sharing serverConcurrencyLimit seats among its priority
// levels, with each request's flow told by its logical cluster. Its Run,
// which the generic API server calls once it serves, starts the informers
// that feed it too.
func New(serverConcurrencyLimit int) utilflowcontrol.Interface {
	var objects []runtime.Object
	for _, pl := range priorityLevels() {
		pl = pl.DeepCopy()
		pl.UID = UID(pl.Name)
		objects = append(objects, pl)
	}
	for _, fs := range flowSchemas() {
		fs = fs.DeepCopy()
		fs.UID = UID(fs.Name)
		objects = append(objects, fs)
	}
	client := fake.NewClientset(objects...)
	informers := kubeinformers.NewSharedInformerFactory(client, 0)
	return byCluster{utilflowcontrol.New(informers, client.FlowcontrolV1(), serverConcurrencyLimit), informers}
}

// byCluster is upstream's controller, classifying a request of a logical
// cluster as if its namespace were its logical cluster: so a FlowSchema
// distinguishing ByNamespace gives each logical cluster a flow of its own.
type byCluster struct {
	utilflowcontrol.Interface
	informers kubeinformers.SharedInformerFactory
}

// Run starts the informers of the configuration, then the controller,
// which waits for them to sync.
func (c byCluster) Run(stopCh <-chan struct{}) error {
	c.informers.Start(stopCh)
	return c.Interface.Run(stopCh)
}

func (c byCluster) Handle(ctx context.Context, digest utilflowcontrol.RequestDigest,
	noteFn func(fs *flowcontrolv1.FlowSchema, pl *flowcontrolv1.PriorityLevelConfiguration, flowDistinguisher string),
	workEstimator func() fcrequest.WorkEstimate, queueNoteFn fq.QueueNoteFn, execFn func(),
) {
	if cluster, ok := logicalcluster.ClusterFrom(ctx); ok && digest.RequestInfo != nil {
		info := *digest.RequestInfo
		info.Namespace = string(cluster)
		digest.RequestInfo = &info
	}
	c.Interface.Handle(ctx, digest, noteFn, workEstimator, queueNoteFn, execFn)
}
