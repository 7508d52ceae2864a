package fairness

import (
	"context"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericapifilters "k8s.io/apiserver/pkg/endpoints/filters"
	utilflowcontrol "k8s.io/apiserver/pkg/util/flowcontrol"
	fq "k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing"
	fcrequest "k8s.io/apiserver/pkg/util/flowcontrol/request"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// New is upstream's priority and fairness controller over the hub's
// configuration, sharing serverConcurrencyLimit seats among its priority
// levels, with each request's flow told by its logical cluster, and each
// logical cluster holding at most sharePercent of the workload level's
// seats (share.go; 100 or more means no cap). A tenant's request that
// authz refuses is counted as its user's, not its logical cluster's
// (byCluster.Handle). Its Run, which the generic
// API server calls once it serves, starts the informers that feed it too.
func New(serverConcurrencyLimit, sharePercent int, authz authorizer.Authorizer) utilflowcontrol.Interface {
	c := byCluster{share: newShare(serverConcurrencyLimit, sharePercent), authz: authz}
	var objects []runtime.Object
	for _, pl := range priorityLevels() {
		pl = pl.DeepCopy()
		pl.UID = UID(pl.Name)
		objects = append(objects, pl)
		if pl.Name == LevelWorkload {
			c.level = pl
		}
	}
	for _, fs := range flowSchemas() {
		fs = fs.DeepCopy()
		fs.UID = UID(fs.Name)
		objects = append(objects, fs)
		if fs.Name == LevelWorkload {
			c.schema = fs
		}
	}
	client := fake.NewClientset(objects...)
	c.informers = kubeinformers.NewSharedInformerFactory(client, 0)
	c.Interface = utilflowcontrol.New(c.informers, client.FlowcontrolV1(), serverConcurrencyLimit)
	return c
}

// byCluster is upstream's controller, classifying a request of a logical
// cluster as if its namespace were its logical cluster: so a FlowSchema
// distinguishing ByNamespace gives each logical cluster a flow of its own.
// A tenant's request first waits for its logical cluster's share, if
// there is a cap.
type byCluster struct {
	utilflowcontrol.Interface
	informers kubeinformers.SharedInformerFactory
	share     *share
	authz     authorizer.Authorizer
	// The workload level and its FlowSchema, which a request the share
	// refuses is answered as classified in.
	schema *flowcontrolv1.FlowSchema
	level  *flowcontrolv1.PriorityLevelConfiguration
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
	cluster, inCluster := logicalcluster.ClusterFrom(ctx)
	flow := string(cluster)
	if tenant, capped := applies(ctx, digest); capped {
		switch {
		case !c.allowed(ctx):
			// Flow control comes before authorization. Counted in the
			// logical cluster its path names, a request its user may not
			// make would let anyone queue in a logical cluster's flow, and
			// hold its share, by naming it, until authorization refused
			// the requests once dispatched. It is its user's instead, in
			// a flow no logical cluster's name can be ("/" is in none),
			// and under no share: refused at once, it holds a seat only
			// that long.
			flow = "user/" + digest.User.GetName()
		case c.share != nil:
			release, err := c.share.acquire(ctx, tenant)
			if err != nil {
				c.refuse(ctx, tenant, err, noteFn, execFn)
				return
			}
			defer release()
		}
	}
	if inCluster && digest.RequestInfo != nil {
		info := *digest.RequestInfo
		info.Namespace = flow
		digest.RequestInfo = &info
	}
	c.Interface.Handle(ctx, digest, noteFn, workEstimator, queueNoteFn, execFn)
}

// allowed tells whether the request of ctx is one its user may make, as
// the authorization filter behind flow control will decide. With no
// authorizer, every request is.
func (c byCluster) allowed(ctx context.Context) bool {
	if c.authz == nil {
		return true
	}
	attrs, err := genericapifilters.GetAuthorizerAttributes(ctx)
	if err != nil {
		return false
	}
	decision, _, err := c.authz.Authorize(ctx, attrs)
	return err == nil && decision == authorizer.DecisionAllow
}

// refuse answers a request the share refused, with a Status saying why,
// through the handler behind AnswerRefused. Without WithRefusals in front,
// it is not executed, which upstream's filter answers with a bare 429.
func (c byCluster) refuse(ctx context.Context, cluster logicalcluster.Name, err error,
	noteFn func(fs *flowcontrolv1.FlowSchema, pl *flowcontrolv1.PriorityLevelConfiguration, flowDistinguisher string), execFn func(),
) {
	r, ok := ctx.Value(refusalKey{}).(*refusal)
	if !ok {
		return
	}
	r.err = err
	noteFn(c.schema, c.level, string(cluster))
	execFn()
}
