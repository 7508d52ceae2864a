package sync

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestUpsyncedNode checks the copy of a node at the hub: the node's own
// metadata, spec and status, marked as the syncer's, without what tells
// of other tenants' pods.
func TestUpsyncedNode(t *testing.T) {
	down := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: "n1", UID: "down-uid", ResourceVersion: "42", Labels: map[string]string{"zone": "eu-a"},
			Annotations: map[string]string{corev1.LastAppliedConfigAnnotation: "{}", "node.alpha.kubernetes.io/ttl": "0"},
			Finalizers:  []string{"example.com/keep"},
		},
		Spec: corev1.NodeSpec{Unschedulable: true, Taints: []corev1.Taint{{Key: "k", Effect: corev1.TaintEffectNoSchedule}}},
		Status: corev1.NodeStatus{
			Allocatable:     corev1.ResourceList{corev1.ResourceCPU: apiresource.MustParse("4")},
			Conditions:      []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
			Images:          []corev1.ContainerImage{{Names: []string{"registry.example.com/other-tenant/secret-app:1"}}},
			VolumesInUse:    []corev1.UniqueVolumeName{"kubernetes.io/csi/other-tenant-volume"},
			VolumesAttached: []corev1.AttachedVolume{{Name: "kubernetes.io/csi/other-tenant-volume"}},
			NodeInfo:        corev1.NodeSystemInfo{KubeletVersion: "v1.37.1"},
		},
	}
	got := upsyncedNode(down, "k1")
	if got.Name != "n1" || got.UID != "" || got.ResourceVersion != "" || got.Finalizers != nil {
		t.Errorf("metadata %+v: want the name only, of what names the downstream object", got.ObjectMeta)
	}
	if got.Labels["zone"] != "eu-a" || got.Labels[workloadv1alpha1.UpsyncedLabel] != "k1" || down.Labels[workloadv1alpha1.UpsyncedLabel] != "" {
		t.Errorf("labels %v: want the node's and the upsynced mark, on a copy", got.Labels)
	}
	if _, ok := got.Annotations[corev1.LastAppliedConfigAnnotation]; ok || got.Annotations["node.alpha.kubernetes.io/ttl"] != "0" {
		t.Errorf("annotations %v: want the node's but kubectl's last applied configuration", got.Annotations)
	}
	if !got.Spec.Unschedulable || len(got.Spec.Taints) != 1 {
		t.Errorf("spec %+v: want the node's", got.Spec)
	}
	s := got.Status
	if s.Images != nil || s.VolumesInUse != nil || s.VolumesAttached != nil {
		t.Errorf("status keeps images %v, volumes in use %v, attached %v: they tell of other tenants' pods", s.Images, s.VolumesInUse, s.VolumesAttached)
	}
	if s.Allocatable.Cpu().String() != "4" || len(s.Conditions) != 1 || s.NodeInfo.KubeletVersion != "v1.37.1" || down.Status.Images == nil {
		t.Errorf("status %+v: want the node's allocatable, conditions and info, on a copy", s)
	}
}
