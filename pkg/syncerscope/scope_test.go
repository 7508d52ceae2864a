package syncerscope

import (
	"context"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestCredentials checks that only a consistent syncer credential is
// taken for one, and that an inconsistent one is denied everything.
func TestCredentials(t *testing.T) {
	key := workloadv1alpha1.TargetKey("root:platform", "pc1")
	for _, tc := range []struct {
		name    string
		u       user.Info
		syncer  bool
		problem string
	}{
		{"syncer", &user.DefaultInfo{Name: "syncer:" + key, Groups: []string{workloadv1alpha1.SyncersGroup, workloadv1alpha1.SyncTargetGroup("root:platform", "pc1")}}, true, ""},
		{"no syncer", &user.DefaultInfo{Name: "syncer:" + key, Groups: []string{workloadv1alpha1.SyncTargetGroup("root:platform", "pc1")}}, false, ""},
		{"no target", &user.DefaultInfo{Name: "syncer:" + key, Groups: []string{workloadv1alpha1.SyncersGroup}}, true, "must also name its SyncTarget"},
		{"another target", &user.DefaultInfo{Name: "syncer:" + key, Groups: []string{workloadv1alpha1.SyncersGroup, workloadv1alpha1.SyncTargetGroup("root", "pc1")}}, true, "must be of user"},
		{"malformed target", &user.DefaultInfo{Name: "syncer:" + key, Groups: []string{workloadv1alpha1.SyncersGroup, "canopy:synctarget:pc1"}}, true, "must also name its SyncTarget"},
	} {
		_, syncer, err := targetOf(tc.u)
		if syncer != tc.syncer || (err == nil) != (tc.problem == "") || err != nil && !strings.Contains(err.Error(), tc.problem) {
			t.Errorf("%s: syncer %v, error %v; want %v, %q", tc.name, syncer, err, tc.syncer, tc.problem)
		}
		if !tc.syncer || tc.problem == "" {
			continue
		}
		// Nothing is read, or asked of the next authorizer, for an
		// inconsistent credential.
		d, reason, err := New(nil, nil).Authorize(context.Background(), authorizer.AttributesRecord{User: tc.u, Verb: "get", Path: "/api"})
		if d != authorizer.DecisionDeny || err != nil || !strings.Contains(reason, tc.problem) {
			t.Errorf("%s: %v, %q, %v; want a denial", tc.name, d, reason, err)
		}
	}
}

// TestRequires checks which label selectors confine a list to one label
// value.
func TestRequires(t *testing.T) {
	for selector, want := range map[string]bool{
		"k=v":             true,
		"k==v":            true,
		"k in (v)":        true,
		"app=web,k=v":     true,
		"k in (v,w)":      false,
		"k!=w":            false,
		"k":               false,
		"!k":              false,
		"k=w":             false,
		"other=v":         false,
		"":                false,
		"k notin (w),x=y": false,
	} {
		s, err := labels.Parse(selector)
		if err != nil {
			t.Fatal(err)
		}
		requirements, _ := s.Requirements()
		if got := requires(requirements, "k", "v"); got != want {
			t.Errorf("%q requires k=v: %v, want %v", selector, got, want)
		}
	}
}

// TestChanged checks the paths a syncer's update is refused for.
func TestChanged(t *testing.T) {
	a := map[string]any{"metadata": map[string]any{"name": "x", "labels": map[string]any{"app": "web"}}, "spec": map[string]any{"replicas": int64(1)}, "data": nil}
	b := map[string]any{"metadata": map[string]any{"name": "x", "labels": map[string]any{"app": "db"}}, "spec": map[string]any{"replicas": int64(1)}, "extra": "y"}
	if got, want := changed("", a, b), []string{".data", ".extra", ".metadata.labels.app"}; !slices.Equal(got, want) {
		t.Errorf("changed %v, want %v", got, want)
	}
	if got := changed("", a, a); len(got) != 0 {
		t.Errorf("changed %v of the same", got)
	}
}
