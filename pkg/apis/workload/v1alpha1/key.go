package v1alpha1

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// The labels and annotations by which hub objects are assigned to targets
// and downstream objects name their origin.
const (
	// StateLabelPrefix + a target's key is the label assigning a hub
	// object to that target, with value StateSync. One label per target
	// lets one object be assigned to several.
	StateLabelPrefix = "state.workload.canopy.dev/"
	// StateSync is the value of the assignment label.
	StateSync = "Sync"
	// FinalizerPrefix + a target's key is the finalizer the target's
	// syncer holds on each hub object it syncs, until the object is gone
	// downstream.
	FinalizerPrefix = "workload.canopy.dev/syncer-"
	// TargetKeyLabel is on every downstream object and namespace a
	// syncer made, with its target's key as value.
	TargetKeyLabel = "workload.canopy.dev/target-key"
	// OriginClusterAnnotation, OriginNamespaceAnnotation and
	// OriginNameAnnotation are where a downstream object, or a downstream
	// namespace for the first two, comes from at the hub.
	OriginClusterAnnotation   = "workload.canopy.dev/origin-cluster"
	OriginNamespaceAnnotation = "workload.canopy.dev/origin-namespace"
	OriginNameAnnotation      = "workload.canopy.dev/origin-name"
	// HubGenerationAnnotation is the metadata.generation of the hub object
	// that a downstream object was last applied from.
	HubGenerationAnnotation = "workload.canopy.dev/hub-generation"
	// UpsyncedLabel marks, with the target's key as value, each pod and Event that a
	// syncer copied to the hub from its physical cluster: a record of what
	// runs there, which nothing at the hub runs or changes.
	UpsyncedLabel = "workload.canopy.dev/upsynced"
	// ReportedByLabel marks, with the target's key as value, each Event a
	// syncer records at the hub about a hub object, such as a conflict
	// downstream: its own report, which no Event downstream mirrors.
	ReportedByLabel = "workload.canopy.dev/reported-by"
	// RevisionRecordLabel marks, with value "true", each ReplicaSet or
	// ControllerRevision the hub keeps as the record of a revision of a
	// Deployment, StatefulSet or DaemonSet (pkg/controller/rollouthistory):
	// read-only, never placed, as kubectl rollout history and undo read it.
	RevisionRecordLabel = "workload.canopy.dev/revision-record"
)

// Annotations of a hub object assigned to several targets, one per
// target, by the prefix and the target's key.
const (
	// ReplicasAnnotationPrefix + a target's key holds the number of
	// replicas the target runs of the object, where placement divides
	// them; the syncer applies it as spec.replicas downstream.
	ReplicasAnnotationPrefix = "replicas.workload.canopy.dev/"
	// StatusAnnotationPrefix + a target's key holds, as JSON, the status
	// of the object at the target, which its syncer writes there rather
	// than to the status the targets share; the hub aggregates them into
	// that status (pkg/controller/statusaggregation).
	StatusAnnotationPrefix = "status.workload.canopy.dev/"
)

// PlacedAnnotation lists, sorted and separated by commas, the keys of the
// targets whose assignment label placement set on a hub object
// (pkg/controller/placement): the labels, and their replicas
// annotations, that placement may change or remove again. An assignment
// label it did not set, as one written by hand, it leaves alone.
const PlacedAnnotation = "workload.canopy.dev/placed"

// LeavingAnnotation lists, sorted and separated by commas, the keys of
// the targets a hub object is moving off, make-before-break: placement
// keeps their labels and shares only until the targets it moves to, the
// others it placed the object on, run it. It is the record of a move in
// flight, which placement finishes even if the placement that started
// it is gone meanwhile.
const LeavingAnnotation = "workload.canopy.dev/leaving"

// StatusAnnotation is the annotation holding the status of a hub object
// at the target of key.
func StatusAnnotation(key string) string { return StatusAnnotationPrefix + key }

// ConditionSyncFailed is the condition type that a syncer sets True on
// a hub object while the physical cluster of its target refuses it, as
// with a 422 or an admission policy's denial there, its message naming
// the target and quoting the physical cluster. It is removed once the
// object is synced. Where the object is assigned to several targets, it
// is in the status each reports, and the aggregated status has it True
// where any target does, naming each (pkg/controller/statusaggregation).
const ConditionSyncFailed = "SyncFailed"

// ReplicasAnnotation is the annotation holding the replicas of a hub
// object at the target of key.
func ReplicasAnnotation(key string) string { return ReplicasAnnotationPrefix + key }

