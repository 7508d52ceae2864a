package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Placement decides which SyncTargets the objects it selects in its
// logical cluster go to, and how they are shared among them.
type Placement struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec PlacementSpec `json:"spec,omitempty"`
	// +optional
	Status PlacementStatus `json:"status,omitempty"`
}

// PlacementSpec is which objects are placed, on which targets, and how.
type PlacementSpec struct {
	// NamespaceSelector selects, by their labels, the namespaces whose
	// objects this placement places. Unset selects every namespace.
	// +optional
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty"`
	// Resources are the types of the objects placed. Empty means every
	// resource that the chosen targets accept.
	// +optional
	// +listType=atomic
	Resources []workloadv1alpha1.GroupResource `json:"resources,omitempty"`
	// Targets chooses the SyncTargets objects may go to, among those the
	// PlacementConstraints of this logical cluster and its ancestors
	// allow.
	// +optional
	Targets TargetSelection `json:"targets,omitempty"`
	// Tolerations let objects go to, or stay on, targets with taints
	// they match, as a pod's tolerations do for a node's taints.
	// +optional
	// +listType=atomic
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
	// Strategy is how objects are shared among the eligible targets.
	// +optional
	Strategy Strategy `json:"strategy,omitempty"`
	// Failover is when objects leave a target that is not ready.
	// +optional
	Failover Failover `json:"failover,omitempty"`
	// Priority decides between placements that select the same object:
	// the highest places it, and between equal priorities the
	// alphabetically first name.
	// +optional
	Priority int32 `json:"priority,omitempty"`
	// Inheritance None applies this placement to its own logical cluster
	// only. Descendants applies it also to every descendant logical
	// cluster that has no Placement of its own and no nearer ancestor
	// with such a placement: a platform's default placement.
	// +optional
	Inheritance Inheritance `json:"inheritance,omitempty"`
	// Overrides change the object that the targets each rule selects
	// receive, and not the hub object: a registry per region, fewer
	// replicas on a canary, a label for one cloud's load balancer. The
	// rules that select a target apply in their order, each to the
	// result of those before.
	// +optional
	// +listType=map
	// +listMapKey=name
	Overrides []Override `json:"overrides,omitempty"`
	// Rollout, when set, updates the targets of each placed object in
	// waves when its spec changes, each wave only once the one before is
	// healthy: targets not yet reached keep running the previous spec.
	// Unset updates every target at once.
	// +optional
	Rollout *RolloutStrategy `json:"rollout,omitempty"`
}

// RolloutStrategy is how a change of a placed object's spec reaches its
// targets.
type RolloutStrategy struct {
	// Waves are the steps, in order: each updates the targets of the
	// object that its selector picks and no wave before it did. Targets
	// no wave picks form a last wave. A wave of more than maxTargets
	// targets is cut into steps of maxTargets, by target name.
	// +listType=map
	// +listMapKey=name
	Waves []RolloutWave `json:"waves"`
	// SoakTime is how long every target of a wave must stay healthy
	// before the next wave starts; default 0.
	// +optional
	SoakTime *metav1.Duration `json:"soakTime,omitempty"`
	// ProgressDeadline is how long a wave may take to turn healthy before
	// it fails; default 10m.
	// +optional
	ProgressDeadline *metav1.Duration `json:"progressDeadline,omitempty"`
	// HealthChecks are CEL expressions over a target's report of the
	// object, each of which must be true, besides the new spec observed,
	// updated and available, for the target to be healthy. One that is
	// false, or fails, while the wave soaks fails the wave.
	// +optional
	// +listType=map
	// +listMapKey=name
	HealthChecks []HealthCheck `json:"healthChecks,omitempty"`
	// OnFailure is Pause (the default), which leaves every target where
	// it is, or Rollback, which returns the targets updated to the
	// previous spec.
	// +optional
	OnFailure RolloutFailurePolicy `json:"onFailure,omitempty"`
}

// RolloutWave is one step of a rollout.
type RolloutWave struct {
	// Name names the wave in status and Events.
	Name string `json:"name"`
	// Targets selects the wave's targets; unset selects every one left.
	// +optional
	Targets TargetSelector `json:"targets,omitempty"`
	// MaxTargets, a number or a percentage of the object's targets
	// (rounded up), is the most targets updated at once in the wave;
	// unset is all its targets.
	// +optional
	MaxTargets *intstr.IntOrString `json:"maxTargets,omitempty"`
}

// HealthCheck is a CEL expression over one target's report of an
// object: the variable status is the object's status there, as its
// syncer reports it, and generation the hub object's generation; as
// status.readyReplicas >= 2 or
// status.conditions.exists(c, c.type == 'Available' && c.status == 'True').
type HealthCheck struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
}

// RolloutFailurePolicy is what a failed wave does.
type RolloutFailurePolicy string

