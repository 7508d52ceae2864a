// Package placement is the placement controller: it carries out, on the
// hub objects of every logical cluster, the decisions of the placement
// engine (pkg/placement), and writes each Placement's status.
//
// # What it reads
//
// One instance serves every logical cluster. It reads, across all of
// them, the Placements, PlacementConstraints and SyncTargets from their
// shared informers into memory (world.go), and places no object before
// all three are listed: a decision made from a partial list could move
// objects off targets missing from it. Then it places every object once.
// A broken watch lists again, and the informer tells what changed
// meanwhile; until then decisions use what was last known, so a failed
// list evicts nothing. A SyncTarget's heartbeat changes nothing placement
// reads and is dropped; its Ready condition, labels, taints, cordon,
// resources and allocatable do. Per logical cluster with objects to
// place it compiles, on first use after a change, its scope: the
// placements that apply there (its own, or the nearest ancestor's with
// inheritance Descendants), compiled with the constraints of its lineage,
// and the SyncTargets of its lineage; and keeps each policy's evaluation
// until its RecheckAt. A change of the world forgets only the scopes it
// concerns and queues only the objects of the region it concerns: a
// namespace, a logical cluster, or one and its descendants.
//
// The objects placed are those of every resource the hub stores that a
// SyncTarget may accept (Config.Resources), read from their shared
// informers across all logical clusters; an event queues an object only
// where some placement applies, and only in the logical clusters this
// replica owns, so a logical cluster without placements costs a map
// lookup per change.
//
// # What it writes
//
// An object in a namespace that no applicable placement selects is left
// alone, but for a move in flight (see below). For the others, the
// decision is carried out by assign on the object's assignment labels
// (state.workload.canopy.dev/<key>=Sync) and replicas annotations
// (replicas.workload.canopy.dev/<key>, only where the replicas are
// divided), in one write, and only when they differ. Placement records
// the keys of the labels it set in workload.canopy.dev/placed, and
// adds, changes or removes only those: a label written by hand, as
// before placement existed, stays, and its target is not placement's to
// move. Who may write one by hand is pkg/admission/assignment's to
// decide, which lets placement's own writes pass.
//
// The objects are the users', so placement writes them through the API,
// as a user of its own (pkg/loopback): the admission policies of the
// object's logical cluster and its ancestors judge the write as they
// would a user's, and the audit log and managedFields name placement. A
// write the hub refuses leaves the object as it was and says why on it,
// in a Warning Event AssignmentRefused that names the targets and quotes
// the refusal (once per message, as the Unplaceable Event below); the
// object is tried again after a backoff that doubles with each refusal,
// up to five minutes, and at once when it changes.
//
// The write is a JSON patch of those labels and annotations alone, whose
// tests are a precondition on what the decision read of the object: its
// UID, labels, annotations, finalizers and generation (or, for a kind
// that keeps none, its resourceVersion). A write of anything else, as
// status aggregation's of the status, does not conflict with it; a
// change of any of these fails the patch, and the object is decided
// again on the change's event (assignmentPatch). It does not touch
// the fields users and their tools write, so they do not fight over
// them: kubectl apply computes its patch from its last-applied
// annotation, which does not name placement's labels, and leaves them;
// server-side apply owns, for a user's field manager, only the fields the
// user applies, and leaves the others (placement's write is recorded
// under its own field manager, placement); gitops tools comparing what
// they apply with the live object see the same. Only a client that
// replaces the whole object removes them, and the watch puts them back.
// The syncer does not copy the placed annotation downstream.
//
// # Moves, make-before-break
//
// An object leaves a target placement put it on when the decision no
// longer selects it: the target failed for longer than the placement's
// grace period (the engine's evaluation knows when, and the object is
// queued again at its RecheckAt), a taint, label, placement or
// constraint changed. The new targets are assigned, and shares changed,
// first; the old target keeps its label and share until every selected
// target reports the object available (availableAt: its syncer holds the
// object and, for a resource with a status, reports in its StatusReport
// (pkg/statusreport, or the annotation status.workload.canopy.dev/<key>
// of a syncer of an earlier release) the generation observed, the
// replicas available and Available true). The syncers' reports queue the
// object again, so no polling waits. With no target selected nothing is
// released: an object always runs somewhere it ran. When a released
// target's syncer returns, it finds the object unassigned and deletes
// its copy downstream. The start of a move takes a token of a bucket
// shared by the hub (DefaultMovesPerSecond, DefaultMoveBurst); without
// one the object waits and is queued again. A placement with failover
// disabled holds objects on a target however long it is not ready; the
// engine decides so.
//
// A move in flight is recorded on the object, in
// workload.canopy.dev/leaving: the targets it leaves; the others placement
// put it on are those it moves to, with their new shares. Should the
// placement be deleted, or stop selecting the object, before the move
// ends, the move still ends as it would have: the targets it leaves are
// released once those it moves to run their shares, and not before, so
// the object neither loses the replicas that run nor stays assigned to
// both, with shares adding up to more than its replicas. Objects so
// marked are watched whether or not a placement applies. Placement then
// leaves the object alone: its labels stay where the move put them, and
// a placement that selects it later moves it from there.
//
// # Objects placed nowhere
//
// An object a placement selects but can put on no target (every one
// cordoned, tainted, not allowed by a constraint or spec.logicalClusters,
// not Ready, full...) says why on itself (unplaceable.go), for whoever
// may read the object, though not Placements: for a kind whose status
// has conditions, condition Placed=False, with the targets' common reason
// (or NoEligibleTarget) and the engine's explanation; for every kind, a
// Warning Event Unplaceable saying the same. Both are written when the
// targets' reasons change, not at every look: the Event's name is made of
// the object's UID and those reasons, so a hub replica, or one that
// restarted, records it once. Once the object is placed the condition
// goes rather than turning True: the status is then the syncers' to
// write, copied from downstream, and a Placed=True would be overwritten
// by each of them and written back by placement. The condition goes too
// when no placement selects the object any more. ConfigMaps, Secrets and
// the other kinds without status conditions have the Event alone.
//
// # Leases
//
// A workload placed on no target yet, whose subtree takes more compute
// (requests and limits of CPU and memory, replicas) than a lease above it
// holds, is not placed (leases.go): its Placed condition is False with
// reason LeaseExceeded, naming the lease, and the Placements of its
// logical cluster have the condition LeasesHeld=False saying the same.
// Admission refuses a workload that does not fit its leases, so this
// holds back only what got past them: workloads stored before a lease was
// given, or admitted on a replica that did not hold it yet. What runs
// already stays. The accounts are the recount's, read from the shared
// informer of ClusterQuotas; a lease queues its subtree again only when
// it starts or stops holding back, not at each charge to its account,
// which every create under it makes. An inherited placement's status
// does not tell of the leases of its descendants.
//
// # Status
//
// Each Placement's status lists the candidate targets of its own logical
// cluster with the engine's explanation (Eligible, or why not), the
// number of objects and replicas it put on each (an inherited placement
// counts those of its descendants too, on these targets), and the
// Schedulable condition. It is written a moment after a change, so that
// a burst of objects costs one write, and only when it differs, by the
// replica owning the placement's logical cluster. The objects of its
// descendants may be other replicas' to place, so the counts are not
// made of what this replica wrote: every replica records, for each
// object of every logical cluster its informers hold, the placement that
// selects it and the targets its labels and annotations say placement
// put it on (counts.go).
package placement
