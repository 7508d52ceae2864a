package syncerdeploy

import (
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Target is a SyncTarget to register.
type Target struct {
	// Cluster is the logical cluster the SyncTarget is in.
	Cluster logicalcluster.Name
	Name    string
	// Labels are the target's, for placement to select on.
	Labels map[string]string
	// Resources are what the target accepts; empty means
	// workloadv1alpha1.DefaultResources, as the hub defaults it.
	Resources []workloadv1alpha1.GroupResource
}

// Key is the target's stable key.
func (t Target) Key() string { return workloadv1alpha1.TargetKey(string(t.Cluster), t.Name) }

// Path is the target as the syncer's --sync-target names it.
func (t Target) Path() string { return string(t.Cluster) + ":" + t.Name }

// User is the syncer's user name at the hub, the CommonName of its client
// certificate.
func (t Target) User() string { return workloadv1alpha1.SyncerUser(t.Key()) }

// Groups are the groups of the syncer's client certificate for the
// target's SyncTarget of uid, which confine it to the target's scope at
// the hub, as long as that SyncTarget exists.
func (t Target) Groups(uid types.UID) []string {
	return []string{workloadv1alpha1.SyncersGroup, workloadv1alpha1.SyncTargetGroup(string(t.Cluster), t.Name), workloadv1alpha1.SyncTargetUIDGroup(string(uid))}
}

func (t Target) resources() []workloadv1alpha1.GroupResource {
	if len(t.Resources) == 0 {
		return workloadv1alpha1.DefaultResources
	}
	return t.Resources
}

// byGroup is the target's resources by API group, in a stable order for
// RBAC rules: groups sorted, and each group's resources in the target's
// order.
func (t Target) byGroup() (groups []string, resources map[string][]string) {
	resources = map[string][]string{}
	for _, r := range t.resources() {
		if _, ok := resources[r.Group]; !ok {
			groups = append(groups, r.Group)
		}
		resources[r.Group] = append(resources[r.Group], r.Resource)
	}
	sort.Strings(groups)
	return groups, resources
}

// annotations name the target on the objects made for it.
func (t Target) annotations() map[string]string {
	return map[string]string{syncTargetAnnotation: t.Path()}
}

// syncTargetAnnotation is on every object made for a target, with the
// target's path, since names carry only its key.
const syncTargetAnnotation = "workload.canopy.dev/sync-target"

func (t Target) meta(name, namespace string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: namespace, Annotations: t.annotations()}
}
