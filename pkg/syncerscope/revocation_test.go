package syncerscope

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// syncer is the user of a credential of root:pc1's syncer for the
// SyncTarget of uid, issued at issued; no UID group for an empty uid.
func syncer(uid string, issued time.Time) user.Info {
	groups := []string{workloadv1alpha1.SyncersGroup, workloadv1alpha1.SyncTargetGroup("root", "pc1")}
	if uid != "" {
		groups = append(groups, workloadv1alpha1.SyncTargetUIDGroup(uid))
	}
	return &user.DefaultInfo{Name: workloadv1alpha1.SyncerUser(workloadv1alpha1.TargetKey("root", "pc1")), Groups: groups,
		Extra: map[string][]string{workloadv1alpha1.CredentialIssuedExtra: {issued.UTC().Format(time.RFC3339)}}}
}

// pc1 is SyncTarget root:pc1 of uid, revoking credentials issued before
// spec and status.
func pc1(uid string, spec, status time.Time) *workloadv1alpha1.SyncTarget {
	st := &workloadv1alpha1.SyncTarget{ObjectMeta: metav1.ObjectMeta{Name: "pc1", UID: types.UID(uid)}}
	st.Spec.CredentialsNotBefore = metav1.NewTime(spec)
	st.Status.CredentialNotBefore = metav1.NewTime(status)
	st.Spec.Resources = []workloadv1alpha1.GroupResource{{Group: "apps", Resource: "deployments"}}
	logicalcluster.SetOn(st, "root")
	return st
}

// TestRevoked checks which credentials a SyncTarget as the hub holds it
// revokes, and that the reason says how to get a new one.
func TestRevoked(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var zero time.Time
	for _, tc := range []struct {
		name string
		cred user.Info
		st   *workloadv1alpha1.SyncTarget
		// why is a word of the reason; empty if not revoked.
		why string
	}{
		{"bound", syncer("u1", t0), pc1("u1", zero, zero), ""},
		{"newest used", syncer("u1", t0), pc1("u1", zero, t0), ""},
		{"newer than revoked", syncer("u1", t0.Add(time.Second)), pc1("u1", t0, t0), ""},
		{"deleted", syncer("u1", t0), nil, "hub synctarget create pc1 --logical-cluster root"},
		{"created again", syncer("u1", t0), pc1("u2", zero, zero), "SyncTarget root:pc1 is now UID u2"},
		{"unbound", syncer("", t0), pc1("u1", zero, zero), "names no SyncTarget UID"},
		{"older than used", syncer("u1", t0), pc1("u1", zero, t0.Add(time.Second)), "status.credentialNotBefore"},
		{"older than revoked", syncer("u1", t0), pc1("u1", t0.Add(time.Second), zero), "rotate --revoke"},
		{"older than both", syncer("u1", t0), pc1("u1", t0.Add(2*time.Second), t0.Add(time.Second)), "rotate --revoke"},
	} {
		tgt, ok, err := targetOf(tc.cred)
		if !ok || err != nil {
			t.Fatalf("%s: %v %v", tc.name, ok, err)
		}
		reason := tgt.revoked(tc.st)
		if (reason == "") != (tc.why == "") || !strings.Contains(reason, tc.why) {
			t.Errorf("%s: revoked %q, want %q", tc.name, reason, tc.why)
		}
		if reason != "" && !strings.Contains(reason, "is revoked") {
			t.Errorf("%s: %q does not say the credential is revoked", tc.name, reason)
		}
		if reason != "" && tc.st != nil && !strings.Contains(reason, "hub synctarget rotate pc1 --logical-cluster root") {
			t.Errorf("%s: %q does not say how to get a new credential", tc.name, reason)
		}
	}
}

