package crd

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/shard"
)

// Instances finds the objects of a definition.
type Instances interface {
	// Store is the store of the objects of crd, a definition of cluster.
	Store(cluster logicalcluster.Name, crd *apiextensions.CustomResourceDefinition) (*genericregistry.Store, error)
}

// installation names one definition in one logical cluster.
type installation struct {
	cluster logicalcluster.Name
	name    string
}

// Finalizer deletes the objects of deleted CustomResourceDefinitions, in
// every logical cluster, and then lets the definitions go, as upstream's
// finalizer does.
type Finalizer struct {
	definitions *genericregistry.Store
	status      rest.Updater
	instances   Instances
	loop        clusterwide.Loop[installation]
}

// NewFinalizer returns a finalizer over the definitions' store and its
// status subresource, fed by their shared informer, for the logical
// clusters owner says this replica handles.
func NewFinalizer(definitions *genericregistry.Store, status rest.Updater, instances Instances, informers *informer.Factory, owner shard.Ownership) *Finalizer {
	f := &Finalizer{definitions: definitions, status: status, instances: instances}
	f.loop = clusterwide.Loop[installation]{
		Name:      "crd-finalizer",
		Workers:   workers,
		Cluster:   func(k installation) logicalcluster.Name { return k.cluster },
		Ownership: owner,
		Process:   f.process,
	}
	f.loop.Watch(informers.For(definitions), deleting)
	return f
}

// Run works until ctx ends.
func (f *Finalizer) Run(ctx context.Context) { f.loop.Run(ctx) }

// deleting is a definition being deleted whose objects may remain.
func deleting(obj runtime.Object, deleted bool) []installation {
	crd, cluster, ok := definitionOf(obj)
	if !ok || deleted || crd.DeletionTimestamp == nil || !apiextensions.CRDHasFinalizer(crd, apiextensions.CustomResourceCleanupFinalizer) {
		return nil
	}
	return []installation{{cluster, crd.Name}}
}

// process deletes the objects of the definition of k and, once none is
// left, removes its finalizer. Objects held by finalizers of their own
// keep it waiting, looked at again until they are gone.
func (f *Finalizer) process(ctx context.Context, k installation) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), k.cluster)
	obj, err := f.definitions.Get(ctx, k.name, &metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	crd := obj.(*apiextensions.CustomResourceDefinition)
	if crd.DeletionTimestamp == nil || !apiextensions.CRDHasFinalizer(crd, apiextensions.CustomResourceCleanupFinalizer) {
		return nil
	}
	terminating := apiextensions.CustomResourceDefinitionCondition{
		Type: apiextensions.Terminating, Status: apiextensions.ConditionFalse, Reason: "NeverEstablished", Message: "resource was never established",
	}
	if apiextensions.IsCRDConditionTrue(crd, apiextensions.Established) {
		progress := apiextensions.CustomResourceDefinitionCondition{
			Type: apiextensions.Terminating, Status: apiextensions.ConditionTrue, Reason: "InstanceDeletionInProgress", Message: "CustomResource deletion is in progress",
		}
		if !apiextensions.IsCRDConditionEquivalent(&progress, apiextensions.FindCRDCondition(crd, apiextensions.Terminating)) {
			if crd, err = f.updateStatus(ctx, crd, func(crd *apiextensions.CustomResourceDefinition) { apiextensions.SetCRDCondition(crd, progress) }); crd == nil || err != nil {
				return err
			}
		}
		store, err := f.instances.Store(k.cluster, crd)
		if err != nil {
			return fmt.Errorf("the objects of CustomResourceDefinition %s: %w", k.name, err)
		}
		found, _, err := clusterwide.Empty(ctx, []*genericregistry.Store{store}, clusterwide.StoreDeleter)
		if err != nil {
			return fmt.Errorf("deleting the objects of CustomResourceDefinition %s: %w", k.name, err)
		}
		if found > 0 {
			return clusterwide.ErrWaiting
		}
		terminating = apiextensions.CustomResourceDefinitionCondition{
			Type: apiextensions.Terminating, Status: apiextensions.ConditionFalse, Reason: "InstanceDeletionCompleted", Message: "removed all instances",
		}
	}
	_, err = f.updateStatus(ctx, crd, func(crd *apiextensions.CustomResourceDefinition) {
		apiextensions.SetCRDCondition(crd, terminating)
		apiextensions.CRDRemoveFinalizer(crd, apiextensions.CustomResourceCleanupFinalizer)
	})
	return err
}

// updateStatus writes crd changed by change through the status
// subresource, which upstream's strategy lets change finalizers too. It
// returns nil, and no error, when crd changed or went meanwhile: the
// change queues it again.
func (f *Finalizer) updateStatus(ctx context.Context, crd *apiextensions.CustomResourceDefinition, change func(*apiextensions.CustomResourceDefinition)) (*apiextensions.CustomResourceDefinition, error) {
	updated := crd.DeepCopy()
	change(updated)
	obj, _, err := f.status.Update(ctx, crd.Name, rest.DefaultUpdatedObjectInfo(updated), rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("status of CustomResourceDefinition %s: %w", crd.Name, err)
	}
	return obj.(*apiextensions.CustomResourceDefinition), nil
}
