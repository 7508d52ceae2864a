package assignment

import (
	"context"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

// UseVerb is the verb on a SyncTarget, in its logical cluster, that lets
// a user assign objects to it by hand, as kcp's bind lets one bind to an
// APIExport.
const UseVerb = "use"

// world is what a decision reads, besides the request.
type world interface {
	// target is the SyncTarget of key, if there is one.
	target(ctx context.Context, key string) (*engine.Target, bool)
	// constraints are the PlacementConstraints of cluster and its
	// ancestors.
	constraints(cluster logicalcluster.Name) []engine.Constraint
}

// decider decides whether a user may make some assignment changes to an
// object of a logical cluster.
type decider struct {
	world world
	authz authorizer.UnconditionalAuthorizer
	now   func() time.Time
}

// refusal is why u may not make changes cs to an object of cluster,
// empty if u may. An error is a failure to decide.
func (d *decider) refusal(ctx context.Context, u user.Info, cluster logicalcluster.Name, cs []change) (string, error) {
	var lineage []engine.Constraint
	for _, c := range cs {
		t, ok := d.world.target(ctx, c.key)
		if !ok {
			return fmt.Sprintf("no SyncTarget has key %s (%s): use the key a SyncTarget's status.key shows", c.key, c.field), nil
		}
		prefix := fmt.Sprintf("user %q may not assign objects to SyncTarget %s:%s (%s): ", u.GetName(), t.Cluster, t.Name, c.field)
		if _, _, err := serviceaccount.SplitUsername(u.GetName()); err == nil && t.Cluster != cluster {
			// A ServiceAccount is named alike in every logical cluster,
			// so RBAC of the target's logical cluster that names one
			// names its own, never this one.
			return prefix + fmt.Sprintf("a ServiceAccount of logical cluster %s may assign objects only to the SyncTargets of %s; "+
				"ask an admin of %s to assign them, or use a user's credential granted %q there", cluster, cluster, t.Cluster, UseVerb), nil
		}
		allowed, err := d.mayUse(ctx, u, t)
		if err != nil {
			return "", err
		}
		if !allowed {
			return prefix + fmt.Sprintf("it needs %q on synctargets %q in logical cluster %s, which an admin there grants with a ClusterRole and ClusterRoleBinding",
				UseVerb, t.Name, t.Cluster), nil
		}
		if !workloadv1alpha1.UsableFrom(string(t.Cluster), t.LogicalClusters, string(cluster)) {
			return prefix + fmt.Sprintf("its spec.logicalClusters %s does not include logical cluster %s", usableFrom(t), cluster), nil
		}
		if !c.assigns {
			continue
		}
		if lineage == nil {
			lineage = d.world.constraints(cluster)
		}
		if why := excluded(t, lineage, d.now()); why != "" {
			return prefix + why, nil
		}
	}
	return "", nil
}

// mayUse asks the hub's authorizer whether u may use t, in t's logical
// cluster.
func (d *decider) mayUse(ctx context.Context, u user.Info, t *engine.Target) (bool, error) {
	decision, _, err := d.authz.Authorize(logicalcluster.WithCluster(ctx, t.Cluster), authorizer.AttributesRecord{
		User:            u,
		Verb:            UseVerb,
		APIGroup:        workloadv1alpha1.GroupName,
		APIVersion:      workloadv1alpha1.SchemeGroupVersion.Version,
		Resource:        "synctargets",
		Name:            t.Name,
		ResourceRequest: true,
	})
	if decision == authorizer.DecisionAllow {
		return true, nil
	}
	// As kube-apiserver does, an authorizer's error without an allow is
	// a failure to decide, not a denial.
	return false, err
}

// usableFrom is what t's spec.logicalClusters means, for messages.
func usableFrom(t *engine.Target) string {
	if len(t.LogicalClusters) == 0 {
		return fmt.Sprintf("is empty, which means its own logical cluster %s and those below it,", t.Cluster)
	}
	return fmt.Sprintf("[%s]", strings.Join(t.LogicalClusters, ", "))
}

// handWritten is the name of the placement that stands for an assignment
// written by hand: it selects every target and tolerates no taint.
const handWritten = "hand-written assignment"

// excluded is why no new object may go to t, empty if one may, as the
// placement engine judges t for a placement that selects every target
// and tolerates nothing, bound by constraints: a PlacementConstraint
// that does not allow t, a NoSchedule or NoExecute taint, or a cordon.
// Whether t is ready does not matter: a label written by hand is a
// standing order, which the syncer carries out when it is back.
func excluded(t *engine.Target, constraints []engine.Constraint, now time.Time) string {
	policy, err := engine.Compile(&placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: handWritten}}, constraints)
	if err != nil {
		// Constraints are validated when written, so this is one the
		// hub cannot judge: it allows nothing rather than everything.
		return fmt.Sprintf("the PlacementConstraints of the logical cluster cannot be evaluated: %v", err)
	}
	status := policy.Evaluate([]engine.Target{*t}, now).Explain()[0]
	switch status.Reason {
	case placementv1alpha1.ReasonConstraint, placementv1alpha1.ReasonCordoned:
		return status.Message
	case placementv1alpha1.ReasonTaint:
		return status.Message + " (an assignment written by hand tolerates no taint)"
	}
	return ""
}
