package wildcard

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Authorizer decides wildcard requests as the package documentation says,
// and passes every other request to the authorizer it wraps unchanged.
type Authorizer struct {
	next authorizer.Authorizer
}

// New wraps next, the authorizer of requests to one logical cluster.
func New(next authorizer.Authorizer) *Authorizer { return &Authorizer{next: next} }

var _ authorizer.Authorizer = &Authorizer{}

// readers are the groups whose members may use the wildcard at all.
var readers = []string{user.SystemPrivilegedGroup, logicalcluster.WildcardReadersGroup}

func (a *Authorizer) Authorize(ctx context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	ctx, decision, reason := a.gate(ctx, attrs)
	if decision != authorizer.DecisionNoOpinion {
		return decision, reason, nil
	}
	return a.next.Authorize(ctx, attrs)
}

func (a *Authorizer) ConditionsAwareAuthorize(ctx context.Context, attrs authorizer.Attributes) authorizer.ConditionsAwareDecision {
	ctx, decision, reason := a.gate(ctx, attrs)
	if decision != authorizer.DecisionNoOpinion {
		return authorizer.ConditionsAwareDecisionFromParts(decision, reason, nil)
	}
	return a.next.ConditionsAwareAuthorize(ctx, attrs)
}

func (a *Authorizer) EvaluateConditions(ctx context.Context, decision authorizer.ConditionsAwareDecision, data authorizer.ConditionsData) (authorizer.Decision, string, error) {
	return a.next.EvaluateConditions(ctx, decision, data)
}

// gate denies a wildcard resource request of anyone who is no reader, and
// otherwise returns no opinion and the context to ask the next authorizer
// with: root's, for a wildcard request.
func (a *Authorizer) gate(ctx context.Context, attrs authorizer.Attributes) (context.Context, authorizer.Decision, string) {
	if !logicalcluster.IsWildcard(ctx) {
		return ctx, authorizer.DecisionNoOpinion, ""
	}
	if attrs.IsResourceRequest() {
		u := attrs.GetUser()
		if u == nil || !slices.ContainsFunc(u.GetGroups(), func(g string) bool { return slices.Contains(readers, g) }) {
			return ctx, authorizer.DecisionDeny, fmt.Sprintf("%s%s/… reads every logical cluster and is only for members of group %q "+
				"with a ClusterRole in root granting list and watch on the resource", logicalcluster.PathPrefix, logicalcluster.Wildcard, logicalcluster.WildcardReadersGroup)
		}
	}
	return logicalcluster.WithCluster(ctx, logicalcluster.Root), authorizer.DecisionNoOpinion, ""
}
