package upsynced

import (
	"context"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/utils/ptr"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/loopback"
)

// TestDecisions checks who may write which pod: only the syncer of the
// key an upsynced pod carries, before or after the write, and
// system:masters; everyone may write other pods and other resources.
func TestDecisions(t *testing.T) {
	pod := func(labels map[string]string) runtime.Object {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Labels: labels}}
	}
	up := func(key string) runtime.Object {
		return pod(map[string]string{"app": "web", workloadv1alpha1.UpsyncedLabel: key})
	}
	plain := pod(map[string]string{"app": "web"})
	// A user named like the key alone is no syncer.
	named1 := &user.DefaultInfo{Name: "k1"}
	for _, tc := range []struct {
		name          string
		op            admission.Operation
		resource      string
		subresource   string
		old, obj      runtime.Object
		who           user.Info
		refusedForKey string
	}{
		{"create by the syncer", admission.Create, "pods", "", nil, up("k1"), syncer1, ""},
		{"create by another syncer", admission.Create, "pods", "", nil, up("k1"), syncer2, "k1"},
		{"create by an admin", admission.Create, "pods", "", nil, up("k1"), admin, "k1"},
		{"create by a user named like the key", admission.Create, "pods", "", nil, up("k1"), named1, "k1"},
		{"create by system:masters", admission.Create, "pods", "", nil, up("k1"), master, ""},
		{"create without identity", admission.Create, "pods", "", nil, up("k1"), nil, "k1"},
		{"update by the syncer", admission.Update, "pods", "", up("k1"), up("k1"), syncer1, ""},
		{"update by an admin", admission.Update, "pods", "", up("k1"), up("k1"), admin, "k1"},
		{"update by another syncer", admission.Update, "pods", "", up("k1"), up("k1"), syncer2, "k1"},
		{"status update by the syncer", admission.Update, "pods", "status", up("k1"), up("k1"), syncer1, ""},
		{"status update by an admin", admission.Update, "pods", "status", up("k1"), up("k1"), admin, "k1"},
		{"label removed by an admin", admission.Update, "pods", "", up("k1"), plain, admin, "k1"},
		{"label added by an admin", admission.Update, "pods", "", plain, up("k1"), admin, "k1"},
		{"label added by its syncer", admission.Update, "pods", "", plain, up("k1"), syncer1, ""},
		{"key changed by the old key's syncer", admission.Update, "pods", "", up("k1"), up("k2"), syncer1, "k2"},
		{"key changed by the new key's syncer", admission.Update, "pods", "", up("k1"), up("k2"), syncer2, "k1"},
		{"key changed by system:masters", admission.Update, "pods", "", up("k1"), up("k2"), master, ""},
		{"delete by the syncer", admission.Delete, "pods", "", up("k1"), nil, syncer1, ""},
		{"delete by an admin", admission.Delete, "pods", "", up("k1"), nil, admin, "k1"},
		{"delete by another syncer", admission.Delete, "pods", "", up("k1"), nil, syncer2, "k1"},
		{"delete by system:masters", admission.Delete, "pods", "", up("k1"), nil, master, ""},
		{"delete by the garbage collector", admission.Delete, "pods", "", up("k1"), nil, collector, ""},
		{"plain pod created by an admin", admission.Create, "pods", "", nil, plain, admin, ""},
		{"plain pod updated by an admin", admission.Update, "pods", "", plain, plain, admin, ""},
		{"plain pod deleted by an admin", admission.Delete, "pods", "", plain, nil, admin, ""},
		{"labelled configmap", admission.Update, "configmaps", "", up("k1"), up("k1"), admin, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gvr := corev1.SchemeGroupVersion.WithResource(tc.resource)
			a := admission.NewAttributesRecord(tc.obj, tc.old, corev1.SchemeGroupVersion.WithKind("Pod"), "ns", "p", gvr, tc.subresource, tc.op, nil, false, tc.who)
			err := New(nil).Validate(context.Background(), a, nil)
			if tc.refusedForKey == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !apierrors.IsForbidden(err) {
				t.Fatalf("got %v, want Forbidden", err)
			}
			for _, want := range []string{`pods "p" is forbidden`, "read-only copy of a pod running in a physical cluster", "syncer of target " + tc.refusedForKey + ";", "change its workload instead"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("message %q lacks %q", err.Error(), want)
				}
			}
		})
	}
}