const (
	// RolloutPause leaves every target where it is, for a person to
	// resume or undo.
	RolloutPause RolloutFailurePolicy = "Pause"
	// RolloutRollback returns the updated targets to the previous spec.
	RolloutRollback RolloutFailurePolicy = "Rollback"
)

// Override is a rule changing the object the targets it selects receive.
type Override struct {
	// Name names the rule in explanations and errors.
	Name string `json:"name"`
	// Targets selects the targets the rule applies to; unset selects
	// every target the object goes to.
	// +optional
	Targets TargetSelector `json:"targets,omitempty"`
	// ObjectOverride is what the rule changes.
	workloadv1alpha1.ObjectOverride `json:",inline"`
}

// Inheritance says which logical clusters a placement applies to.
type Inheritance string

const (
	// InheritanceNone applies a placement to its own logical cluster.
	InheritanceNone Inheritance = "None"
	// InheritanceDescendants applies a placement also to the descendants
	// without placements of their own.
	InheritanceDescendants Inheritance = "Descendants"
)

// TargetSelector selects SyncTargets by both a label selector and a CEL
// expression; an unset part selects every target.
type TargetSelector struct {
	// LabelSelector selects targets by their labels.
	// +optional
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty"`
	// Expression is a CEL expression that is true for the targets
	// selected. It sees the target's name (string), labels
	// (map(string, string)) and allocatable (map(string, Quantity)), the
	// sum of the allocatable resources of its physical cluster's nodes,
	// as in: labels['region'] in ['eu-west', 'eu-central'] &&
	// allocatable['memory'].isGreaterThan(quantity('64Gi')). A target for
	// which it fails, as by reading a missing key, is not selected.
	// +optional
	Expression string `json:"expression,omitempty"`
}

// TargetSelection is which targets objects may go to, and in which order
// of preference.
type TargetSelection struct {
	// Every target objects go to matches this selector.
	TargetSelector `json:",inline"`
	// PreferenceGroups, when set, are ordered groups of targets. An
	// object goes to the targets of one group: the group it is on already
	// while any of its targets there stays eligible, otherwise the first
	// group with an eligible target. A target in no group is never
	// chosen, so a last group without selectors is the fallback to any
	// target.
	// +optional
	// +listType=map
	// +listMapKey=name
	PreferenceGroups []PreferenceGroup `json:"preferenceGroups,omitempty"`
}

// PreferenceGroup is one named group of targets in an order of
// preference.
type PreferenceGroup struct {
	// Name names the group in explanations.
	Name           string `json:"name"`
	TargetSelector `json:",inline"`
}

// StrategyType is how objects are shared among eligible targets.
type StrategyType string

const (
	// StrategySticky puts each object on one target, and keeps it there
	// while that target stays eligible.
	StrategySticky StrategyType = "Sticky"
	// StrategyDuplicate puts each object, whole, on every eligible
	// target.
	StrategyDuplicate StrategyType = "Duplicate"
	// StrategySpread puts each object, whole, on a number of targets
	// spread evenly across the values of a topology label.
	StrategySpread StrategyType = "Spread"
	// StrategyDivide divides the replicas of each object among the
	// eligible targets; an object without replicas goes to every target
	// that would get some.
	StrategyDivide StrategyType = "Divide"
)

// Strategy is how objects are shared among the eligible targets.
type Strategy struct {
	// Type is Sticky (the default), Duplicate, Spread or Divide.
	// +optional
	Type StrategyType `json:"type,omitempty"`
	// Spread is how a Spread strategy spreads; required for it, and only
	// for it.
	// +optional
	Spread *SpreadStrategy `json:"spread,omitempty"`
	// Divide is how a Divide strategy divides replicas; only for it.
	// +optional
	Divide *DivideStrategy `json:"divide,omitempty"`
}

// SpreadStrategy spreads each object over a number of targets across the
// values of a topology label.
type SpreadStrategy struct {
	// TopologyKey is the target label whose values are the domains to
	// spread across, as region or zone. Targets without it are not
	// chosen.
	TopologyKey string `json:"topologyKey"`
	// Targets is how many targets each object goes to.
	Targets int32 `json:"targets"`
	// MaxSkew is the most by which the number of an object's targets in
	// one domain may exceed that in another domain with eligible
	// targets; default 1. An object goes to fewer targets rather than
	// break it.
	// +optional
	MaxSkew int32 `json:"maxSkew,omitempty"`
}

// DivisionBasis is what replicas are divided in proportion to.
type DivisionBasis string

const (
	// DivideByWeights divides replicas in proportion to static weights.
	DivideByWeights DivisionBasis = "Weights"
	// DivideByCapacity divides replicas in proportion to the targets'
	// allocatable amount of one resource.
	DivideByCapacity DivisionBasis = "Capacity"
)

