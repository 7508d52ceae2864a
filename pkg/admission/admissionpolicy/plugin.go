package admissionpolicy

import (
	"context"
	"errors"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/mutating"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/client-go/tools/cache"
	openapibuilder3 "k8s.io/kube-openapi/pkg/builder3"
	openapicommon "k8s.io/kube-openapi/pkg/common"
	openapiutil "k8s.io/kube-openapi/pkg/util"

	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry"
)

// readyWait is how long a request waits for the policies to be read
// when the hub has just started, before it is refused.
const readyWait = 10 * time.Second

// Plugin enforces the Validating- and MutatingAdmissionPolicies of every
// logical cluster on the requests there.
type Plugin struct {
	*admission.Handler
	config     Config
	validating *index[*policy, *binding, validating.Validator]
	mutating   *index[*mutatingPolicy, *mutatingBinding, mutating.PolicyEvaluator]
	types      typeConverters
	// read tell when the indexes hold the first list of each store.
	read []cache.InformerSynced
}

var (
	_ admission.ValidationInterface = &Plugin{}
	_ admission.MutationInterface   = &Plugin{}
)

// Config is what the plugin reads.
type Config struct {
	// Policies and Bindings are the registry stores of
	// ValidatingAdmissionPolicies and their bindings, MutatingPolicies and
	// MutatingBindings those of MutatingAdmissionPolicies and theirs.
	Policies, Bindings, MutatingPolicies, MutatingBindings *genericregistry.Store
	// Namespaces is for namespaceSelectors and the namespace CEL sees.
	Namespaces NamespaceStore
	// Authorizer answers CEL's authorizer checks.
	Authorizer authorizer.UnconditionalAuthorizer
	// Stores are the stores of the built-in kinds, each known by Typer:
	// those policies may take params of, and mutate.
	Stores []*genericregistry.Store
	Typer  runtime.ObjectTyper
	// OpenAPI defines the schemas of the kinds of Stores, by which
	// MutatingAdmissionPolicies mutate as server-side apply does.
	OpenAPI *openapicommon.OpenAPIV3Config
	// Informers has the shared informers of Policies, Bindings,
	// MutatingPolicies and MutatingBindings, which feed the plugin's
	// indexes; without it, only what is put in them directly.
	Informers *informer.Factory
}