// Targets are the keys of the targets obj's labels assign it to, sorted.
func Targets(labels map[string]string) []string {
	var keys []string
	for l, v := range labels {
		if key, ok := strings.CutPrefix(l, StateLabelPrefix); ok && v == StateSync {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// SyncersGroup is the group of every syncer's hub credential, which
// confines it to what its target's syncer needs (pkg/syncerscope).
const SyncersGroup = "canopy:syncers"

// syncTargetGroupPrefix + "<cluster>:<name>" is the group naming the
// SyncTarget a syncer's hub credential is for.
const syncTargetGroupPrefix = "canopy:synctarget:"

// TargetKey is the stable key of the SyncTarget name in logical cluster
// cluster: the first 16 lowercase hex digits of the SHA-256 of
// "<cluster>:<name>", short enough for a label name and the same wherever
// it is computed.
func TargetKey(cluster, name string) string {
	return shortHash(cluster + ":" + name)
}

// StateLabel is the label assigning a hub object to the target of key.
func StateLabel(key string) string { return StateLabelPrefix + key }

// SyncerUser is the user name at the hub of the syncer of the target of
// key, the CommonName of its client certificate.
func SyncerUser(key string) string { return "syncer:" + key }

// SyncTargetGroup is the group, besides SyncersGroup, of the hub
// credential of the syncer of SyncTarget name in logical cluster cluster.
func SyncTargetGroup(cluster, name string) string {
	return syncTargetGroupPrefix + cluster + ":" + name
}

// SyncTargetOfGroup is the logical cluster and name of the SyncTarget
// that group, a SyncTargetGroup, names.
func SyncTargetOfGroup(group string) (cluster, name string, ok bool) {
	path, ok := strings.CutPrefix(group, syncTargetGroupPrefix)
	if !ok {
		return "", "", false
	}
	i := strings.LastIndex(path, ":")
	if i <= 0 || i == len(path)-1 {
		return "", "", false
	}
	return path[:i], path[i+1:], true
}

// syncTargetUIDGroupPrefix + the SyncTarget's UID is the group binding a
// syncer's hub credential to the SyncTarget it was issued for: deleted,
// or deleted and created again under the same name, the target has
// another UID or none, and the credential is revoked.
const syncTargetUIDGroupPrefix = "canopy:synctarget-uid:"

// SyncTargetUIDGroup is the group, besides SyncersGroup and
// SyncTargetGroup, of the hub credential of the syncer of the SyncTarget
// of uid.
func SyncTargetUIDGroup(uid string) string { return syncTargetUIDGroupPrefix + uid }

// SyncTargetUIDOfGroup is the UID that group, a SyncTargetUIDGroup,
// names.
func SyncTargetUIDOfGroup(group string) (uid string, ok bool) {
	uid, ok = strings.CutPrefix(group, syncTargetUIDGroupPrefix)
	return uid, ok && uid != ""
}

// The keys of the extra information the hub's client certificate
// authenticator gives each user: the certificate's issue time (its
// NotBefore, RFC 3339) and serial number (hexadecimal). A syncer's
// credential issued before its SyncTarget's
// status.credentialNotBefore or spec.credentialsNotBefore is revoked.
const (
	CredentialIssuedExtra = "workload.canopy.dev/credential-issued"
	CredentialSerialExtra = "workload.canopy.dev/credential-serial"
)

// OwnerAnnotation is on each pod a syncer copies to the hub: the hub
// object whose pods it is, as "<resource>.<group>/<name>" (Owner), in the
// pod's namespace. The hub lets the syncer write only the pods of objects
// assigned to its target. It is no ownerReference, which would have the
// hub's garbage collector delete the copy behind the syncer's back.
const OwnerAnnotation = "workload.canopy.dev/owner"

// Owner is the value of OwnerAnnotation for object name of resource.
func Owner(resource GroupResource, name string) string { return resource.String() + "/" + name }

// OwnerOf is the resource and name that value, an Owner, names.
func OwnerOf(value string) (GroupResource, string, bool) {
	resource, name, ok := strings.Cut(value, "/")
	if !ok || resource == "" || name == "" {
		return GroupResource{}, "", false
	}
	r, group, _ := strings.Cut(resource, ".")
	return GroupResource{Group: group, Resource: r}, name, true
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// DownstreamNamespace is the namespace in a physical cluster that holds
// what the syncer of the target of key synced from namespace of logical
// cluster cluster: "canopy-" and the first 16 hex digits of the SHA-256
// of "<key>/<cluster>/<namespace>", so that equal namespaces of
// different logical clusters never meet, nor do the copies of one
// namespace for two targets that share a physical cluster, as targets
// partitioning a big cluster do. Its TargetKeyLabel and origin
// annotations record the same three.
//
// A namespace of the name LegacyDownstreamNamespace gives, which syncers
// made before the key was part of the name, is adopted rather than
// renamed (see the syncer's downstreamNamespace).
func DownstreamNamespace(key, cluster, namespace string) string {
	return "canopy-" + shortHash(key+"/"+cluster+"/"+namespace)
}

// LegacyDownstreamNamespace is the name syncers gave the downstream
// namespace of namespace of logical cluster cluster before the target's
// key was part of it: "canopy-" and the first 16 hex digits of the
// SHA-256 of "<cluster>/<namespace>". It was unambiguous only while one
// target served each physical cluster, so that a namespace of this name
// found labelled with a target's key is that target's.
func LegacyDownstreamNamespace(cluster, namespace string) string {
	return "canopy-" + shortHash(cluster+"/"+namespace)
}

// UsableFrom tells whether the objects of logical cluster cluster may be
// assigned to a SyncTarget of logical cluster targetCluster whose spec
// lists logicalClusters: cluster is targetCluster or below it and, if
// any are listed, one of them or below one.
func UsableFrom(targetCluster string, logicalClusters []string, cluster string) bool {
	if !within(cluster, targetCluster) {
		return false
	}
	return len(logicalClusters) == 0 || slices.ContainsFunc(logicalClusters, func(c string) bool { return within(cluster, c) })
}

// within tells whether logical cluster cluster is root or below it.
func within(cluster, root string) bool {
	return cluster == root || strings.HasPrefix(cluster, root+":")
}

// StatusReportName is the name of the StatusReport of the target of key
// on the object name of resource (as deployments.apps): the object's
// name, cut so that the whole fits in a name, and the first 16 hex
// digits of the SHA-256 of resource/name/key, so that each target's
// syncer and the hub find a report without a list, and no two targets'
// reports on one object, nor one target's on two objects, share it.
func StatusReportName(resource, name, key string) string {
	sum := sha256.Sum256([]byte(resource + "/" + name + "/" + key))
	suffix := "-" + hex.EncodeToString(sum[:8])
	// A cut name ending in a dot or dash would make an invalid one.
	return strings.TrimRight(name[:min(len(name), validation.DNS1123SubdomainMaxLength-len(suffix))], ".-") + suffix
}