// TestHandles checks that the plugin is asked about writes only.
func TestHandles(t *testing.T) {
	p := New(nil)
	for op, want := range map[admission.Operation]bool{admission.Create: true, admission.Update: true, admission.Delete: true, admission.Connect: false} {
		if got := p.Handles(op); got != want {
			t.Errorf("Handles(%s) = %v", op, got)
		}
	}
}

// TestRevisionRecords checks who may write a Deployment's revision
// record: system:masters only, before or after the write, its
// subresources included; other ReplicaSets are anyone's.
func TestRevisionRecords(t *testing.T) {
	rs := func(recorded bool) runtime.Object {
		l := map[string]string{"app": "web"}
		if recorded {
			l[workloadv1alpha1.RevisionRecordLabel] = "true"
		}
		return &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "ns", Labels: l}}
	}
	var (
		admin  = &user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}
		syncer = &user.DefaultInfo{Name: workloadv1alpha1.SyncerUser("k1")}
		master = &user.DefaultInfo{Name: "root", Groups: []string{user.SystemPrivilegedGroup}}
		// The garbage collector deletes the records of a workload gone.
		collector = &user.DefaultInfo{Name: loopback.User("garbage-collector"), Groups: []string{loopback.Group}}
		requests  int
		// A Scale carries no labels: the plugin reads its ReplicaSet.
		scale      = &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "ns"}}
		otherScale = &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "other", Namespace: "ns"}}
		stored     = getter{"web-1": rs(true), "other": rs(false)}
	)
	for _, tc := range []struct {
		name        string
		op          admission.Operation
		subresource string
		old, obj    runtime.Object
		who         user.Info
		refused     bool
	}{
		{"create by an admin", admission.Create, "", nil, rs(true), admin, true},
		{"update by an admin", admission.Update, "", rs(true), rs(true), admin, true},
		{"label removed by an admin", admission.Update, "", rs(true), rs(false), admin, true},
		{"label added by an admin", admission.Update, "", rs(false), rs(true), admin, true},
		{"scale by an admin", admission.Update, "scale", scale, scale, admin, true},
		{"scale of another ReplicaSet by an admin", admission.Update, "scale", otherScale, otherScale, admin, false},
		{"status by an admin", admission.Update, "status", rs(true), rs(true), admin, true},
		{"delete by an admin", admission.Delete, "", rs(true), nil, admin, true},
		{"update by a syncer", admission.Update, "", rs(true), rs(true), syncer, true},
		{"update without identity", admission.Update, "", rs(true), rs(true), nil, true},
		{"update by system:masters", admission.Update, "", rs(true), rs(true), master, false},
		{"delete by system:masters", admission.Delete, "", rs(true), nil, master, false},
		{"delete by the garbage collector", admission.Delete, "", rs(true), nil, collector, false},
		{"other ReplicaSet created by an admin", admission.Create, "", nil, rs(false), admin, false},
		{"other ReplicaSet deleted by an admin", admission.Delete, "", rs(false), nil, admin, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requests++
			gvr := appsv1.SchemeGroupVersion.WithResource("replicasets")
			name := "web-1"
			if tc.obj == otherScale {
				name = "other"
			}
			a := admission.NewAttributesRecord(tc.obj, tc.old, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"), "ns", name, gvr, tc.subresource, tc.op, nil, false, tc.who)
			err := New(stored).Validate(context.Background(), a, nil)
			if !tc.refused {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "read-only record of a revision of its Deployment; change the Deployment instead") {
				t.Fatalf("got %v, want Forbidden saying to change the Deployment", err)
			}
		})
	}
	t.Logf("%d requests", requests)
}

// getter is ReplicaSets by name, as the registry's store would give them.
type getter map[string]runtime.Object

func (g getter) Get(_ context.Context, name string, _ *metav1.GetOptions) (runtime.Object, error) {
	if obj, ok := g[name]; ok {
		return obj, nil
	}
	return nil, apierrors.NewNotFound(appsv1.Resource("replicasets"), name)
}

