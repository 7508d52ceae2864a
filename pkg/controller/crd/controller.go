package crd

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// workers is how many groups are decided at once; each decision is one
// list of a group's few definitions and a write per definition that
// changed.
const workers = 2

// group names the definitions of one API group in one logical cluster,
// which compete for names with each other and nothing else.
type group struct {
	cluster logicalcluster.Name
	group   string
}

// Controller grants CustomResourceDefinitions their names and establishes
// them, in every logical cluster.
type Controller struct {
	definitions *genericregistry.Store
	status      rest.Updater
	loop        clusterwide.Loop[group]
}

// New returns a controller over the definitions' store and its status
// subresource, fed by their shared informer, for the logical clusters
// owner says this replica handles.
func New(definitions *genericregistry.Store, status rest.Updater, informers *informer.Factory, owner shard.Ownership) *Controller {
	c := &Controller{definitions: definitions, status: status}
	c.loop = clusterwide.Loop[group]{
		Name:      "crd-names",
		Workers:   workers,
		Cluster:   func(k group) logicalcluster.Name { return k.cluster },
		Ownership: owner,
		Process:   c.process,
	}
	c.loop.Watch(informers.For(definitions), keys)
	return c
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) { c.loop.Run(ctx) }

// keys is the group of a changed definition, deleted ones included: a
// deletion frees names others may be waiting for.
func keys(obj runtime.Object, _ bool) []group {
	crd, cluster, ok := definitionOf(obj)
	if !ok {
		return nil
	}
	return []group{{cluster, crd.Spec.Group}}
}

// definitionOf is the definition a watch sent, and its logical cluster.
func definitionOf(obj runtime.Object) (*apiextensions.CustomResourceDefinition, logicalcluster.Name, bool) {
	crd, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		klog.ErrorS(nil, "The CustomResourceDefinition watch sent something else", "type", fmt.Sprintf("%T", obj))
		return nil, "", false
	}
	cluster, err := logicalcluster.FromObject(crd)
	if err != nil {
		klog.ErrorS(err, "A stored CustomResourceDefinition has no logical cluster", "name", crd.Name)
		return nil, "", false
	}
	return crd, cluster, true
}

// process decides the names of the definitions of group k, the oldest
// first, so that of two asking for the same name the first created gets
// it. Its list is a consistent read, since a name granted but not yet
// seen would be granted twice; and a write that conflicts stops the
// round, which the conflicting change starts again.
func (c *Controller) process(ctx context.Context, k group) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), k.cluster)
	list, err := c.definitions.List(ctx, &metainternalversion.ListOptions{})
	if err != nil {
		return err
	}
	var crds []*apiextensions.CustomResourceDefinition
	for i := range list.(*apiextensions.CustomResourceDefinitionList).Items {
		if crd := &list.(*apiextensions.CustomResourceDefinitionList).Items[i]; crd.Spec.Group == k.group {
			crds = append(crds, crd)
		}
	}
	slices.SortFunc(crds, func(a, b *apiextensions.CustomResourceDefinition) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	for _, crd := range crds {
		if settled(crd) {
			continue
		}
		names, accepted, established := decide(crd, claimedBy(crds))
		if namesEqual(names, crd.Status.AcceptedNames) &&
			apiextensions.IsCRDConditionEquivalent(&accepted, apiextensions.FindCRDCondition(crd, apiextensions.NamesAccepted)) &&
			apiextensions.IsCRDConditionEquivalent(&established, apiextensions.FindCRDCondition(crd, apiextensions.Established)) {
			continue
		}
		updated := crd.DeepCopy()
		updated.Status.AcceptedNames = names
		apiextensions.SetCRDCondition(updated, accepted)
		apiextensions.SetCRDCondition(updated, established)
		obj, _, err := c.status.Update(ctx, crd.Name, rest.DefaultUpdatedObjectInfo(updated),
			rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("status of CustomResourceDefinition %s: %w", crd.Name, err)
		}
		// Later definitions see what this one was granted.
		*crd = *obj.(*apiextensions.CustomResourceDefinition)
		klog.V(2).InfoS("Decided the names of a CustomResourceDefinition", "cluster", k.cluster, "name", crd.Name,
			"namesAccepted", accepted.Status, "reason", accepted.Reason)
	}
	return nil
}
