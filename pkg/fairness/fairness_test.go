package fairness

import (
	"context"
	"slices"
	"testing"
	"time"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/endpoints/request"
	utilflowcontrol "k8s.io/apiserver/pkg/util/flowcontrol"
	fcrequest "k8s.io/apiserver/pkg/util/flowcontrol/request"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
)

// Each request lands in the hub's FlowSchema for its user, and a
// tenant's flow is its logical cluster, whoever the user and whatever the
// namespace, if the user may make the request; otherwise its user's.
func TestClassification(t *testing.T) {
	// alice is a member of root:a and root:b, bob of root:a alone.
	members := map[string][]logicalcluster.Name{"alice": {"root:a", "root:b"}, "bob": {"root:a"}}
	authz := authorizer.AuthorizerFunc(func(ctx context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
		cluster, _ := logicalcluster.ClusterFrom(ctx)
		if slices.Contains(members[a.GetUser().GetName()], cluster) {
			return authorizer.DecisionAllow, "", nil
		}
		return authorizer.DecisionNoOpinion, "", nil
	})
	fc := New(20, DefaultSharePercent, authz)
	stop := make(chan struct{})
	defer close(stop)
	go func() { _ = fc.Run(stop) }()

	list := &request.RequestInfo{IsResourceRequest: true, Verb: "list", APIVersion: "v1", Resource: "configmaps", Namespace: "default"}
	for _, c := range []struct {
		who                       user.Info
		cluster                   logicalcluster.Name
		flowSchema, distinguisher string
	}{
		{&user.DefaultInfo{Name: "admin", Groups: []string{user.SystemPrivilegedGroup, user.AllAuthenticated}}, "root:a", "exempt", ""},
		{&user.DefaultInfo{Name: loopback.User("gc"), Groups: []string{loopback.Group, user.AllAuthenticated}}, "root:a", LevelControllers, loopback.User("gc")},
		{&user.DefaultInfo{Name: "syncer-1", Groups: []string{workloadv1alpha1.SyncersGroup, user.AllAuthenticated}}, "root:a", LevelSyncers, "syncer-1"},
		{&user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}, "root:a", LevelWorkload, "root:a"},
		{&user.DefaultInfo{Name: "bob", Groups: []string{user.AllAuthenticated}}, "root:a", LevelWorkload, "root:a"},
		{&user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}, "root:b", LevelWorkload, "root:b"},
		{&user.DefaultInfo{Name: "bob", Groups: []string{user.AllAuthenticated}}, "root:b", LevelWorkload, "user/bob"},
		{&user.DefaultInfo{Name: user.Anonymous, Groups: []string{user.AllUnauthenticated}}, "root:a", LevelWorkload, "user/" + user.Anonymous},
	} {
		// As the authentication filter and the request-info resolver in
		// front of flow control leave them.
		ctx := request.WithRequestInfo(request.WithUser(logicalcluster.WithCluster(context.Background(), c.cluster), c.who), list)
		var fs, distinguisher string
		deadline := time.Now().Add(10 * time.Second)
		for fs != c.flowSchema && time.Now().Before(deadline) {
			fc.Handle(ctx, utilflowcontrol.RequestDigest{RequestInfo: list, User: c.who},
				func(f *flowcontrolv1.FlowSchema, _ *flowcontrolv1.PriorityLevelConfiguration, d string) {
					fs, distinguisher = f.Name, d
				},
				func() fcrequest.WorkEstimate { return fcrequest.WorkEstimate{InitialSeats: 1} },
				func(bool) {}, func() {})
			if fs != c.flowSchema {
				// The configuration is still being read.
				time.Sleep(10 * time.Millisecond)
			}
		}
		if fs != c.flowSchema || distinguisher != c.distinguisher {
			t.Errorf("%s in %s: FlowSchema %q, flow %q; want %q, %q", c.who.GetName(), c.cluster, fs, distinguisher, c.flowSchema, c.distinguisher)
		}
		// The share caps the workload level's requests and no others.
		if _, capped := applies(ctx, utilflowcontrol.RequestDigest{RequestInfo: list, User: c.who}); capped != (c.flowSchema == LevelWorkload) {
			t.Errorf("%s in %s: capped by the share %v, want %v", c.who.GetName(), c.cluster, capped, !capped)
		}
	}
	probe := &request.RequestInfo{Path: "/readyz", Verb: "get"}
	anonymous := &user.DefaultInfo{Name: user.Anonymous, Groups: []string{user.AllUnauthenticated}}
	if _, capped := applies(logicalcluster.WithCluster(context.Background(), logicalcluster.Root), utilflowcontrol.RequestDigest{RequestInfo: probe, User: anonymous}); capped {
		t.Errorf("probe /readyz capped by the share")
	}
	if list.Namespace != "default" {
		t.Errorf("classifying changed the request's namespace to %q", list.Namespace)
	}
}