// TestRevoker checks that the requests of a credential end when the
// SyncTarget watch sees it revoked, and only those.
func TestRevoker(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	r := NewRevoker(nil)
	requests := map[string]context.Context{}
	for name, cred := range map[string]user.Info{"old": syncer("u1", t0), "new": syncer("u1", t0.Add(time.Minute))} {
		tgt, _, _ := targetOf(cred)
		ctx, cancel := context.WithCancelCause(context.Background())
		defer r.add(tgt, cancel)()
		requests[name] = ctx
	}
	ended := func() string {
		var names []string
		for _, name := range []string{"old", "new"} {
			if requests[name].Err() != nil {
				names = append(names, name)
			}
		}
		return strings.Join(names, ",")
	}
	r.Changed(pc1("u1", time.Time{}, t0), false)
	if got := ended(); got != "" {
		t.Errorf("ended %q by an update that revokes nothing", got)
	}
	r.Changed(pc1("u1", time.Time{}, t0.Add(time.Minute)), false)
	if got := ended(); got != "old" {
		t.Errorf("ended %q once the newer credential was used, want old", got)
	}
	if cause := context.Cause(requests["old"]); !strings.Contains(cause.Error(), "status.credentialNotBefore") {
		t.Errorf("the cause %v does not say why", cause)
	}
	// The target's deletion ends the rest.
	r.Changed(pc1("u1", time.Time{}, t0.Add(time.Minute)), true)
	if got := ended(); got != "old,new" {
		t.Errorf("ended %q once the SyncTarget was deleted, want both", got)
	}
	if len(r.requests) != 1 {
		t.Errorf("requests of %d targets held before they are done", len(r.requests))
	}
}

