// Package placement decides where objects run: given a Placement, the
// PlacementConstraints that bind it, the candidate SyncTargets and an
// object, which targets the object goes to, with what share of its
// replicas, and why each other target was not chosen. It is pure: no
// reads, no writes, no clock of its own, so that a decision can be made
// for real by the placement controller, predicted by a dry run, and
// tested, all alike.
//
// # Inputs
//
// The candidates of a placement are the SyncTargets of the logical
// cluster of the objects it places and of that cluster's ancestors
// (Lineage): the platform registers physical clusters high in the tree,
// and every team below can use them, unless a target's
// spec.logicalClusters names only some of the logical clusters below it.
// The constraints are the PlacementConstraints of the same lineage, all
// of them: a target is allowed only if every one allows it. A child's
// admins cannot write their parent's constraints, so governance only
// narrows going down, and a placement cannot escape it: its own
// selectors select among the allowed targets. Which placement places an
// object is Applicable (the logical cluster's own placements, or the
// nearest inherited default) then Choose (the highest priority
// selecting the object's namespace and resource). NewScope does the
// first for a logical cluster, from what each logical cluster of its
// lineage holds; ObjectFrom reads an object as placement sees it, with
// the targets it is on now. The controller and hub placement explain
// both resolve through them, so that a dry run predicts what the
// controller does.
//
// # Decisions
//
// Compile turns a placement and its constraints into a Policy once:
// selectors parsed, CEL expressions compiled. Policy.Evaluate judges
// every candidate at one instant, apart from any object, with the first
// reason found, from the most lasting to the most passing: Constraint,
// LabelMismatch (the placement's selectors, its preference groups, the
// spread topology label), a zero Divide weight or capacity, a resource
// no placed type is synced by, then Taint, Cordoned and NotReady. The
// last three distinguish what excludes a target for every object from
// what only keeps new objects off it: a NoSchedule taint, a cordon, a
// NoExecute taint still tolerated for a while, and a target NotReady
// within the grace period (or at all, with failover disabled) hold the
// objects already there and take no new one. Evaluation.Explain and
// Condition are what a placement's status says per target.
//
// Evaluation.Decide adds the object's own part: whether the target syncs
// the object's resource and has room for it (InsufficientCapacity, from
// the object's per-replica requests and the target's allocatable), and
// the strategy. The object stays in the preference group it is in while
// any of its targets there is eligible, else goes to the first group
// with an eligible target; so a recovered preferred group does not pull
// objects back and forth. Within the group:
//
//   - Sticky keeps the object on its current target while eligible, else
//     takes the target of highest rendezvous score for the object: each
//     object ranks targets by a hash of both, so objects spread evenly
//     over equal targets and a target coming or going moves only the
//     objects it wins or held.
//   - Duplicate takes every eligible target.
//   - Spread takes targets one at a time in the topology domain with the
//     fewest taken, current targets first, stopping at the number asked
//     for or where the next would make two domains differ by more than
//     maxSkew: fewer targets rather than a broken skew, and said so.
//   - Divide shares the replicas in proportion to static weights or to
//     the targets' allocatable amount of a resource, by the largest
//     remainder method in exact integer arithmetic, ties to current
//     targets then to score: the shares always sum to the replicas, and
//     the same inputs give the same shares. A target's share is capped by
//     what it can hold, and a target that only keeps what it has (a
//     NoSchedule taint, say) by its current share; replicas beyond every
//     cap are divided among the targets full for want of capacity alone,
//     where they pend, and the decision says so.
//
// # Failover
//
// Time enters only as the now of Evaluate, and RecheckAt says when the
// verdicts change by time alone (a grace period or a toleration ending),
// for the controller to decide again then rather than poll. A target
// NotReady for less than its grace period keeps its objects: a heartbeat
// gap or a partition moves nothing. After it, the decision leaves the
// target out, and the controller carries the move out make-before-break:
// it assigns the new targets at once, and removes the old assignment only
// once the object is Available on the new ones, rate-limiting how many
// moves run at a time. A target missing from the candidates is one whose
// SyncTarget is gone; the controller must decide only from a complete
// list, so that a failed list never evicts anything.
package placement
