package syncerdeploy

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

var target = Target{Cluster: "root:platform", Name: "pc1", Labels: map[string]string{"region": "eu"}, Resources: []workloadv1alpha1.GroupResource{
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

	// The replicas of a hub without one address for all are the syncer's
	// --hub-url flags.
	if err := yaml.Unmarshal([]byte(documents(t, target, "https://hub-0:6443", "https://hub-1:6443")["Deployment"]), &d); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Spec.Template.Spec.Containers[0].Args, " "); got != "--hub-kubeconfig /etc/canopy/hub/kubeconfig --sync-target root:platform:pc1 --hub-url https://hub-0:6443 --hub-url https://hub-1:6443" {
		t.Errorf("syncer args with two hub replicas %q", got)
	}
}

// TestHubIdentity checks that the syncer's credential names its target,
// which is what scopes it at the hub, and that the SyncTarget registered
// is the target's.
func TestHubIdentity(t *testing.T) {
	if got := target.User(); got != "syncer:"+target.Key() {
		t.Errorf("user %s", got)
	}
	var named, uids []string
	groups := target.Groups("4a1c")
	for _, g := range groups {
		if cluster, name, ok := workloadv1alpha1.SyncTargetOfGroup(g); ok {
			named = append(named, cluster+" "+name)
		}
		if uid, ok := workloadv1alpha1.SyncTargetUIDOfGroup(g); ok {
			uids = append(uids, uid)
		}
	}
	if !slices.Contains(groups, workloadv1alpha1.SyncersGroup) || !slices.Equal(named, []string{"root:platform pc1"}) || !slices.Equal(uids, []string{"4a1c"}) {
		t.Errorf("groups %v: want %s, one naming root:platform pc1 and one naming UID 4a1c", groups, workloadv1alpha1.SyncersGroup)
	}
	st := target.SyncTarget()
	if st.Name != "pc1" || !reflect.DeepEqual(st.Labels, target.Labels) || !reflect.DeepEqual(st.Spec.Resources, target.Resources) {
		t.Errorf("SyncTarget %+v", st)
	}
}

// documents are the documents of t's manifest by kind.
func documents(t *testing.T, target Target, hubURLs ...string) map[string]string {
	t.Helper()
	manifest, err := Manifest(target, "example.com/syncer:v1", []byte("hub kubeconfig"), hubURLs...)
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

// TestKubeconfigSecret checks that rotation prints the very Secret of the
// manifest, with the new kubeconfig, so that applying it replaces that
// Secret's content and nothing else.
func TestKubeconfigSecret(t *testing.T) {
	secret, err := KubeconfigSecret(target, []byte("hub kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(string(secret)), strings.TrimSpace(documents(t, target)["Secret"]); got != want {
		t.Errorf("the rotated Secret\n%s\nwant the manifest's\n%s", got, want)
	}
	manifest, err := Manifest(target, "example.com/syncer:v1", []byte("hub kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range [][]byte{secret, manifest} {
		if got, err := HubKubeconfig(m); err != nil || string(got) != "hub kubeconfig" {
			t.Errorf("the hub kubeconfig %q, %v", got, err)
		}
	}
}

// TestSplitImage: the chart gets back the image Manifest runs, whatever
// its shape.
func TestSplitImage(t *testing.T) {
	for image, want := range map[string]chartImage{
		"ghcr.io/canopy-dev/syncer:v1.2.3":         {Repository: "ghcr.io/canopy-dev/syncer", Tag: "v1.2.3"},
		"registry.example.com:5000/canopy/syncer":  {Repository: "registry.example.com:5000/canopy/syncer", Tag: "latest"},
		"registry.example.com:5000/syncer:v1":      {Repository: "registry.example.com:5000/syncer", Tag: "v1"},
		"example.com/syncer@sha256:0123456789abcd": {Repository: "example.com/syncer", Digest: "sha256:0123456789abcd"},
		"syncer": {Repository: "syncer", Tag: "latest"},
	} {
		if got := splitImage(image); got != want {
			t.Errorf("splitImage(%q) = %+v, want %+v", image, got, want)
		}
	}
}
