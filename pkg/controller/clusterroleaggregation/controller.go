package clusterroleaggregation

import (
	"context"
	"fmt"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/informer"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry/rbac"
	"github.com/canopy-dev/canopy/pkg/shard"
)

const (
	// workers is how many logical clusters are aggregated at once.
	workers = 4
	// delay gathers the changes to the ClusterRoles of a logical cluster
	// that come together, as when it is set up, into one aggregation.
	delay = 500 * time.Millisecond
)

// Controller aggregates ClusterRoles.
type Controller struct {
	roles    *genericregistry.Store
	informer *informer.Informer
	loop     clusterwide.Loop[logicalcluster.Name]
}

// New returns a controller over the ClusterRoles' store and their shared
// informer, which aggregates the roles of the logical clusters owner
// says this replica handles.
func New(roles *genericregistry.Store, informers *informer.Factory, owner shard.Ownership) *Controller {
	c := &Controller{roles: roles, informer: informers.For(roles)}
	c.loop = clusterwide.Loop[logicalcluster.Name]{
		Name:      "clusterrole-aggregation",
		Workers:   workers,
		Delay:     delay,
		Cluster:   func(n logicalcluster.Name) logicalcluster.Name { return n },
		Ownership: owner,
		Process:   c.process,
	}
	c.loop.Watch(c.informer, keys)
	return c
}

// Run works until ctx ends.
func (c *Controller) Run(ctx context.Context) { c.loop.Run(ctx) }

// keys is the logical cluster of a changed ClusterRole: any change, even
// the loss of a label, may change what the aggregated roles there hold.
func keys(obj runtime.Object, _ bool) []logicalcluster.Name {
	r, ok := obj.(*rbacv1.ClusterRole)
	if !ok {
		klog.ErrorS(nil, "The ClusterRole watch sent something else", "type", fmt.Sprintf("%T", obj))
		return nil
	}
	cluster, err := logicalcluster.FromObject(r)
	if err != nil {
		klog.ErrorS(err, "A stored ClusterRole has no logical cluster", "clusterrole", r.Name)
		return nil
	}
	return []logicalcluster.Name{cluster}
}

// process brings every aggregated ClusterRole of cluster up to date. It
// reads the informer, which the event that queued the cluster is
// already in; a write against a newer version conflicts and is retried.
func (c *Controller) process(ctx context.Context, cluster logicalcluster.Name) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), cluster)
	var roles []*rbacv1.ClusterRole
	for _, obj := range c.informer.InCluster(cluster) {
		if r, ok := obj.(*rbacv1.ClusterRole); ok {
			roles = append(roles, r)
		}
	}
	want, err := rbac.Aggregate(roles)
	if err != nil {
		// A selector that does not parse passed no validation: log it
		// rather than retry what will never succeed.
		klog.ErrorS(err, "Cannot aggregate ClusterRoles", "cluster", cluster)
		return nil
	}
	for _, r := range roles {
		rules, ok := want[r.Name]
		if !ok || rbac.SameRules(rules, r.Rules) {
			continue
		}
		updated := r.DeepCopy()
		updated.Rules = rules
		if _, _, err := c.roles.Update(ctx, r.Name, rest.DefaultUpdatedObjectInfo(updated),
			rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{}); err != nil {
			return err
		}
		klog.V(2).InfoS("Aggregated a ClusterRole", "cluster", cluster, "clusterrole", r.Name, "rules", len(rules))
	}
	return nil
}