// DivideStrategy divides the replicas of each object among the eligible
// targets, exactly: the shares always sum to the object's replicas.
type DivideStrategy struct {
	// By is Weights (the default) or Capacity.
	// +optional
	By DivisionBasis `json:"by,omitempty"`
	// Weights, with By Weights, weigh each target by the first entry
	// whose selector it matches; a target matching none gets nothing.
	// Empty weighs every eligible target 1: an even division.
	// +optional
	// +listType=atomic
	Weights []TargetWeight `json:"weights,omitempty"`
	// Resource, with By Capacity, is the resource whose allocatable
	// amount weighs each target; default cpu.
	// +optional
	Resource corev1.ResourceName `json:"resource,omitempty"`
}

// TargetWeight is the weight of the targets a label selector selects.
type TargetWeight struct {
	// LabelSelector selects the targets weighed; unset selects all.
	// +optional
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty"`
	// Weight is their weight; 0 gives them nothing.
	Weight int32 `json:"weight"`
}

// Failover is when objects leave a target that is not ready.
type Failover struct {
	// Disabled keeps objects on a target however long it is not ready.
	// +optional
	Disabled bool `json:"disabled,omitempty"`
	// GracePeriod is how long a target may be not ready before its
	// objects move to other eligible targets; default 5m. A shorter gap,
	// as a network partition, moves nothing.
	// +optional
	GracePeriod *metav1.Duration `json:"gracePeriod,omitempty"`
}

// PlacementStatus is what the hub last decided for the placement.
type PlacementStatus struct {
	// ObservedGeneration is the generation of the spec decided on.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions are Schedulable: whether any target is eligible, and
	// if none is, why.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// Targets are every candidate target, with whether new objects may
	// go there and, if not, why, and what the placement put there.
	// +optional
	// +listType=map
	// +listMapKey=key
	Targets []TargetStatus `json:"targets,omitempty"`
}

// ConditionSchedulable is the condition type telling whether a placement
// has any eligible target.
const ConditionSchedulable = "Schedulable"

// TargetReason is why a target was or was not chosen.
type TargetReason string

const (
	// ReasonSelected: the object goes to the target.
	ReasonSelected TargetReason = "Selected"
	// ReasonEligible: objects may go to the target; which of the
	// eligible targets each object goes to is the strategy's choice.
	ReasonEligible TargetReason = "Eligible"
	// ReasonNotChosen: the target was eligible, and the strategy chose
	// others.
	ReasonNotChosen TargetReason = "NotChosen"
	// ReasonNotPreferred: the target was eligible, in a preference group
	// after the one chosen.
	ReasonNotPreferred TargetReason = "NotPreferred"
	// ReasonLabelMismatch: the target does not match the placement's
	// target selection.
	ReasonLabelMismatch TargetReason = "LabelMismatch"
	// ReasonConstraint: a PlacementConstraint does not allow the target.
	ReasonConstraint TargetReason = "Constraint"
	// ReasonTaint: the target has a taint the placement does not
	// tolerate.
	ReasonTaint TargetReason = "Taint"
	// ReasonCordoned: the target is unschedulable.
	ReasonCordoned TargetReason = "Cordoned"
	// ReasonNotReady: the target's syncer does not report it ready.
	ReasonNotReady TargetReason = "NotReady"
	// ReasonInsufficientCapacity: the target cannot hold the object.
	ReasonInsufficientCapacity TargetReason = "InsufficientCapacity"
	// ReasonResourceNotAccepted: the target's syncer does not sync the
	// object's resource.
	ReasonResourceNotAccepted TargetReason = "ResourceNotAccepted"
)

// TargetStatus is one candidate target of a placement.
type TargetStatus struct {
	// Cluster is the logical cluster the SyncTarget is in.
	Cluster string `json:"cluster"`
	// Name is the SyncTarget's name.
	Name string `json:"name"`
	// Key is the target's key, workloadv1alpha1.TargetKey.
	Key string `json:"key"`
	// Reason is Eligible, or why new objects may not go to the target.
	Reason TargetReason `json:"reason"`
	// Message says the reason for people: which label, taint or
	// constraint.
	// +optional
	Message string `json:"message,omitempty"`
	// Objects is how many objects the placement put on the target.
	// +optional
	Objects int32 `json:"objects,omitempty"`
	// Replicas is how many replicas of those objects the target runs.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PlacementList is a list of Placements.
type PlacementList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Placement `json:"items"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PlacementConstraint bounds the targets that the placements of its
// logical cluster and of all its descendants may choose. Those of
// ancestors bind too: a placement may choose only the targets that every
// one of them allows.
type PlacementConstraint struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	Spec PlacementConstraintSpec `json:"spec,omitempty"`
}

// PlacementConstraintSpec is what a constraint allows.
type PlacementConstraintSpec struct {
	// AllowedTargets are the only targets placements may choose, as
	// "only targets with region in (eu-west, eu-central)" for data
	// residency.
	AllowedTargets TargetSelector `json:"allowedTargets"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PlacementConstraintList is a list of PlacementConstraints.
type PlacementConstraintList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []PlacementConstraint `json:"items"`
}
