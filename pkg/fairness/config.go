package fairness

import (
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/loopback"
)

// The hub's priority levels besides upstream's mandatory exempt and
// catch-all.
const (
	// LevelControllers serves the hub's own controllers, whose writes keep
	// every logical cluster working (status, garbage collection, quotas).
	LevelControllers = "hub-controllers"
	// LevelSyncers serves the syncers, each of which carries a whole
	// physical cluster's reports.
	LevelSyncers = "syncers"
	// LevelWorkload serves every other user, in one flow per logical
	// cluster.
	LevelWorkload = "workload"
)

// UID is the uid of the hub's FlowSchema or PriorityLevelConfiguration
// name, which each response names in its X-Kubernetes-PF-FlowSchema-UID
// and X-Kubernetes-PF-PriorityLevel-UID headers. It is fixed so that it is
// the same on every replica and says which object it is.
func UID(name string) types.UID { return types.UID("canopy-" + name) }

// priorityLevels are the hub's PriorityLevelConfigurations. Shares split
// a replica's seats: controllers and syncers get a third each of what
// tenants get, and lend half of it when idle; tenants lend 40% of theirs.
// Upstream's controller lends what a level does not use for 10 s at a
// time, down to the seats it may not lend, so those are what tenants are
// sure of when a flood begins. They are 60%, more than one logical
// cluster's default share (share.go), so that a flood held to its share
// leaves others seats even then: lending 90%, a level of 3 seats (a
// replica of 4) kept none, and a quiet tenant waited 10 s for the next
// adjustment while the flood's requests waited too.
func priorityLevels() []*flowcontrolv1.PriorityLevelConfiguration {
	return []*flowcontrolv1.PriorityLevelConfiguration{
		bootstrap.MandatoryPriorityLevelConfigurationExempt,
		bootstrap.MandatoryPriorityLevelConfigurationCatchAll,
		limited(LevelControllers, 40, 50, 6),
		limited(LevelSyncers, 40, 50, 6),
		limited(LevelWorkload, 120, 40, 2),
	}
}

// flowSchemas are the hub's FlowSchemas, by precedence: system:masters
// and probes exempt, then the hub's controllers and the syncers, each
// user a flow of its own, then everyone else, each logical cluster a flow
// of its own (ByNamespace: see Wrap).
func flowSchemas() []*flowcontrolv1.FlowSchema {
	everything := flowcontrolv1.PolicyRulesWithSubjects{
		ResourceRules: []flowcontrolv1.ResourcePolicyRule{{
			Verbs: []string{flowcontrolv1.VerbAll}, APIGroups: []string{flowcontrolv1.APIGroupAll},
			Resources: []string{flowcontrolv1.ResourceAll}, Namespaces: []string{flowcontrolv1.NamespaceEvery}, ClusterScope: true,
		}},
		NonResourceRules: []flowcontrolv1.NonResourcePolicyRule{{
			Verbs: []string{flowcontrolv1.VerbAll}, NonResourceURLs: []string{flowcontrolv1.NonResourceAll},
		}},
	}
	of := func(groups ...string) []flowcontrolv1.PolicyRulesWithSubjects {
		r := everything
		for _, g := range groups {
			r.Subjects = append(r.Subjects, flowcontrolv1.Subject{Kind: flowcontrolv1.SubjectKindGroup, Group: &flowcontrolv1.GroupSubject{Name: g}})
		}
		return []flowcontrolv1.PolicyRulesWithSubjects{r}
	}
	return []*flowcontrolv1.FlowSchema{
		bootstrap.MandatoryFlowSchemaExempt,
		bootstrap.SuggestedFlowSchemaProbes,
		flowSchema(LevelControllers, 500, flowcontrolv1.FlowDistinguisherMethodByUserType, of(loopback.Group)),
		flowSchema(LevelSyncers, 600, flowcontrolv1.FlowDistinguisherMethodByUserType, of(workloadv1alpha1.SyncersGroup)),
		flowSchema(LevelWorkload, 9000, flowcontrolv1.FlowDistinguisherMethodByNamespaceType, of(user.AllAuthenticated, user.AllUnauthenticated)),
		bootstrap.MandatoryFlowSchemaCatchAll,
	}
}

// limited is a queuing priority level of 128 queues, each flow spread
// over handSize of them. Upstream's levels use 6, which keeps a flow
// unlucky enough to share its queues with a heavy one rare; but a flow
// gets a turn per queue it holds, so a flooding logical cluster holding 6
// would make a quiet one wait behind 6 of its requests. The workload
// level's flows are logical clusters, few enough that 2 of 128 keep
// collisions rare, and its flood of one logical cluster holds 2.
func limited(name string, shares, lendable, handSize int32) *flowcontrolv1.PriorityLevelConfiguration {
	return &flowcontrolv1.PriorityLevelConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: flowcontrolv1.PriorityLevelConfigurationSpec{
			Type: flowcontrolv1.PriorityLevelEnablementLimited,
			Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{
				NominalConcurrencyShares: ptr.To(shares),
				LendablePercent:          ptr.To(lendable),
				LimitResponse: flowcontrolv1.LimitResponse{
					Type:    flowcontrolv1.LimitResponseTypeQueue,
					Queuing: &flowcontrolv1.QueuingConfiguration{Queues: 128, HandSize: handSize, QueueLengthLimit: 50},
				},
			},
		},
	}
}

// flowSchema is FlowSchema name, sending the requests rules match to the
// priority level of the same name.
func flowSchema(name string, precedence int32, distinguisher flowcontrolv1.FlowDistinguisherMethodType, rules []flowcontrolv1.PolicyRulesWithSubjects) *flowcontrolv1.FlowSchema {
	return &flowcontrolv1.FlowSchema{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: flowcontrolv1.FlowSchemaSpec{
			PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: name},
			MatchingPrecedence:         precedence,
			DistinguisherMethod:        &flowcontrolv1.FlowDistinguisherMethod{Type: distinguisher},
			Rules:                      rules,
		},
	}
}
