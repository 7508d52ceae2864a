package clusterroleaggregation

import (
	"context"
	"fmt"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/controller/clusterwide"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/registry/rbac"
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
	roles *genericregistry.Store
	loop  clusterwide.Loop[logicalcluster.Name]
}

// New returns a controller over the ClusterRoles' store.
func New(roles *genericregistry.Store) *Controller {
	c := &Controller{roles: roles}
	c.loop = clusterwide.Loop[logicalcluster.Name]{
		Name:    "clusterrole-aggregation",
		Store:   roles,
		NewList: func() runtime.Object { return &rbacv1.ClusterRoleList{} },
		Workers: workers,
		Delay:   delay,
		Keys:    keys,
		Process: c.process,
	}
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
// reads the watch cache, which the event that queued the cluster is
// already in; a write against a newer version conflicts and is retried.
func (c *Controller) process(ctx context.Context, cluster logicalcluster.Name) error {
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), cluster)
	obj, err := c.roles.List(ctx, &metainternalversion.ListOptions{ResourceVersion: "0"})
	if err != nil {
		return err
	}
	list := obj.(*rbacv1.ClusterRoleList)
	roles := make([]*rbacv1.ClusterRole, len(list.Items))
	for i := range list.Items {
		roles[i] = &list.Items[i]
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