// TestControllerRevisionRecords checks that a StatefulSet's or
// DaemonSet's revision record is as read-only as a Deployment's, and
// that the refusal names its owner's kind.
func TestControllerRevisionRecords(t *testing.T) {
	cr := func(recorded bool) runtime.Object {
		o := &appsv1.ControllerRevision{ObjectMeta: metav1.ObjectMeta{Name: "db-1", Namespace: "ns", Labels: map[string]string{"app": "db"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "db", UID: "u", Controller: ptr.To(true)}}}}
		if recorded {
			o.Labels[workloadv1alpha1.RevisionRecordLabel] = "true"
		}
		return o
	}
	admin := &user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}
	master := &user.DefaultInfo{Name: "root", Groups: []string{user.SystemPrivilegedGroup}}
	requests := 0
	for _, tc := range []struct {
		name     string
		op       admission.Operation
		old, obj runtime.Object
		who      user.Info
		refused  bool
	}{
		{"create by an admin", admission.Create, nil, cr(true), admin, true},
		{"update by an admin", admission.Update, cr(true), cr(true), admin, true},
		{"label removed by an admin", admission.Update, cr(true), cr(false), admin, true},
		{"delete by an admin", admission.Delete, cr(true), nil, admin, true},
		{"delete by system:masters", admission.Delete, cr(true), nil, master, false},
		{"other revision deleted by an admin", admission.Delete, cr(false), nil, admin, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requests++
			gvr := appsv1.SchemeGroupVersion.WithResource("controllerrevisions")
			a := admission.NewAttributesRecord(tc.obj, tc.old, appsv1.SchemeGroupVersion.WithKind("ControllerRevision"), "ns", "db-1", gvr, "", tc.op, nil, false, tc.who)
			err := New(nil).Validate(context.Background(), a, nil)
			if !tc.refused {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "the ControllerRevision is the hub's read-only record of a revision of its StatefulSet; change the StatefulSet instead") {
				t.Fatalf("got %v, want Forbidden saying to change the StatefulSet", err)
			}
		})
	}
	t.Logf("%d requests", requests)
}

// TestNodes checks who may write which node: its syncer only, and for a
// delete also system:masters and the hub's controllers; a node without
// the upsynced label is nobody's to create.
func TestNodes(t *testing.T) {
	node := func(key string) runtime.Object {
		n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"zone": "a"}}}
		if key != "" {
			n.Labels[workloadv1alpha1.UpsyncedLabel] = key
		}
		return n
	}
	for _, tc := range []struct {
		name        string
		op          admission.Operation
		subresource string
		old, obj    runtime.Object
		who         user.Info
		allowed     bool
	}{
		{"create by its syncer", admission.Create, "", nil, node("k1"), syncer1, true},
		{"create by another syncer", admission.Create, "", nil, node("k1"), syncer2, false},
		{"create by an admin", admission.Create, "", nil, node("k1"), admin, false},
		{"create by system:masters", admission.Create, "", nil, node("k1"), master, false},
		{"create of an unlabelled node by an admin", admission.Create, "", nil, node(""), admin, false},
		{"create of an unlabelled node by system:masters", admission.Create, "", nil, node(""), master, false},
		{"create of an unlabelled node by a syncer", admission.Create, "", nil, node(""), syncer1, false},
		{"update by its syncer", admission.Update, "", node("k1"), node("k1"), syncer1, true},
		{"status update by its syncer", admission.Update, "status", node("k1"), node("k1"), syncer1, true},
		{"update by an admin", admission.Update, "", node("k1"), node("k1"), admin, false},
		{"status update by system:masters", admission.Update, "status", node("k1"), node("k1"), master, false},
		{"label removed by its syncer", admission.Update, "", node("k1"), node(""), syncer1, false},
		{"key changed by the old key's syncer", admission.Update, "", node("k1"), node("k2"), syncer1, false},
		{"delete by its syncer", admission.Delete, "", node("k1"), nil, syncer1, true},
		{"delete by another syncer", admission.Delete, "", node("k1"), nil, syncer2, false},
		{"delete by an admin", admission.Delete, "", node("k1"), nil, admin, false},
		{"delete by system:masters", admission.Delete, "", node("k1"), nil, master, true},
		{"delete by the hub's controllers", admission.Delete, "", node("k1"), nil, collector, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gvr := corev1.SchemeGroupVersion.WithResource("nodes")
			a := admission.NewAttributesRecord(tc.obj, tc.old, corev1.SchemeGroupVersion.WithKind("Node"), "", "n1", gvr, tc.subresource, tc.op, nil, false, tc.who)
			err := New(nil).Validate(context.Background(), a, nil)
			switch {
			case tc.allowed && err != nil:
				t.Fatalf("refused: %v", err)
			case !tc.allowed && !apierrors.IsForbidden(err):
				t.Fatalf("got %v, want Forbidden", err)
			case !tc.allowed && !strings.Contains(err.Error(), "read-only copies of the physical nodes its pods run on"):
				t.Errorf("message %q does not say why", err.Error())
			}
		})
	}
}

