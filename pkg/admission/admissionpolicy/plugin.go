package admissionpolicy

import (
	"context"
	"errors"
	"sync"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// readyWait is how long a request waits for the policies to be read
// when the hub has just started, before it is refused.
const readyWait = 10 * time.Second

// Plugin enforces the ValidatingAdmissionPolicies of every logical
// cluster on the requests there.
type Plugin struct {
	*admission.Handler
	policies, bindings *genericregistry.Store
	namespaces         NamespaceStore
	authz              authorizer.UnconditionalAuthorizer
	index              *index
	// policiesRead and bindingsRead close once each has been listed.
	policiesRead, bindingsRead chan struct{}
}

var _ admission.ValidationInterface = &Plugin{}

// Config is what the plugin reads.
type Config struct {
	// Policies and Bindings are the registry stores of
	// ValidatingAdmissionPolicies and their bindings.
	Policies, Bindings *genericregistry.Store
	// Namespaces is for namespaceSelectors and the namespace CEL sees.
	Namespaces NamespaceStore
	// Authorizer answers CEL's authorizer checks.
	Authorizer authorizer.UnconditionalAuthorizer
	// ParamStores are the stores of the kinds policies may take params
	// of, each kind known by Typer.
	ParamStores []*genericregistry.Store
	Typer       runtime.ObjectTyper
}

// New returns the plugin. It enforces nothing, and refuses what it would
// judge, until Run has read the policies and bindings.
func New(c Config) (*Plugin, error) {
	params, err := newParamStores(c.ParamStores, c.Typer)
	if err != nil {
		return nil, err
	}
	return &Plugin{
		Handler:      admission.NewHandler(admission.Connect, admission.Create, admission.Delete, admission.Update),
		policies:     c.Policies,
		bindings:     c.Bindings,
		namespaces:   c.Namespaces,
		authz:        c.Authorizer,
		index:        newIndex(params),
		policiesRead: make(chan struct{}),
		bindingsRead: make(chan struct{}),
	}, nil
}

// exempt are the resources no policy applies to, as in kube-apiserver:
// the policies themselves, so that no policy can lock its own authors
// out, and the reviews, which store nothing.
var exempt = map[string]bool{
	admissionregistrationv1.GroupName: true,
	authenticationv1.GroupName:        true,
	authorizationv1.GroupName:         true,
}

// Validate evaluates the policies bound in the request's logical cluster,
// and those its ancestors bound for their descendants, with upstream's
// dispatcher: matching, CEL evaluation, Deny, Warn and Audit, the failure
// policy, and the denial's message and code.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, o admission.ObjectInterfaces) error {
	if exempt[a.GetResource().Group] {
		return nil
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return nil
	}
	if err := p.waitRead(ctx); err != nil {
		return admission.NewForbidden(a, err)
	}
	hooks := p.index.hooksFor(cluster)
	if len(hooks) == 0 {
		return nil
	}
	// The matcher reads namespaces through a lister without a context,
	// so it is made for this request's logical cluster: a few small
	// allocations, only where policies apply.
	namespaces := bind(ctx, p.namespaces)
	d := validating.NewDispatcher(p.authz, generic.NewPolicyMatcher(matching.NewMatcher(namespaces, namespaceClient{namespaces: namespaces})))
	return d.Dispatch(ctx, a, o, hooks)
}

// waitRead waits until the policies and bindings have been read, for
// readyWait at most. Once they have, it costs two channel reads.
func (p *Plugin) waitRead(ctx context.Context) error {
	var timeout <-chan time.Time
	for _, ch := range []chan struct{}{p.policiesRead, p.bindingsRead} {
		select {
		case <-ch:
			continue
		default:
		}
		if timeout == nil {
			timer := time.NewTimer(readyWait)
			defer timer.Stop()
			timeout = timer.C
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout:
			return errors.New("not yet ready to handle request: admission policies are still being read")
		}
	}
	return nil
}

// Run keeps the index of every logical cluster's policies and bindings up
// to date, from one watch of each over all logical clusters, until ctx
// ends.
func (p *Plugin) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() {
		p.watch(ctx, "admission-policies", p.policies, p.policiesRead, false, func(c logicalcluster.Name, obj runtime.Object) {
			p.index.setPolicy(c, obj.(*policy))
		}, p.index.deletePolicy)
	})
	wg.Go(func() {
		p.watch(ctx, "admission-policy-bindings", p.bindings, p.bindingsRead, true, func(c logicalcluster.Name, obj runtime.Object) {
			p.index.setBinding(c, obj.(*binding))
		}, p.index.deleteBinding)
	})
	wg.Wait()
}

// watch feeds the index from s: a list replaces what the index held of
// its kind, as after a broken watch it may have missed deletions.
func (p *Plugin) watch(ctx context.Context, name string, s *genericregistry.Store, read chan struct{}, ofBindings bool,
	set func(logicalcluster.Name, runtime.Object), del func(logicalcluster.Name, string),
) {
	var once sync.Once
	clusterOf := func(obj runtime.Object) (logicalcluster.Name, string, bool) {
		m, err := meta.Accessor(obj)
		if err != nil {
			klog.ErrorS(err, "Reading an admission policy object", "loop", name)
			return "", "", false
		}
		c, err := logicalcluster.FromObject(m)
		if err != nil {
			klog.ErrorS(err, "Reading an admission policy object", "loop", name)
			return "", "", false
		}
		return c, m.GetName(), true
	}
	clusterwide.Watch(ctx, name, s, s.NewListFunc, func(objs []runtime.Object) {
		listed := map[logicalcluster.Name]map[string]bool{}
		for _, obj := range objs {
			if c, n, ok := clusterOf(obj); ok {
				if listed[c] == nil {
					listed[c] = map[string]bool{}
				}
				listed[c][n] = true
				set(c, obj)
			}
		}
		for c, names := range p.index.names(ofBindings) {
			for _, n := range names {
				if !listed[c][n] {
					del(c, n)
				}
			}
		}
		once.Do(func() { close(read) })
	}, func(obj runtime.Object, deleted bool) {
		c, n, ok := clusterOf(obj)
		switch {
		case !ok:
		case deleted:
			del(c, n)
		default:
			set(c, obj)
		}
	})
}