// New returns the plugin. It enforces nothing, and refuses what it would
// judge, until the informers have listed the policies and bindings.
func New(c Config) (*Plugin, error) {
	params, err := registry.StoresByKind(c.Stores, c.Typer)
	if err != nil {
		return nil, err
	}
	types, err := newTypeConverters(c.OpenAPI, c.Stores, c.Typer)
	if err != nil {
		return nil, err
	}
	p := &Plugin{
		Handler:    admission.NewHandler(admission.Connect, admission.Create, admission.Delete, admission.Update),
		config:     c,
		types:      types,
		validating: newIndex(validatingKind, paramStores(params)),
		mutating:   newIndex(mutatingKind, paramStores(params)),
	}
	if c.Informers != nil {
		if err := p.watch(c.Informers); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// exempt are the resources no policy applies to, as in kube-apiserver:
// the policies themselves, so that no policy can lock its own authors
// out, and the reviews, which store nothing.
var exempt = map[string]bool{
	admissionregistrationv1.GroupName: true,
	authenticationv1.GroupName:        true,
	authorizationv1.GroupName:         true,
}

// cluster is the logical cluster of a request policies may apply to,
// once they have been read.
func (p *Plugin) cluster(ctx context.Context, a admission.Attributes) (logicalcluster.Name, bool, error) {
	if exempt[a.GetResource().Group] {
		return "", false, nil
	}
	cluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return "", false, nil
	}
	if err := p.waitRead(ctx); err != nil {
		return "", false, admission.NewForbidden(a, err)
	}
	return cluster, true, nil
}

// Validate evaluates the ValidatingAdmissionPolicies bound in the
// request's logical cluster, and those its ancestors bound for their
// descendants, with upstream's dispatcher: matching, CEL evaluation, Deny,
// Warn and Audit, the failure policy, and the denial's message and code.
func (p *Plugin) Validate(ctx context.Context, a admission.Attributes, o admission.ObjectInterfaces) error {
	cluster, ok, err := p.cluster(ctx, a)
	if !ok {
		return err
	}
	hooks := p.validating.hooksFor(cluster)
	if len(hooks) == 0 {
		return nil
	}
	// The matcher reads namespaces through a lister without a context,
	// so it is made for this request's logical cluster: a few small
	// allocations, only where policies apply.
	d := validating.NewDispatcher(p.config.Authorizer, generic.NewPolicyMatcher(p.matcher(ctx)))
	return d.Dispatch(ctx, a, o, hooks)
}

// Admit applies the MutatingAdmissionPolicies bound in the request's
// logical cluster, and those its ancestors bound for their descendants,
// with upstream's dispatcher, as Validate does.
func (p *Plugin) Admit(ctx context.Context, a admission.Attributes, o admission.ObjectInterfaces) error {
	cluster, ok, err := p.cluster(ctx, a)
	if !ok {
		return err
	}
	hooks := p.mutating.hooksFor(cluster)
	if len(hooks) == 0 {
		return nil
	}
	d := mutating.NewDispatcher(p.config.Authorizer, p.matcher(ctx), p.types)
	return d.Dispatch(ctx, a, o, hooks)
}

func (p *Plugin) matcher(ctx context.Context) *matching.Matcher {
	namespaces := bind(ctx, p.config.Namespaces)
	return matching.NewMatcher(namespaces, namespaceClient{namespaces: namespaces})
}

// typeConverters give mutations the schemas of the hub's built-in kinds;
// custom resources have none here, so MutatingAdmissionPolicies cannot
// mutate them.
type typeConverters struct {
	builtin managedfields.TypeConverter
	kinds   map[schema.GroupVersionKind]bool
}

// newTypeConverters builds the schemas of the kinds of stores, as the
// API server does for server-side apply; without definitions it has
// none.
func newTypeConverters(definitions *openapicommon.OpenAPIV3Config, stores []*genericregistry.Store, typer runtime.ObjectTyper) (typeConverters, error) {
	t := typeConverters{kinds: map[schema.GroupVersionKind]bool{}}
	if definitions == nil {
		return t, nil
	}
	var names []string
	for _, s := range stores {
		obj := s.New()
		kinds, _, err := typer.ObjectKinds(obj)
		if err != nil {
			return t, err
		}
		// A store of an internal type, as CustomResourceDefinitions',
		// has no schema of its own Go type; its kind is left out.
		served := false
		for _, k := range kinds {
			if k.Version != runtime.APIVersionInternal {
				t.kinds[k], served = true, true
			}
		}
		if served {
			names = append(names, openapiutil.GetCanonicalTypeName(obj))
		}
	}
	schemas, err := openapibuilder3.BuildOpenAPIDefinitionsForResources(definitions, names...)
	if err != nil {
		return t, err
	}
	t.builtin, err = managedfields.NewTypeConverter(schemas, false)
	return t, err
}

func (t typeConverters) GetTypeConverter(gvk schema.GroupVersionKind) managedfields.TypeConverter {
	if !t.kinds[gvk] {
		return nil
	}
	return t.builtin
}

// Run does nothing: the schemas are the hub's, and never change.
func (typeConverters) Run(context.Context) {}

// waitRead waits until the policies and bindings have been read, for
// readyWait at most. Once they have, it costs a call per store.
func (p *Plugin) waitRead(ctx context.Context) error {
	read, err := informer.WaitForSync(ctx, readyWait, p.read...)
	if err == nil && !read {
		err = errors.New("not yet ready to handle request: admission policies are still being read")
	}
	return err
}

// watch keeps the indexes of every logical cluster's policies and
// bindings up to date from their shared informers, one of each kind over
// all logical clusters.
func (p *Plugin) watch(informers *informer.Factory) error {
	for _, w := range []struct {
		s   *genericregistry.Store
		set func(logicalcluster.Name, runtime.Object)
		del func(logicalcluster.Name, string)
	}{
		{p.config.Policies, func(c logicalcluster.Name, obj runtime.Object) { p.validating.setPolicy(c, obj.(*policy)) }, p.validating.deletePolicy},
		{p.config.Bindings, func(c logicalcluster.Name, obj runtime.Object) { p.validating.setBinding(c, obj.(*binding)) }, p.validating.deleteBinding},
		{p.config.MutatingPolicies, func(c logicalcluster.Name, obj runtime.Object) { p.mutating.setPolicy(c, obj.(*mutatingPolicy)) }, p.mutating.deletePolicy},
		{p.config.MutatingBindings, func(c logicalcluster.Name, obj runtime.Object) { p.mutating.setBinding(c, obj.(*mutatingBinding)) }, p.mutating.deleteBinding},
	} {
		reg, err := informers.For(w.s).AddHandler(func(obj runtime.Object, cluster logicalcluster.Name, deleted bool) {
			if !deleted {
				w.set(cluster, obj)
				return
			}
			if m, err := meta.Accessor(obj); err == nil {
				w.del(cluster, m.GetName())
			}
		})
		if err != nil {
			return err
		}
		p.read = append(p.read, reg.HasSynced)
	}
	return nil
}
