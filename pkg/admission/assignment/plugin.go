package assignment

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"

	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
)

// Plugin refuses assignments to SyncTargets that the requester may not
// make.
type Plugin struct {
	*admission.Handler
	decider
	index *index
}

var _ admission.ValidationInterface = &Plugin{}

// New returns the plugin, which asks authz whether a requester may use a
// SyncTarget and reads the SyncTargets and PlacementConstraints of every
// logical cluster from their shared informers. It refuses every
// assignment, after readyWait, until the informers have listed them.
func New(authz authorizer.UnconditionalAuthorizer, targets, constraints *genericregistry.Store, informers *informer.Factory) (*Plugin, error) {
	x := newIndex()
	if err := x.watch(informers.For(targets), informers.For(constraints)); err != nil {
		return nil, err
	}
	return newPlugin(authz, x), nil
}

// newPlugin returns the plugin over index x.
func newPlugin(authz authorizer.UnconditionalAuthorizer, x *index) *Plugin {
	return &Plugin{
		Handler: admission.NewHandler(admission.Create, admission.Update),
		decider: decider{world: x, authz: authz, now: time.Now},
		index:   x,
	}
}

// Validate refuses a create or update, of any resource and subresource,
// that adds to or changes placement's record of what each target
// receives (recordPrefixes) or whose assignment changes the requester
// may not make; a write that
// changes no assignment, or only removes some, costs a look at the
// object's labels and annotations. It validates, rather than mutates,
// so that it sees what mutating admission policies added too. The hub's
// own controllers are not checked: placement assigns with the engine
// whose rules the plugin applies to hands, tolerating the taints its
// Placements tolerate, which a hand-written label does not.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	u := a.GetUserInfo()
	if loopback.IsController(u) {
		return nil
	}
	if names := recordChanges(a.GetOldObject(), a.GetObject()); len(names) > 0 {
		return admission.NewForbidden(a, fmt.Errorf("annotation %s is placement's record of what a target receives, which only the hub's "+
			"placement controller writes: change the object's spec, the overrides of its Placement, or its rollout with hub rollout "+
			"pause|resume|undo instead, and leave the annotation out of manifests copied from another object", names[0]))
	}
	cs := changes(a.GetOldObject(), a.GetObject())
	if len(cs) == 0 {
		return nil
	}
	if u == nil {
		return admission.NewForbidden(a, errors.New("an anonymous request may not assign objects to SyncTargets"))
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return apierrors.NewInternalError(errors.New("no logical cluster in the request"))
	}
	if err := p.index.waitRead(ctx); err != nil {
		return admission.NewForbidden(a, err)
	}
	why, err := p.refusal(ctx, u, cluster, cs)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("checking who may assign the object to SyncTargets: %w", err))
	}
	if why != "" {
		return admission.NewForbidden(a, errors.New(why))
	}
	return nil
}
