package hub

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apiserver/pkg/audit/policy"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
)

// DefaultAuditPolicy is the audit.k8s.io/v1 Policy of a hub that writes an
// audit log (--audit-log-path) and was given no --audit-policy-file. It
// answers who changed what governs a logical cluster, and records no more
// than that:
//
//   - Placements, PlacementConstraints, SyncTargets, LogicalClusters and
//     RBAC objects: every create, update, patch, delete and
//     deletecollection at RequestResponse, so with the object sent and
//     the one stored;
//   - every other write at Metadata: user, verb, object and outcome, but
//     no objects, which keeps Secrets out of the log;
//   - every exec, attach and port-forward at Metadata, also those a
//     WebSocket asks for with a get: who reached into which pod;
//   - nothing for reads and watches, for SyncTargets' status, which every
//     syncer writes as its heartbeat each 10s, nor for the
//     SelfSubjectReviews, SelfSubjectAccessReviews and
//     SelfSubjectRulesReviews kubectl auth creates to ask rather than
//     change.
//
// A request gives one event, once its response is complete, and the
// objects in it leave out their managedFields.
const DefaultAuditPolicy = `# The hub's default audit policy, written on each start with --audit-log-path
# and no --audit-policy-file. To change it, edit a copy and pass that as
# --audit-policy-file.
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
# Syncers' heartbeats.
- level: None
  resources:
  - group: workload.canopy.dev
    resources: [synctargets/status]
# Questions kubectl auth asks by creating them.
- level: None
  resources:
  - group: authentication.k8s.io
    resources: [selfsubjectreviews]
  - group: authorization.k8s.io
    resources: [selfsubjectaccessreviews, selfsubjectrulesreviews]
# Where workloads may and should run, which logical clusters exist, and who
# may do what: who changed it, and to what.
- level: RequestResponse
  verbs: [create, update, patch, delete, deletecollection]
  resources:
  - group: placement.canopy.dev
    resources: [placements, placementconstraints]
  - group: workload.canopy.dev
    resources: [synctargets]
  - group: tenancy.canopy.dev
    resources: [logicalclusters]
  - group: rbac.authorization.k8s.io
# Commands run in running pods and connections made to them: who, in which
# pod, whichever protocol asked (a WebSocket asks with a get).
- level: Metadata
  resources:
  - group: ""
    resources: [pods/exec, pods/attach, pods/portforward]
# Any other change: who changed which object, without its content.
- level: Metadata
  verbs: [create, update, patch, delete, deletecollection]
# Reads and watches match no rule, and so are not recorded.
`

// defaultAuditPolicyFile is where, in the data directory, the hub writes
// DefaultAuditPolicy for upstream's audit options, which read a policy
// only from a file; there operators also find the policy in force.
const defaultAuditPolicyFile = "default-audit-policy.yaml"

// applyAudit sets cfg's audit backend and policy from o, as kube-apiserver
// does from its --audit-* flags, with DefaultAuditPolicy when o names a
// log and no policy.
func applyAudit(cfg *genericapiserver.Config, o *genericoptions.AuditOptions, dataDir string) error {
	if o == nil || o.LogOptions.Path == "" {
		if o != nil && o.PolicyFile != "" {
			return fmt.Errorf("--audit-policy-file %s has no effect without --audit-log-path, the file to write the audit log to (- for standard output)", o.PolicyFile)
		}
		return nil
	}
	if err := errors.Join(o.Validate()...); err != nil {
		return err
	}
	withPolicy := *o
	if withPolicy.PolicyFile == "" {
		withPolicy.PolicyFile = filepath.Join(dataDir, defaultAuditPolicyFile)
		if err := os.WriteFile(withPolicy.PolicyFile, []byte(DefaultAuditPolicy), 0o600); err != nil {
			return err
		}
	}
	// Loaded first for its own error: ApplyTo's would not tell a bad
	// policy from a log file it cannot write.
	if _, err := policy.LoadPolicyFromFile(withPolicy.PolicyFile); err != nil {
		return fmt.Errorf("--audit-policy-file: %w; it must be an audit.k8s.io/v1 Policy, see https://kubernetes.io/docs/tasks/debug/debug-cluster/audit/", err)
	}
	if err := withPolicy.ApplyTo(cfg); err != nil {
		return fmt.Errorf("--audit-log-path %s: %w", o.LogOptions.Path, err)
	}
	return nil
}
