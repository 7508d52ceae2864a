package syncerdeploy

import (
	"context"
	"fmt"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// HubObject is an object to create at the hub, in logical cluster
// Cluster.
type HubObject struct {
	Cluster logicalcluster.Name
	Object  runtime.Object
}

// HubObjects are the SyncTarget of t and the RBAC its syncer needs at the
// hub:
//
//   - in root, list and watch of the synced resources, which the wildcard
//     grants a member of canopy:wildcard-readers across every logical
//     cluster;
//   - in the target's logical cluster, get of the SyncTarget and update of
//     its status, for the heartbeat;
//   - in each of workloadClusters, get and update of the synced resources
//     and their status, for the syncer's finalizer on each object it syncs
//     and for the status it brings back.
//
// The last grant is per logical cluster because RBAC is: a logical
// cluster created later, or not named here, whose objects are assigned to
// the target needs the same ClusterRole and ClusterRoleBinding there,
// which WorkloadRBAC returns.
func HubObjects(t Target, workloadClusters []logicalcluster.Name) []HubObject {
	objs := []HubObject{{t.Cluster, &workloadv1alpha1.SyncTarget{
		TypeMeta:   metav1.TypeMeta{APIVersion: workloadv1alpha1.SchemeGroupVersion.String(), Kind: "SyncTarget"},
		ObjectMeta: metav1.ObjectMeta{Name: t.Name, Labels: t.Labels},
		Spec:       workloadv1alpha1.SyncTargetSpec{Resources: t.Resources},
	}}}
	groups, resources := t.byGroup()
	var read []rbacv1.PolicyRule
	for _, g := range groups {
		read = append(read, rbacv1.PolicyRule{APIGroups: []string{g}, Resources: resources[g], Verbs: []string{"list", "watch"}})
	}
	// The pods and Events the syncer copied up, whose originals may have gone while
	// it was away.
	read = append(read, rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods", "events"}, Verbs: []string{"list", "watch"}})
	for _, o := range t.hubRBAC("read", read) {
		objs = append(objs, HubObject{logicalcluster.Root, o})
	}
	for _, o := range t.hubRBAC("report", []rbacv1.PolicyRule{
		{APIGroups: []string{workloadv1alpha1.GroupName}, Resources: []string{"synctargets"}, ResourceNames: []string{t.Name}, Verbs: []string{"get"}},
		{APIGroups: []string{workloadv1alpha1.GroupName}, Resources: []string{"synctargets/status"}, ResourceNames: []string{t.Name}, Verbs: []string{"update"}},
	}) {
		objs = append(objs, HubObject{t.Cluster, o})
	}
	for _, c := range workloadClusters {
		for _, o := range WorkloadRBAC(t) {
			objs = append(objs, HubObject{c, o})
		}
	}
	return objs
}

// WorkloadRBAC is the ClusterRole and ClusterRoleBinding that let the
// syncer of t do what it must in a logical cluster whose objects are
// assigned to t: write the finalizer on each and their status, read the
// ConfigMaps, Secrets and ServiceAccounts their pods use, keep the
// copies of their pods and of the Events downstream, and record Events,
// such as a conflict downstream, on them.
func WorkloadRBAC(t Target) []runtime.Object {
	groups, resources := t.byGroup("status")
	var write []rbacv1.PolicyRule
	for _, g := range groups {
		write = append(write, rbacv1.PolicyRule{APIGroups: []string{g}, Resources: resources[g], Verbs: []string{"get", "update"}})
	}
	write = append(write,
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: dependencies, Verbs: []string{"get"}},
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"pods", "pods/status"}, Verbs: []string{"get", "create", "update", "delete"}},
		rbacv1.PolicyRule{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create", "update", "delete"}},
	)
	return t.hubRBAC("write", write)
}

// dependencies are the kinds a pod template refers to, which follow a
// workload downstream.
var dependencies = []string{"configmaps", "secrets", "serviceaccounts"}

// hubRBAC is a ClusterRole canopy:syncer:<key>:<purpose> of rules and its
// binding to the syncer's user.
func (t Target) hubRBAC(purpose string, rules []rbacv1.PolicyRule) []runtime.Object {
	name := "canopy:syncer:" + t.Key() + ":" + purpose
	return clusterRBAC(t.meta(name, ""), rules, rbacv1.Subject{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: t.User()})
}

// clusterRBAC is a ClusterRole of rules and a ClusterRoleBinding of it to
// subject, both with m.
func clusterRBAC(m metav1.ObjectMeta, rules []rbacv1.PolicyRule, subject rbacv1.Subject) []runtime.Object {
	return []runtime.Object{
		&rbacv1.ClusterRole{TypeMeta: typeMeta(rbacv1.SchemeGroupVersion.String(), "ClusterRole"), ObjectMeta: m, Rules: rules},
		&rbacv1.ClusterRoleBinding{
			TypeMeta: typeMeta(rbacv1.SchemeGroupVersion.String(), "ClusterRoleBinding"), ObjectMeta: m,
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: m.Name},
			Subjects: []rbacv1.Subject{subject},
		},
	}
}

func typeMeta(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}

// Register creates objs at the hub that admin, a kubeconfig's client
// configuration whose server may address any logical cluster, reaches,
// or updates them where they exist, so that registering a target again
// brings it and its RBAC up to date.
func Register(ctx context.Context, admin *rest.Config, objs []HubObject) error {
	base, _, _ := strings.Cut(strings.TrimSuffix(admin.Host, "/"), logicalcluster.PathPrefix)
	clients := map[logicalcluster.Name]*dynamic.DynamicClient{}
	for _, o := range objs {
		client, ok := clients[o.Cluster]
		if !ok {
			cfg := rest.CopyConfig(admin)
			cfg.Host = base + logicalcluster.PathPrefix + string(o.Cluster)
			var err error
			if client, err = dynamic.NewForConfig(cfg); err != nil {
				return err
			}
			clients[o.Cluster] = client
		}
		if err := createOrUpdate(ctx, client, o.Object); err != nil {
			return fmt.Errorf("in logical cluster %s: %w", o.Cluster, err)
		}
	}
	return nil
}

func createOrUpdate(ctx context.Context, client dynamic.Interface, obj runtime.Object) error {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return err
	}
	want := &unstructured.Unstructured{Object: u}
	gvk := obj.GetObjectKind().GroupVersionKind()
	gvr, _ := meta.UnsafeGuessKindToResource(gvk)
	resource := client.Resource(gvr)
	_, err = resource.Create(ctx, want, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		return err
	}
	current, err := resource.Get(ctx, want.GetName(), metav1.GetOptions{})
	if err != nil {
		return err
	}
	want.SetResourceVersion(current.GetResourceVersion())
	_, err = resource.Update(ctx, want, metav1.UpdateOptions{})
	return err
}
