package tenancy

import (
	"context"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func lc(name string) *tenancyv1alpha1.LogicalCluster {
	return &tenancyv1alpha1.LogicalCluster{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

func TestValidateLogicalCluster(t *testing.T) {
	for _, tc := range []struct {
		parent logicalcluster.Name
		name   string
	}{
		{"root", "a"},
		{"root:org", "team"},
		{"root:a:b", "c-1"},
		{"root", strings.Repeat("x", 63)},
	} {
		if errs := ValidateLogicalCluster(tc.parent, lc(tc.name)); len(errs) != 0 {
			t.Errorf("%q in %s: %v", tc.name, tc.parent, errs)
		}
	}
	for _, tc := range []struct {
		parent logicalcluster.Name
		name   string
	}{
		{"root", ""},
		{"root", "A"},
		{"root", "a.b"},
		{"root", "a:b"},
		{"root", "a_b"},
		{"root", "-a"},
		{"root:org", strings.Repeat("x", 64)},
	} {
		if errs := ValidateLogicalCluster(tc.parent, lc(tc.name)); len(errs) == 0 {
			t.Errorf("%q in %s was accepted", tc.name, tc.parent)
		}
	}
}

func TestValidateLogicalClusterStatus(t *testing.T) {
	ok := lc("a")
	ok.Status.Phase = tenancyv1alpha1.LogicalClusterTerminating
	if errs := ValidateLogicalCluster("root", ok); len(errs) != 0 {
		t.Errorf("phase Terminating: %v", errs)
	}
	bad := lc("a")
	bad.Status.Phase = "Sleeping"
	if errs := ValidateLogicalCluster("root", bad); len(errs) != 1 || errs[0].Field != "status.phase" {
		t.Errorf("phase Sleeping: %v", errs)
	}
}

func TestValidateLogicalClusterUpdate(t *testing.T) {
	old := lc("a")
	old.ResourceVersion = "1"
	renamed := old.DeepCopy()
	renamed.Name = "b"
	if errs := ValidateLogicalClusterUpdate("root", renamed, old); len(errs) == 0 {
		t.Error("a rename was accepted")
	}
	labeled := old.DeepCopy()
	labeled.Labels = map[string]string{"team": "x"}
	if errs := ValidateLogicalClusterUpdate("root", labeled, old); len(errs) != 0 {
		t.Errorf("adding a label: %v", errs)
	}
}

func TestStrategy(t *testing.T) {
	var s strategy
	obj := lc("a")
	obj.Status = tenancyv1alpha1.LogicalClusterStatus{Phase: tenancyv1alpha1.LogicalClusterReady, URL: "https://forged"}
	s.PrepareForCreate(t.Context(), obj)
	if obj.Status.Phase != tenancyv1alpha1.LogicalClusterInitializing || obj.Status.URL != "" {
		t.Errorf("a client set the status on create: %+v", obj.Status)
	}
	if len(obj.Finalizers) != 1 || obj.Finalizers[0] != tenancyv1alpha1.LogicalClusterFinalizer {
		t.Errorf("finalizers on create: %v", obj.Finalizers)
	}
	s.PrepareForCreate(t.Context(), obj)
	if len(obj.Finalizers) != 1 {
		t.Errorf("the finalizer was added twice: %v", obj.Finalizers)
	}

	old := obj.DeepCopy()
	updated := obj.DeepCopy()
	updated.Status.Phase = tenancyv1alpha1.LogicalClusterReady
	s.PrepareForUpdate(t.Context(), updated, old)
	if updated.Status != old.Status {
		t.Errorf("an update of the main resource changed the status to %+v", updated.Status)
	}
	statusUpdate := obj.DeepCopy()
	statusUpdate.Status.Phase = tenancyv1alpha1.LogicalClusterReady
	statusStrategy{s}.PrepareForUpdate(t.Context(), statusUpdate, old)
	if statusUpdate.Status.Phase != tenancyv1alpha1.LogicalClusterReady {
		t.Errorf("a status update did not change the status: %+v", statusUpdate.Status)
	}
}

func TestValidateLogicalClusterAdmins(t *testing.T) {
	user := func(name string) rbacv1.Subject {
		return rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: name}
	}
	for _, tc := range []struct {
		name  string
		admin rbacv1.Subject
		field string // the field the one error is on, or "" if accepted
	}{
		{"user", user("alice"), ""},
		{"group", rbacv1.Subject{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: "team"}, ""},
		{"service account", rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: "default", Name: "bot"}, ""},
		{"no name", user(""), "spec.admins[0].name"},
		{"no kind", rbacv1.Subject{APIGroup: rbacv1.GroupName, Name: "alice"}, "spec.admins[0].kind"},
		{"unknown kind", rbacv1.Subject{Kind: "Robot", APIGroup: rbacv1.GroupName, Name: "alice"}, "spec.admins[0].kind"},
		{"user of another group", rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: "example.com", Name: "alice"}, "spec.admins[0].apiGroup"},
		{"service account with a group", rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, APIGroup: rbacv1.GroupName, Namespace: "default", Name: "bot"}, "spec.admins[0].apiGroup"},
		{"service account without a namespace", rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "bot"}, "spec.admins[0].namespace"},
		{"service account with a bad name", rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: "default", Name: "Bot!"}, "spec.admins[0].name"},
	} {
		obj := lc("a")
		obj.Spec.Admins = []rbacv1.Subject{tc.admin}
		errs := ValidateLogicalCluster("root", obj)
		switch {
		case tc.field == "" && len(errs) != 0:
			t.Errorf("%s: %v", tc.name, errs)
		case tc.field != "" && (len(errs) != 1 || errs[0].Field != tc.field):
			t.Errorf("%s: want one error on %s, got %v", tc.name, tc.field, errs)
		}
	}
}