// TestStatusReports checks who may write a target's status annotation
// on an object of any resource: only that target's syncer, and the hub's
// controllers, add or change it; anyone may remove it or leave it as it
// is.
func TestStatusReports(t *testing.T) {
	deployment := func(reports ...string) runtime.Object {
		a := map[string]string{"owner": "team-a"}
		for i := 0; i+1 < len(reports); i += 2 {
			a[workloadv1alpha1.StatusAnnotation(reports[i])] = reports[i+1]
		}
		return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", Annotations: a}}
	}
	var (
		syncer1    = &user.DefaultInfo{Name: workloadv1alpha1.SyncerUser("k1")}
		syncer2    = &user.DefaultInfo{Name: workloadv1alpha1.SyncerUser("k2")}
		admin      = &user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}
		master     = &user.DefaultInfo{Name: "root", Groups: []string{user.SystemPrivilegedGroup}}
		controller = &user.DefaultInfo{Name: loopback.User("losttarget"), Groups: []string{loopback.Group}}
		healthy    = `{"observedGeneration":7,"availableReplicas":3}`
	)
	for _, tc := range []struct {
		name        string
		op          admission.Operation
		subresource string
		old, obj    runtime.Object
		who         user.Info
		refusedKey  string
	}{
		{"set by its syncer", admission.Update, "", deployment(), deployment("k1", healthy), syncer1, ""},
		{"changed by its syncer", admission.Update, "", deployment("k1", "{}"), deployment("k1", healthy), syncer1, ""},
		{"set by another syncer", admission.Update, "", deployment(), deployment("k1", healthy), syncer2, "k1"},
		{"set by a tenant", admission.Update, "", deployment(), deployment("k1", healthy), admin, "k1"},
		{"changed by a tenant", admission.Update, "", deployment("k1", "{}"), deployment("k1", healthy), admin, "k1"},
		{"changed in a status update by a tenant", admission.Update, "status", deployment("k1", "{}"), deployment("k1", healthy), admin, "k1"},
		{"created by a tenant", admission.Create, "", nil, deployment("k1", healthy), admin, "k1"},
		{"set by system:masters", admission.Update, "", deployment(), deployment("k1", healthy), master, "k1"},
		{"one of two set by the other's syncer", admission.Update, "", deployment("k1", "{}"), deployment("k1", "{}", "k2", healthy), syncer1, "k2"},
		{"kept by a tenant", admission.Update, "", deployment("k1", healthy), deployment("k1", healthy), admin, ""},
		{"removed by a tenant", admission.Update, "", deployment("k1", healthy), deployment(), admin, ""},
		{"removed by the hub's controllers", admission.Update, "", deployment("k1", healthy), deployment(), controller, ""},
		{"created bare by a tenant", admission.Create, "", nil, deployment(), admin, ""},
		{"deleted by a tenant", admission.Delete, "", deployment("k1", healthy), nil, admin, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gvr := appsv1.SchemeGroupVersion.WithResource("deployments")
			a := admission.NewAttributesRecord(tc.obj, tc.old, appsv1.SchemeGroupVersion.WithKind("Deployment"), "ns", "web", gvr, tc.subresource, tc.op, nil, false, tc.who)
			err := New(nil).Validate(context.Background(), a, nil)
			if tc.refusedKey == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !apierrors.IsForbidden(err) {
				t.Fatalf("got %v, want Forbidden", err)
			}
			if want := "annotation " + workloadv1alpha1.StatusAnnotation(tc.refusedKey) + " is the report of the syncer"; !strings.Contains(err.Error(), want) {
				t.Errorf("message %q lacks %q", err.Error(), want)
			}
		})
	}
}

