package hub

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	auditinternal "k8s.io/apiserver/pkg/apis/audit"
	"k8s.io/apiserver/pkg/audit/policy"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	genericapiserver "k8s.io/apiserver/pkg/server"
	genericoptions "k8s.io/apiserver/pkg/server/options"
)

func TestDefaultAuditPolicy(t *testing.T) {
	p, err := policy.LoadPolicyFromBytes([]byte(DefaultAuditPolicy))
	if err != nil {
		t.Fatal(err)
	}
	evaluator := policy.NewPolicyRuleEvaluator(p)
	alice := &user.DefaultInfo{Name: "alice"}
	for _, tc := range []struct {
		verb, group, resource, subresource string
		want                               auditinternal.Level
	}{
		{"create", "placement.canopy.dev", "placements", "", auditinternal.LevelRequestResponse},
		{"update", "placement.canopy.dev", "placements", "", auditinternal.LevelRequestResponse},
		{"patch", "placement.canopy.dev", "placementconstraints", "", auditinternal.LevelRequestResponse},
		{"delete", "placement.canopy.dev", "placementconstraints", "", auditinternal.LevelRequestResponse},
		{"deletecollection", "placement.canopy.dev", "placements", "", auditinternal.LevelRequestResponse},
		{"update", "workload.canopy.dev", "synctargets", "", auditinternal.LevelRequestResponse},
		{"create", "tenancy.canopy.dev", "logicalclusters", "", auditinternal.LevelRequestResponse},
		{"create", "rbac.authorization.k8s.io", "rolebindings", "", auditinternal.LevelRequestResponse},
		{"update", "placement.canopy.dev", "placements", "status", auditinternal.LevelMetadata},
		{"create", "", "secrets", "", auditinternal.LevelMetadata},
		{"patch", "apps", "deployments", "status", auditinternal.LevelMetadata},
		{"update", "workload.canopy.dev", "synctargets", "status", auditinternal.LevelNone},
		{"patch", "workload.canopy.dev", "synctargets", "status", auditinternal.LevelNone},
		{"create", "authorization.k8s.io", "selfsubjectaccessreviews", "", auditinternal.LevelNone},
		{"create", "authentication.k8s.io", "selfsubjectreviews", "", auditinternal.LevelNone},
		{"get", "placement.canopy.dev", "placements", "", auditinternal.LevelNone},
		{"list", "rbac.authorization.k8s.io", "roles", "", auditinternal.LevelNone},
		{"watch", "workload.canopy.dev", "synctargets", "", auditinternal.LevelNone},
		{"get", "", "secrets", "", auditinternal.LevelNone},
		{"get", "", "pods", "log", auditinternal.LevelNone},
		{"create", "", "pods", "exec", auditinternal.LevelMetadata},
		{"get", "", "pods", "exec", auditinternal.LevelMetadata},
		{"get", "", "pods", "attach", auditinternal.LevelMetadata},
		{"get", "", "pods", "portforward", auditinternal.LevelMetadata},
	} {
		got := evaluator.EvaluatePolicyRule(authorizer.AttributesRecord{
			User: alice, Verb: tc.verb, APIGroup: tc.group, Resource: tc.resource, Subresource: tc.subresource, ResourceRequest: true, Name: "x",
		})
		if got.Level != tc.want {
			t.Errorf("%s %s/%s %s: level %s, want %s", tc.verb, tc.group, tc.resource, tc.subresource, got.Level, tc.want)
		}
		if got.Level != auditinternal.LevelNone && (len(got.OmitStages) != 1 || got.OmitStages[0] != auditinternal.StageRequestReceived || !got.OmitManagedFields) {
			t.Errorf("%s %s/%s: omits stages %v, managedFields %v; want one event, without managedFields", tc.verb, tc.group, tc.resource, got.OmitStages, got.OmitManagedFields)
		}
	}
	if got := evaluator.EvaluatePolicyRule(authorizer.AttributesRecord{User: alice, Verb: "get", Path: "/readyz"}); got.Level != auditinternal.LevelNone {
		t.Errorf("GET /readyz: level %s, want None", got.Level)
	}
}

func TestApplyAudit(t *testing.T) {
	dir := t.TempDir()
	cfg := &genericapiserver.Config{}
	if err := applyAudit(cfg, genericoptions.NewAuditOptions(), dir); err != nil || cfg.AuditBackend != nil || cfg.AuditPolicyRuleEvaluator != nil {
		t.Errorf("no log path: err %v, backend %v, policy %v; want no audit", err, cfg.AuditBackend, cfg.AuditPolicyRuleEvaluator)
	}

	o := genericoptions.NewAuditOptions()
	o.LogOptions.Path = filepath.Join(dir, "audit.log")
	if err := applyAudit(cfg, o, dir); err != nil || cfg.AuditBackend == nil || cfg.AuditPolicyRuleEvaluator == nil {
		t.Fatalf("log path alone: err %v, backend %v, policy %v", err, cfg.AuditBackend, cfg.AuditPolicyRuleEvaluator)
	}
	if written, err := os.ReadFile(filepath.Join(dir, defaultAuditPolicyFile)); err != nil || string(written) != DefaultAuditPolicy {
		t.Errorf("the default policy in the data directory: %v\n%s", err, written)
	}
	if o.PolicyFile != "" {
		t.Errorf("applyAudit changed its options' policy file to %s", o.PolicyFile)
	}

	o.PolicyFile = filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(o.PolicyFile, []byte("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := applyAudit(&genericapiserver.Config{}, o, dir); err == nil || !strings.Contains(err.Error(), "--audit-policy-file") || !strings.Contains(err.Error(), `Unsupported value: "Everything"`) {
		t.Errorf("a bad level: %v", err)
	}

	o.LogOptions.Path = ""
	if err := applyAudit(&genericapiserver.Config{}, o, dir); err == nil || !strings.Contains(err.Error(), "without --audit-log-path") {
		t.Errorf("a policy without a log: %v", err)
	}
}