func TestStrategyAdmins(t *testing.T) {
	var s strategy
	alice := rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: "alice"}
	bob := rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: "bob"}
	as := func(u user.Info) context.Context { return genericapirequest.WithUser(t.Context(), u) }
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		admins []rbacv1.Subject
		want   []rbacv1.Subject
	}{
		{"the creator is added", as(&user.DefaultInfo{Name: "alice"}), nil, []rbacv1.Subject{alice}},
		{"after those named", as(&user.DefaultInfo{Name: "alice"}), []rbacv1.Subject{bob}, []rbacv1.Subject{bob, alice}},
		{"once", as(&user.DefaultInfo{Name: "alice"}), []rbacv1.Subject{alice}, []rbacv1.Subject{alice}},
		{"once, whatever the API group was left out", as(&user.DefaultInfo{Name: "alice"}),
			[]rbacv1.Subject{{Kind: rbacv1.UserKind, Name: "alice"}}, []rbacv1.Subject{alice}},
		{"system:masters are not", as(&user.DefaultInfo{Name: "admin", Groups: []string{user.SystemPrivilegedGroup}}), nil, nil},
		{"service accounts are not", as(serviceaccount.UserInfo("default", "bot", "")), nil, nil},
		{"nor is no one", t.Context(), []rbacv1.Subject{bob}, []rbacv1.Subject{bob}},
	} {
		obj := lc("a")
		obj.Spec.Admins = tc.admins
		s.PrepareForCreate(tc.ctx, obj)
		if !apiequality.Semantic.DeepEqual(obj.Spec.Admins, tc.want) {
			t.Errorf("%s: admins %v, want %v", tc.name, obj.Spec.Admins, tc.want)
		}
		if obj.Generation != 1 {
			t.Errorf("%s: generation %d on create", tc.name, obj.Generation)
		}
	}
}

func TestStrategyGeneration(t *testing.T) {
	var s strategy
	old := lc("a")
	old.Generation = 3
	old.Status.ObservedGeneration = 3

	labeled := old.DeepCopy()
	labeled.Labels = map[string]string{"team": "x"}
	labeled.Generation = 9
	s.PrepareForUpdate(t.Context(), labeled, old)
	if labeled.Generation != 3 {
		t.Errorf("a change of labels, or a client, set the generation to %d", labeled.Generation)
	}

	changed := old.DeepCopy()
	changed.Spec.Admins = []rbacv1.Subject{{Kind: rbacv1.UserKind, Name: "bob"}}
	s.PrepareForUpdate(t.Context(), changed, old)
	if changed.Generation != 4 {
		t.Errorf("a change of the spec made generation %d, want 4", changed.Generation)
	}
	if changed.Spec.Admins[0].APIGroup != rbacv1.GroupName {
		t.Errorf("the admin's API group was not defaulted: %+v", changed.Spec.Admins[0])
	}

	statusUpdate := changed.DeepCopy()
	statusUpdate.Spec.Admins = nil
	statusUpdate.Generation = 1
	statusUpdate.Status.ObservedGeneration = 4
	statusStrategy{s}.PrepareForUpdate(t.Context(), statusUpdate, changed)
	if statusUpdate.Generation != 4 || len(statusUpdate.Spec.Admins) != 1 || statusUpdate.Status.ObservedGeneration != 4 {
		t.Errorf("a status update changed the spec or generation, or not the status: %+v", statusUpdate)
	}
}