// TestAdmitCredentialNotBefore checks that status.credentialNotBefore
// moves only forward, only by the issue time of the syncer's own
// credential, whatever the request says.
func TestAdmitCredentialNotBefore(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	admin := &user.DefaultInfo{Name: "admin", Groups: []string{user.SystemPrivilegedGroup}}
	other := &user.DefaultInfo{Name: workloadv1alpha1.SyncerUser(workloadv1alpha1.TargetKey("root", "pc2")),
		Groups: []string{workloadv1alpha1.SyncersGroup, workloadv1alpha1.SyncTargetGroup("root", "pc2"), workloadv1alpha1.SyncTargetUIDGroup("u1")},
		Extra:  map[string][]string{workloadv1alpha1.CredentialIssuedExtra: {t0.Add(time.Hour).Format(time.RFC3339)}}}
	for _, tc := range []struct {
		name        string
		u           user.Info
		held, wrote time.Time
		want        time.Time
	}{
		{"newer credential", syncer("u1", t0.Add(time.Minute)), t0, t0.Add(time.Hour), t0.Add(time.Minute)},
		{"older credential", syncer("u1", t0), t0.Add(time.Minute), time.Time{}, t0.Add(time.Minute)},
		{"an admin", admin, t0, t0.Add(time.Hour), t0},
		{"another target's syncer", other, t0, t0.Add(time.Hour), t0},
	} {
		old, st := pc1("u1", time.Time{}, tc.held), pc1("u1", time.Time{}, tc.wrote)
		ctx := logicalcluster.WithCluster(context.Background(), "root")
		a := admission.NewAttributesRecord(st, old, workloadv1alpha1.SchemeGroupVersion.WithKind("SyncTarget"), "", "pc1",
			workloadv1alpha1.SchemeGroupVersion.WithResource("synctargets"), "status", admission.Update, nil, false, tc.u)
		if err := NewAdmission(nil).Admit(ctx, a, nil); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := st.Status.CredentialNotBefore.Time; !got.Equal(tc.want) {
			t.Errorf("%s: credentialNotBefore %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestDenyCopy checks where a syncer may write the pods, nodes and Events
// it copies up: pods of objects assigned to it or held by it, of a
// resource its target accepts, nodes its pods there run on, Events in a
// namespace where it has such an object.
func TestDenyCopy(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	tgt, _, _ := targetOf(syncer("u1", t0))
	deployment := func(ns, name string, assigned, held bool) Object {
		u := &appsv1.Deployment{}
		u.SetNamespace(ns)
		u.SetName(name)
		if assigned {
			u.SetLabels(map[string]string{workloadv1alpha1.StateLabel(tgt.key): workloadv1alpha1.StateSync})
		}
		if held {
			u.SetFinalizers([]string{tgt.finalizer()})
		}
		return u
	}
	objects := fakeObjects{
		"root:a/ns1/mine":     deployment("ns1", "mine", true, false),
		"root:a/ns2/leaving":  deployment("ns2", "leaving", false, true),
		"root:a/ns3/theirs":   deployment("ns3", "theirs", false, false),
		"root:b/default/none": deployment("default", "none", false, false),
		"root:a/ns1/on-n1":    podOn("ns1", "on-n1", "n1", tgt.key),
		"root:b/ns1/on-n2":    podOn("ns1", "on-n2", "n2", workloadv1alpha1.TargetKey("root", "other")),
	}
	p := NewAdmission(objects)
	copied := func(ns, owner string) metav1.Object {
		o := &metav1.ObjectMeta{Namespace: ns, Labels: map[string]string{workloadv1alpha1.UpsyncedLabel: tgt.key}}
		if owner != "" {
			o.Annotations = map[string]string{workloadv1alpha1.OwnerAnnotation: owner}
		}
		return o
	}
	for _, tc := range []struct {
		name    string
		cluster logicalcluster.Name
		gr      schema.GroupResource
		obj     metav1.Object
		// why is a word of the refusal; empty if allowed.
		why string
	}{
		{"pod of an assigned object", "root:a", pods, copied("ns1", "deployments.apps/mine"), ""},
		{"pod of a held object", "root:a", pods, copied("ns2", "deployments.apps/leaving"), ""},
		{"pod of another's object", "root:a", pods, copied("ns3", "deployments.apps/theirs"), "deployments.apps/theirs (annotation"},
		{"pod of a missing object", "root:a", pods, copied("ns1", "deployments.apps/gone"), "is not"},
		{"pod of a resource not accepted", "root:a", pods, copied("ns1", "statefulsets.apps/mine"), "is not"},
		{"pod of no owner", "root:a", pods, copied("ns1", ""), "names as <resource>.<group>/<name>"},
		{"pod of a malformed owner", "root:a", pods, copied("ns1", "mine"), "names as <resource>.<group>/<name>"},
		{"pod elsewhere", "root:b", pods, copied("default", "deployments.apps/mine"), "logical cluster root:b"},
		{"event where assigned", "root:a", events, copied("ns1", ""), ""},
		{"event where held", "root:a", events, copied("ns2", ""), ""},
		{"event where another's", "root:a", events, copied("ns3", ""), "none is in namespace ns3"},
		{"event elsewhere", "root:b", events, copied("default", ""), "none is in namespace default of logical cluster root:b"},
		{"node its pod runs on", "root:a", nodes, &metav1.ObjectMeta{Name: "n1"}, ""},
		{"node none of its pods runs on", "root:a", nodes, &metav1.ObjectMeta{Name: "n2"}, "none of its pods in logical cluster root:a runs on node n2"},
		{"node its pod runs on, elsewhere", "root:b", nodes, &metav1.ObjectMeta{Name: "n1"}, "none of its pods in logical cluster root:b runs on node n1"},
		{"node another's pod runs on", "root:b", nodes, &metav1.ObjectMeta{Name: "n2"}, "none of its pods in logical cluster root:b runs on node n2"},
	} {
		reason, err := p.denyCopy(logicalcluster.WithCluster(context.Background(), tc.cluster), tgt, tc.gr, tc.obj)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if (reason == "") != (tc.why == "") || !strings.Contains(reason, tc.why) {
			t.Errorf("%s: %q, want %q", tc.name, reason, tc.why)
		}
	}
}

// podOn is pod name in ns, copied up by the syncer of key, on node.
func podOn(ns, name, node, key string) Object {
	u := &corev1.Pod{Spec: corev1.PodSpec{NodeName: node}}
	u.SetNamespace(ns)
	u.SetName(name)
	u.SetLabels(map[string]string{workloadv1alpha1.UpsyncedLabel: key})
	return u
}

// fakeObjects are deployments and pods by
// "<cluster>/<namespace>/<name>", and SyncTarget root:pc1 under
// "root/pc1".
type fakeObjects map[string]Object

func (f fakeObjects) Get(ctx context.Context, gr schema.GroupResource, namespace, name string) (Object, error) {
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	if gr == syncTargets {
		return pc1("u1", time.Time{}, time.Time{}), nil
	}
	if o := f[fmt.Sprintf("%s/%s/%s", cluster, namespace, name)]; o != nil && gr == appsDeployments && !isPod(o) {
		return o, nil
	}
	return nil, apierrors.NewNotFound(gr, name)
}

func (f fakeObjects) List(ctx context.Context, gr schema.GroupResource, namespace string, selector labels.Selector) ([]Object, error) {
	if gr != appsDeployments && gr != pods {
		return nil, errors.New("only deployments are accepted")
	}
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	prefix := fmt.Sprintf("%s/%s/", cluster, namespace)
	if namespace == "" {
		prefix = string(cluster) + "/"
	}
	var out []Object
	for k, o := range f {
		if o != nil && isPod(o) == (gr == pods) && strings.HasPrefix(k, prefix) && selector.Matches(labels.Set(o.GetLabels())) {
			out = append(out, o)
		}
	}
	return out, nil
}

func isPod(o Object) bool {
	_, ok := o.(*corev1.Pod)
	return ok
}

var appsDeployments = schema.GroupResource{Group: "apps", Resource: "deployments"}

// laggingCache is a watch cache that holds cached of SyncTarget root:pc1
// (nil for none), while the datastore holds latest.
type laggingCache struct {
	fakeObjects
	cached, latest *workloadv1alpha1.SyncTarget
}

func (l laggingCache) Get(_ context.Context, gr schema.GroupResource, _, name string) (Object, error) {
	return stored(gr, name, l.cached)
}

func (l laggingCache) GetLatest(_ context.Context, gr schema.GroupResource, _, name string) (Object, error) {
	return stored(gr, name, l.latest)
}

func stored(gr schema.GroupResource, name string, st *workloadv1alpha1.SyncTarget) (Object, error) {
	if st == nil {
		return nil, apierrors.NewNotFound(gr, name)
	}
	return st, nil
}

// TestSyncTargetPastTheCache checks that a credential the watch cache
// would revoke is judged on the datastore's SyncTarget, as a replica's
// cache may not hold yet one created or made again through another
// replica; and that one the datastore revokes stays revoked.
func TestSyncTargetPastTheCache(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var zero time.Time
	tgt, _, err := targetOf(syncer("u2", t0))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name           string
		cached, latest *workloadv1alpha1.SyncTarget
		revoked        bool
	}{
		{"created a moment ago", nil, pc1("u2", zero, zero), false},
		{"made again a moment ago", pc1("u1", zero, zero), pc1("u2", zero, zero), false},
		{"deleted", nil, nil, true},
		{"deleted a moment ago", pc1("u2", zero, zero), nil, false},
		{"revoked", pc1("u2", t0.Add(time.Second), zero), pc1("u2", t0.Add(time.Second), zero), true},
	} {
		st, err := syncTarget(context.Background(), laggingCache{cached: tc.cached, latest: tc.latest}, tgt)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if reason := tgt.revoked(st); (reason != "") != tc.revoked {
			t.Errorf("%s: revoked %q, want revoked %v", tc.name, reason, tc.revoked)
		}
	}
}
