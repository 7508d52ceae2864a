package placement

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// ReasonInvalid is the reason of the Schedulable condition of a
// placement that does not compile.
const ReasonInvalid = "InvalidPlacement"

// writeStatus writes the status of placement id, if it changed: per
// candidate target of its own logical cluster, whether new objects may
// go there and why not, and how many objects and replicas it put there;
// and whether any target is eligible.
func (c *Controller) writeStatus(ctx context.Context, id placementID) error {
	p := c.world.placement(id)
	if p == nil {
		return nil
	}
	ctx = logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, ""), id.cluster)
	obj, err := c.cfg.Placements.Get(ctx, id.name, &metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	stored := obj.(*placementv1alpha1.Placement)
	if stored.Generation != p.Generation {
		// The watch brings the newer spec, and its status then.
		return nil
	}
	status := placementv1alpha1.PlacementStatus{ObservedGeneration: p.Generation, Conditions: append([]metav1.Condition(nil), stored.Status.Conditions...)}
	s := c.world.scope(id.cluster)
	condition := metav1.Condition{Type: placementv1alpha1.ConditionSchedulable, Status: metav1.ConditionFalse, Reason: ReasonInvalid}
	if err, invalid := s.invalid(id); invalid {
		condition.Message = err.Error()
	} else if policy := s.policy(id); policy != nil {
		now := time.Now()
		e := s.evaluation(policy, now)
		if at := e.RecheckAt(); !at.IsZero() {
			c.statuses.AddAfter(id, at.Sub(now))
		}
		condition = e.Condition()
		counts := c.countsOf(id)
		status.Targets = e.Explain()
		for i := range status.Targets {
			t := &status.Targets[i]
			t.Objects, t.Replicas = counts[t.Key].objects, counts[t.Key].replicas
		}
	}
	condition.ObservedGeneration = p.Generation
	meta.SetStatusCondition(&status.Conditions, condition)
	c.setLeasesCondition(&status.Conditions, id.cluster, p.Generation)
	if equality.Semantic.DeepEqual(status, stored.Status) {
		return nil
	}
	updated := stored.DeepCopy()
	updated.Status = status
	// The resourceVersion read is a precondition: a write meanwhile
	// conflicts, and the status is made again from what is newer.
	_, _, err = c.cfg.PlacementStatus.Update(ctx, id.name, rest.DefaultUpdatedObjectInfo(updated),
		rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, false, &metav1.UpdateOptions{})
	if apierrors.IsConflict(err) {
		c.statuses.AddAfter(id, statusDelay)
		return nil
	}
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
