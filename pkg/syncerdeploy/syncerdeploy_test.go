package syncerdeploy

import (
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

var target = Target{Cluster: "root:platform", Name: "pc1", Resources: []workloadv1alpha1.GroupResource{
	{Group: "apps", Resource: "deployments"}, {Resource: "configmaps"}, {Group: "apps", Resource: "statefulsets"},
}}

func TestManifestRBAC(t *testing.T) {
	docs := documents(t, target)
	var role rbacv1.ClusterRole
	if err := yaml.Unmarshal([]byte(docs["ClusterRole"]), &role); err != nil {
		t.Fatal(err)
	}
	all := []string{"get", "list", "watch", "create", "update", "patch", "delete"}
	want := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: all},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments", "statefulsets"}, Verbs: all},
		{APIGroups: []string{""}, Resources: []string{"configmaps", "secrets", "serviceaccounts"}, Verbs: all},
		{APIGroups: []string{""}, Resources: []string{"pods", "events"}, Verbs: []string{"list", "watch"}},
		{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get", "list", "watch", "create", "delete"}},
		{APIGroups: []string{""}, Resources: []string{"nodes"}, Verbs: []string{"list", "watch"}},
	}
	if !reflect.DeepEqual(role.Rules, want) {
		t.Errorf("the physical cluster's ClusterRole rules\n%+v\nwant\n%+v", role.Rules, want)
	}
}

func TestManifestDeployment(t *testing.T) {
	docs := documents(t, target)
	var d appsv1.Deployment
	if err := yaml.Unmarshal([]byte(docs["Deployment"]), &d); err != nil {
		t.Fatal(err)
	}
	c := d.Spec.Template.Spec.Containers[0]
	if got := strings.Join(c.Args, " "); got != "--hub-kubeconfig /etc/canopy/hub/kubeconfig --sync-target root:platform:pc1" {
		t.Errorf("syncer args %q", got)
	}
	if c.Image != "example.com/syncer:v1" || d.Namespace != Namespace || d.Spec.Template.Spec.ServiceAccountName != "syncer-"+target.Key() {
		t.Errorf("syncer Deployment %s/%s, image %s, service account %s", d.Namespace, d.Name, c.Image, d.Spec.Template.Spec.ServiceAccountName)
	}
	if !strings.Contains(docs["Secret"], "kubeconfig: "+"aHViIGt1YmVjb25maWc=") {
		t.Errorf("the Secret does not hold the hub kubeconfig:\n%s", docs["Secret"])
	}
}

func TestHubObjects(t *testing.T) {
	where := map[string]logicalcluster.Name{}
	var writeRules []rbacv1.PolicyRule
	for _, o := range HubObjects(target, []logicalcluster.Name{"root:a"}) {
		switch obj := o.Object.(type) {
		case *workloadv1alpha1.SyncTarget:
			where["synctarget"] = o.Cluster
		case *rbacv1.ClusterRole:
			where[obj.Name] = o.Cluster
			if strings.HasSuffix(obj.Name, ":write") {
				writeRules = obj.Rules
			}
		case *rbacv1.ClusterRoleBinding:
			if obj.Subjects[0].Name != "syncer:"+target.Key() || obj.RoleRef.Name != obj.Name {
				t.Errorf("ClusterRoleBinding %s binds %s to %+v", obj.Name, obj.RoleRef.Name, obj.Subjects)
			}
		}
	}
	prefix := "canopy:syncer:" + target.Key() + ":"
	want := map[string]logicalcluster.Name{"synctarget": "root:platform", prefix + "read": "root", prefix + "report": "root:platform", prefix + "write": "root:a"}
	if !reflect.DeepEqual(where, want) {
		t.Errorf("hub objects in %v, want %v", where, want)
	}
	wantWrite := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"configmaps", "configmaps/status"}, Verbs: []string{"get", "update"}},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments", "deployments/status", "statefulsets", "statefulsets/status"}, Verbs: []string{"get", "update"}},
		{APIGroups: []string{""}, Resources: []string{"configmaps", "secrets", "serviceaccounts"}, Verbs: []string{"get"}},
		{APIGroups: []string{""}, Resources: []string{"pods", "pods/status"}, Verbs: []string{"get", "create", "update", "delete"}},
		{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create", "update", "delete"}},
	}
	if !reflect.DeepEqual(writeRules, wantWrite) {
		t.Errorf("write rules %+v, want %+v", writeRules, wantWrite)
	}
}

// documents are the documents of t's manifest by kind.
func documents(t *testing.T, target Target) map[string]string {
	t.Helper()
	manifest, err := Manifest(target, "example.com/syncer:v1", []byte("hub kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, doc := range strings.Split(string(manifest), "\n---\n") {
		var typed struct{ Kind string }
		if err := yaml.Unmarshal([]byte(doc), &typed); err != nil {
			t.Fatal(err)
		}
		docs[typed.Kind] = doc
	}
	if len(docs) != 6 {
		t.Fatalf("the manifest holds kinds %v, want 6", docs)
	}
	return docs
}
