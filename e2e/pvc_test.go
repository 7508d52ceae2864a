package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestPersistentVolumeClaimSync checks what the README says of claims: a
// claim assigned to a SyncTarget that accepts persistentvolumeclaims is
// made in the physical cluster and bound there, to a volume of that
// cluster, and its status comes back to the hub, where the claim carries
// no protection finalizer of its own; deleted at the hub, it goes
// downstream too.
func TestPersistentVolumeClaimSync(t *testing.T) {
	t.Parallel()
	admin, pc1, key, syncer := setUpSyncer(t)
	// A target reads the resources it accepts when its syncer starts.
	admin.must("--context", "root", "patch", "synctarget", "pc1", "--type=merge", "-p",
		`{"spec":{"resources":[{"group":"apps","resource":"deployments"},{"resource":"configmaps"},{"resource":"secrets"},{"resource":"services"},{"resource":"persistentvolumeclaims"}]}}`)
	syncer.kill()
	syncer.start()
	syncer.waitReady(60 * time.Second)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	pv := &corev1.PersistentVolume{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-data"},
		Spec: corev1.PersistentVolumeSpec{
			Capacity:                      corev1.ResourceList{corev1.ResourceStorage: apiresource.MustParse("1Gi")},
			AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			PersistentVolumeSource:        corev1.PersistentVolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/tmp/e2e-data"}},
			StorageClassName:              "e2e-manual",
			PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimRetain,
		},
	}
	if _, err := pc1.Client.CoreV1().PersistentVolumes().Create(ctx, pv, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	admin.apply("a", `apiVersion: v1
kind: Namespace
metadata:
  name: ns1
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: ns1
  labels:
    state.workload.canopy.dev/`+key+`: Sync
spec:
  storageClassName: e2e-manual
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`)
	waitFor(t, 90*time.Second, "the claim at the hub to be Bound, as it is in pc1", func() (bool, string) {
		got := admin.must("--context", "a", "get", "pvc", "data", "-n", "ns1", "-o", "jsonpath={.status.phase} {.status.capacity.storage}")
		return got == "Bound 1Gi", got
	})
	if got := admin.must("--context", "a", "get", "pvc", "data", "-n", "ns1", "-o", "jsonpath={.metadata.finalizers}"); strings.Contains(got, "kubernetes.io/pvc-protection") {
		t.Errorf("the claim at the hub has finalizers %s: no controller there removes kubernetes.io/pvc-protection", got)
	}
	ns := workloadv1alpha1.DownstreamNamespace(key, "root:a", "ns1")
	down, err := pc1.Client.CoreV1().PersistentVolumeClaims(ns).Get(ctx, "data", metav1.GetOptions{})
	if err != nil || down.Spec.VolumeName != "e2e-data" {
		t.Fatalf("the claim in pc1 is not bound to its volume e2e-data: %v %v", down, err)
	}

	admin.must("--context", "a", "delete", "pvc", "data", "-n", "ns1", "--wait=false")
	waitFor(t, 90*time.Second, "the claim to go at the hub and in pc1", func() (bool, string) {
		hub, _ := admin.run("--context", "a", "get", "pvc", "-n", "ns1", "-o", "name")
		claims, err := pc1.Client.CoreV1().PersistentVolumeClaims(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err.Error()
		}
		return strings.TrimSpace(hub) == "" && len(claims.Items) == 0, "hub: " + hub
	})
}