// TestStatusReportWrites checks who may write a StatusReport: the syncer
// its label names, before and after the write, and the hub's
// controllers; system:masters may delete one; nobody else may write
// one, labelled or not.
func TestStatusReportWrites(t *testing.T) {
	report := func(key string) runtime.Object {
		r := &workloadv1alpha1.StatusReport{ObjectMeta: metav1.ObjectMeta{Name: "web-0123456789abcdef", Namespace: "ns"}}
		if key != "" {
			r.Labels = map[string]string{workloadv1alpha1.ReportedByLabel: key}
		}
		return r
	}
	for _, tc := range []struct {
		name     string
		op       admission.Operation
		old, obj runtime.Object
		who      user.Info
		allowed  bool
	}{
		{"create by its syncer", admission.Create, nil, report("k1"), syncer1, true},
		{"update by its syncer", admission.Update, report("k1"), report("k1"), syncer1, true},
		{"delete by its syncer", admission.Delete, report("k1"), nil, syncer1, true},
		{"create by another syncer", admission.Create, nil, report("k1"), syncer2, false},
		{"update by another syncer", admission.Update, report("k1"), report("k1"), syncer2, false},
		{"label changed to another syncer's", admission.Update, report("k1"), report("k2"), syncer1, false},
		{"create by a tenant", admission.Create, nil, report("k1"), admin, false},
		{"unlabelled create by a tenant", admission.Create, nil, report(""), admin, false},
		{"update by a tenant", admission.Update, report("k1"), report("k1"), admin, false},
		{"delete by a tenant", admission.Delete, report("k1"), nil, admin, false},
		{"create by system:masters", admission.Create, nil, report("k1"), master, false},
		{"delete by system:masters", admission.Delete, report("k1"), nil, master, true},
		{"delete by the hub's controllers", admission.Delete, report("k1"), nil, collector, true},
		{"update by the hub's controllers", admission.Update, report("k1"), report("k1"), collector, true},
		{"without identity", admission.Create, nil, report("k1"), nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gvr := workloadv1alpha1.SchemeGroupVersion.WithResource("statusreports")
			a := admission.NewAttributesRecord(tc.obj, tc.old, workloadv1alpha1.SchemeGroupVersion.WithKind("StatusReport"), "ns", "web-0123456789abcdef", gvr, "", tc.op, nil, false, tc.who)
			err := New(nil).Validate(context.Background(), a, nil)
			switch {
			case tc.allowed && err != nil:
				t.Fatalf("refused: %v", err)
			case !tc.allowed && !apierrors.IsForbidden(err):
				t.Fatalf("got %v, want Forbidden", err)
			case !tc.allowed && !strings.Contains(err.Error(), "which only that syncer writes; read it"):
				t.Errorf("message %q does not say what to do", err.Error())
			}
		})
	}
}

// The users the tables write as: two targets' syncers, a tenant,
// system:masters and one of the hub's controllers, the garbage collector,
// which deletes copies whose owners are gone.
var (
	syncer1   = &user.DefaultInfo{Name: workloadv1alpha1.SyncerUser("k1")}
	syncer2   = &user.DefaultInfo{Name: workloadv1alpha1.SyncerUser("k2")}
	admin     = &user.DefaultInfo{Name: "alice", Groups: []string{user.AllAuthenticated}}
	master    = &user.DefaultInfo{Name: "root", Groups: []string{user.SystemPrivilegedGroup}}
	collector = &user.DefaultInfo{Name: loopback.User("garbage-collector"), Groups: []string{loopback.Group}}
)
