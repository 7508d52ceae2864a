package assignment

import (
	"context"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
	engine "github.com/canopy-dev/canopy/pkg/placement"
)

var (
	label   = workloadv1alpha1.StateLabel
	syncs   = workloadv1alpha1.StateSync
	share   = workloadv1alpha1.ReplicasAnnotation
	placed  = workloadv1alpha1.PlacedAnnotation
	leaving = workloadv1alpha1.LeavingAnnotation
)

// deployment is a Deployment with labels, annotations and pod template
// labels.
func deployment(labels, annotations, template map[string]string) *appsv1.Deployment {
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", Labels: labels, Annotations: annotations}}
	d.Spec.Template.Labels = template
	return d
}

// TestChanges checks which changes a write makes: additions and new
// values of labels, template labels and shares, keys added to placed and
// leaving; never a removal, nor what stays as it was.
func TestChanges(t *testing.T) {
	k1, k2 := "k1", "k2"
	for _, tc := range []struct {
		name     string
		old, obj runtime.Object
		want     []change
	}{
		{"plain create", nil, deployment(map[string]string{"app": "web"}, nil, nil), nil},
		{"create assigned", nil, deployment(map[string]string{label(k1): syncs}, nil, nil),
			[]change{{k1, "label " + label(k1), true}}},
		{"label kept", deployment(map[string]string{label(k1): syncs}, nil, nil), deployment(map[string]string{label(k1): syncs, "app": "x"}, nil, nil), nil},
		{"label removed", deployment(map[string]string{label(k1): syncs}, nil, nil), deployment(nil, nil, nil), nil},
		{"label added", deployment(nil, nil, nil), deployment(map[string]string{label(k1): syncs}, nil, nil),
			[]change{{k1, "label " + label(k1), true}}},
		{"label set to another value", deployment(map[string]string{label(k1): syncs}, nil, nil), deployment(map[string]string{label(k1): "Off"}, nil, nil),
			[]change{{k1, "label " + label(k1), false}}},
		{"label set to Sync", deployment(map[string]string{label(k1): "Off"}, nil, nil), deployment(map[string]string{label(k1): syncs}, nil, nil),
			[]change{{k1, "label " + label(k1), true}}},
		{"share added", deployment(nil, nil, nil), deployment(nil, map[string]string{share(k1): "3"}, nil),
			[]change{{k1, "annotation " + share(k1), false}}},
		{"share changed", deployment(nil, map[string]string{share(k1): "2"}, nil), deployment(nil, map[string]string{share(k1): "3"}, nil),
			[]change{{k1, "annotation " + share(k1), false}}},
		{"share removed", deployment(nil, map[string]string{share(k1): "2"}, nil), deployment(nil, nil, nil), nil},
		{"placed key added", deployment(nil, map[string]string{placed: k1}, nil), deployment(nil, map[string]string{placed: k1 + "," + k2}, nil),
			[]change{{k2, "annotation " + placed, false}}},
		{"leaving created", nil, deployment(nil, map[string]string{leaving: k1}, nil),
			[]change{{k1, "annotation " + leaving, false}}},
		{"placed key removed", deployment(nil, map[string]string{placed: k1 + "," + k2}, nil), deployment(nil, map[string]string{placed: k2}, nil), nil},
		{"template label added", deployment(nil, nil, map[string]string{"app": "web"}), deployment(nil, nil, map[string]string{"app": "web", label(k1): syncs}),
			[]change{{k1, "spec.template.metadata.labels " + label(k1), true}}},
		{"template label kept", deployment(nil, nil, map[string]string{label(k1): syncs}), deployment(nil, nil, map[string]string{label(k1): syncs}), nil},
		{"unstructured template", nil, &unstructured.Unstructured{Object: map[string]any{
			"metadata": map[string]any{"name": "web"},
			"spec":     map[string]any{"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{label(k2): syncs}}, "spec": map[string]any{}}},
		}}, []change{{k2, "spec.template.metadata.labels " + label(k2), true}}},
		{"several, in order", nil, deployment(map[string]string{label(k2): syncs, label(k1): syncs}, map[string]string{share(k1): "1"}, nil),
			[]change{{k1, "annotation " + share(k1), false}, {k1, "label " + label(k1), true}, {k2, "label " + label(k2), true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := changes(tc.old, tc.obj)
			if len(got) != len(tc.want) {
				t.Fatalf("changes %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("change %d is %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// fakeWorld holds targets by key and constraints by logical cluster.
type fakeWorld struct {
	targets   map[string]*engine.Target
	byCluster map[logicalcluster.Name][]*placementv1alpha1.PlacementConstraint
}

func (w fakeWorld) target(_ context.Context, key string) (*engine.Target, bool) {
	t, ok := w.targets[key]
	return t, ok
}

func (w fakeWorld) constraints(cluster logicalcluster.Name) []engine.Constraint {
	var out []engine.Constraint
	for _, c := range engine.Lineage(cluster) {
		for _, pc := range w.byCluster[c] {
			out = append(out, engine.Constraint{Cluster: c, PlacementConstraint: pc})
		}
	}
	return out
}

// grants allows "use" on the SyncTargets it lists, as "<user>@<cluster>:<name>".
type grants map[string]bool

func (g grants) Authorize(ctx context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	if a.GetVerb() == UseVerb && a.GetResource() == "synctargets" && a.GetAPIGroup() == workloadv1alpha1.GroupName &&
		g[a.GetUser().GetName()+"@"+string(cluster)+":"+a.GetName()] {
		return authorizer.DecisionAllow, "", nil
	}
	return authorizer.DecisionNoOpinion, "", nil
}

func target(cluster logicalcluster.Name, name string, change func(*engine.Target)) *engine.Target {
	t := &engine.Target{Cluster: cluster, Name: name, Key: workloadv1alpha1.TargetKey(string(cluster), name), Labels: map[string]string{"region": "eu"}, Ready: true}
	if change != nil {
		change(t)
	}
	return t
}

// TestRefusal checks the decision on each kind of change: the key must
// name a target, the requester must have use on it in its logical
// cluster, its spec must let the object's logical cluster use it, and a
// new assignment must be one the placement engine allows a new object.
func TestRefusal(t *testing.T) {
	pc2 := target("root:b", "pc2", nil)
	shared := target("root", "shared", nil)
	cordoned := target("root", "cordoned", func(t *engine.Target) { t.Unschedulable = true })
	noExecute := target("root", "noexecute", func(t *engine.Target) {
		t.Taints = []corev1.Taint{{Key: "maintenance", Effect: corev1.TaintEffectNoExecute}}
	})
	noSchedule := target("root", "noschedule", func(t *engine.Target) {
		t.Taints = []corev1.Taint{{Key: "maintenance", Effect: corev1.TaintEffectNoSchedule}}
	})
	us := target("root", "us", func(t *engine.Target) { t.Labels = map[string]string{"region": "us"} })
	onlyC := target("root", "only-c", func(t *engine.Target) { t.LogicalClusters = []string{"root:c"} })
	notReady := target("root", "notready", func(t *engine.Target) { t.Ready = false })
	w := fakeWorld{targets: map[string]*engine.Target{}, byCluster: map[logicalcluster.Name][]*placementv1alpha1.PlacementConstraint{
		"root": {{ObjectMeta: metav1.ObjectMeta{Name: "eu-only"}, Spec: placementv1alpha1.PlacementConstraintSpec{
			AllowedTargets: placementv1alpha1.TargetSelector{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"region": "eu"}}},
		}}},
	}}
	g := grants{}
	for _, t := range []*engine.Target{pc2, shared, cordoned, noExecute, noSchedule, us, onlyC, notReady} {
		w.targets[t.Key] = t
		g["bob@"+string(t.Cluster)+":"+t.Name] = true
	}
	d := &decider{world: w, authz: g, now: time.Now}
	alice := &user.DefaultInfo{Name: "alice"}
	bob := &user.DefaultInfo{Name: "bob"}
	// A ServiceAccount of root:a named as one that root granted use.
	bot := &user.DefaultInfo{Name: "system:serviceaccount:ci:deployer"}
	g["system:serviceaccount:ci:deployer@root:shared"] = true
	ownTarget := target("root:a", "own", nil)
	w.targets[ownTarget.Key] = ownTarget
	g["system:serviceaccount:ci:deployer@root:a:own"] = true
	assign := func(t *engine.Target) []change { return []change{{t.Key, "label " + label(t.Key), true}} }
	reshare := func(t *engine.Target) []change { return []change{{t.Key, "annotation " + share(t.Key), false}} }
	for _, tc := range []struct {
		name    string
		who     user.Info
		cluster logicalcluster.Name
		cs      []change
		want    []string // empty: allowed
	}{
		{"another tenant's target without use", alice, "root:a", assign(pc2),
			[]string{`user "alice" may not assign objects to SyncTarget root:b:pc2 (label ` + label(pc2.Key) + `)`, `it needs "use" on synctargets "pc2" in logical cluster root:b`}},
		{"a share without use", alice, "root:a", reshare(shared), []string{`needs "use" on synctargets "shared" in logical cluster root`}},
		{"a shared target with use", bob, "root:a", assign(shared), nil},
		{"another subtree's target with use", bob, "root:a", assign(pc2), []string{"spec.logicalClusters is empty, which means its own logical cluster root:b", "does not include logical cluster root:a"}},
		{"a target naming other clusters", bob, "root:a", assign(onlyC), []string{"spec.logicalClusters [root:c] does not include logical cluster root:a"}},
		{"a target naming the cluster above", bob, "root:c:team", assign(onlyC), nil},
		{"unknown key", bob, "root:a", []change{{"0123456789abcdef", "label " + label("0123456789abcdef"), true}}, []string{"no SyncTarget has key 0123456789abcdef"}},
		{"cordoned", bob, "root:a", assign(cordoned), []string{"cordoned"}},
		{"NoExecute", bob, "root:a", assign(noExecute), []string{"taint maintenance:NoExecute is not tolerated", "tolerates no taint"}},
		{"NoSchedule", bob, "root:a", assign(noSchedule), []string{"taint maintenance:NoSchedule is not tolerated"}},
		{"constraint", bob, "root:a", assign(us), []string{"PlacementConstraint root/eu-only does not allow it"}},
		{"not ready", bob, "root:a", assign(notReady), nil},
		{"a ServiceAccount, another cluster's target", bot, "root:a", assign(shared), []string{"a ServiceAccount of logical cluster root:a may assign objects only to the SyncTargets of root:a"}},
		{"a ServiceAccount, its own cluster's target", bot, "root:a", assign(ownTarget), nil},
		{"a share on a cordoned target", bob, "root:a", reshare(cordoned), nil},
		{"the first refusal counts", bob, "root:a", append(assign(shared), assign(cordoned)...), []string{"SyncTarget root:cordoned"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			why, err := d.refusal(context.Background(), tc.who, tc.cluster, tc.cs)
			if err != nil {
				t.Fatal(err)
			}
			if len(tc.want) == 0 {
				if why != "" {
					t.Fatalf("refused: %s", why)
				}
				return
			}
			if why == "" {
				t.Fatal("allowed")
			}
			for _, want := range tc.want {
				if !strings.Contains(why, want) {
					t.Errorf("refusal %q lacks %q", why, want)
				}
			}
		})
	}
}

// TestValidate checks the plugin's answer: nothing to decide for a write
// that changes no assignment, and a 403 naming the object otherwise.
func TestValidate(t *testing.T) {
	p := newPlugin(grants{}, newIndex())
	pc2 := target("root:b", "pc2", nil)
	p.index.targets[pc2.Key] = pc2
	ctx := logicalcluster.WithCluster(context.Background(), "root:a")
	gvr := appsv1.SchemeGroupVersion.WithResource("deployments")
	alice := &user.DefaultInfo{Name: "alice"}
	attrsOf := func(who user.Info, old, obj runtime.Object) admission.Attributes {
		op := admission.Update
		if old == nil {
			op = admission.Create
		}
		return admission.NewAttributesRecord(obj, old, appsv1.SchemeGroupVersion.WithKind("Deployment"), "ns", "web", gvr, "", op, nil, false, who)
	}
	attrs := func(old, obj runtime.Object) admission.Attributes { return attrsOf(alice, old, obj) }
	assigned := deployment(map[string]string{label(pc2.Key): syncs}, nil, nil)
	if err := p.Validate(ctx, attrs(assigned, assigned), nil); err != nil {
		t.Errorf("an update keeping an assignment: %v", err)
	}
	if err := p.Validate(ctx, attrs(assigned, deployment(nil, nil, nil)), nil); err != nil {
		t.Errorf("a release: %v", err)
	}
	err := p.Validate(ctx, attrs(nil, assigned), nil)
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), `deployments.apps "web" is forbidden: user "alice" may not assign objects to SyncTarget root:b:pc2`) {
		t.Errorf("an assignment without use: %v", err)
	}
	// Placement assigns with the engine whose rules the plugin applies to
	// hands, as the hub's own user.
	placement := &user.DefaultInfo{Name: loopback.User("placement"), Groups: []string{loopback.Group}}
	if err := p.Validate(ctx, attrsOf(placement, deployment(nil, nil, nil), assigned), nil); err != nil {
		t.Errorf("an assignment by the placement controller: %v", err)
	}
}

// TestRecord checks that placement's record of what each target receives
// is placement's alone: a requester adding any of its annotations, or
// giving one another value, is refused, whatever its rights; keeping or
// removing one is not; the placement controller writes them.
func TestRecord(t *testing.T) {
	p := newPlugin(grants{}, newIndex())
	ctx := logicalcluster.WithCluster(context.Background(), "root:a")
	gvr := appsv1.SchemeGroupVersion.WithResource("deployments")
	attrs := func(who user.Info, old, obj runtime.Object) admission.Attributes {
		op := admission.Update
		if old == nil {
			op = admission.Create
		}
		return admission.NewAttributesRecord(obj, old, appsv1.SchemeGroupVersion.WithKind("Deployment"), "ns", "web", gvr, "", op, nil, false, who)
	}
	admin := &user.DefaultInfo{Name: "admin", Groups: []string{user.SystemPrivilegedGroup}}
	placement := &user.DefaultInfo{Name: loopback.User("placement"), Groups: []string{loopback.Group}}
	for _, name := range []string{
		workloadv1alpha1.OverridesAnnotation("k1"),
		workloadv1alpha1.RevisionAnnotation("k1"),
		workloadv1alpha1.SpecAnnotation("5d8f"),
	} {
		plain := deployment(nil, map[string]string{"owner": "a"}, nil)
		recorded := deployment(nil, map[string]string{"owner": "a", name: `{"replicas":1}`}, nil)
		other := deployment(nil, map[string]string{"owner": "a", name: `{"replicas":2}`}, nil)
		for _, tc := range []struct {
			what     string
			old, obj runtime.Object
		}{{"a create with", nil, recorded}, {"an update adding", plain, recorded}, {"an update changing", recorded, other}} {
			err := p.Validate(ctx, attrs(admin, tc.old, tc.obj), nil)
			if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "annotation "+name+" is placement's record") {
				t.Errorf("%s %s by system:masters: %v, want 403 naming it", tc.what, name, err)
			}
			if err := p.Validate(ctx, attrs(placement, tc.old, tc.obj), nil); err != nil {
				t.Errorf("%s %s by the placement controller: %v", tc.what, name, err)
			}
		}
		if err := p.Validate(ctx, attrs(admin, recorded, recorded.DeepCopy()), nil); err != nil {
			t.Errorf("an update keeping %s: %v", name, err)
		}
		if err := p.Validate(ctx, attrs(admin, recorded, plain), nil); err != nil {
			t.Errorf("an update removing %s: %v", name, err)
		}
	}
}
