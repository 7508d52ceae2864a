package e2e

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// The hub's cluster annotation is no client's field: a client that reads
// an object and writes it back, annotation and all, does not come to own
// it, and writing back an unchanged object changes nothing, as in
// kube-apiserver, where there is no such annotation; a manager that adds
// an object's first annotation owns the annotations map, as there.
func TestManagedFieldsWithoutClusterAnnotation(t *testing.T) {
	t.Parallel()
	_, admin, _ := startHubWith(t, "a")
	client, err := kubernetes.NewForConfig(admin.restConfig("a"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cms := client.CoreV1().ConfigMaps("default")
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Data: map[string]string{"k": "v"}},
		metav1.CreateOptions{FieldManager: "creator"})
	if err != nil {
		t.Fatal(err)
	}
	if cm.Annotations[logicalcluster.Annotation] != "root:a" {
		t.Fatalf("created with annotations %v, want %s root:a", cm.Annotations, logicalcluster.Annotation)
	}

	// Written back as read: nothing changes, so nothing is written.
	same, err := cms.Update(ctx, cm, metav1.UpdateOptions{FieldManager: "roundtrip"})
	if err != nil {
		t.Fatal(err)
	}
	if same.ResourceVersion != cm.ResourceVersion {
		t.Errorf("an unchanged update was written: resourceVersion %s, then %s", cm.ResourceVersion, same.ResourceVersion)
	}
	assertManagers(t, "after an unchanged update", same, map[string]string{"creator": `{"f:data":{".":{},"f:k":{}}}`})

	// Written back with data changed: the writer owns its data, not the
	// annotation it sent back.
	cm = same.DeepCopy()
	cm.Data["k"] = "w"
	changed, err := cms.Update(ctx, cm, metav1.UpdateOptions{FieldManager: "roundtrip"})
	if err != nil {
		t.Fatal(err)
	}
	assertManagers(t, "after an update of the data", changed, map[string]string{
		"creator":   `{"f:data":{}}`,
		"roundtrip": `{"f:data":{"f:k":{}}}`,
	})

	// The first annotation of the object makes its annotations map.
	patched, err := cms.Patch(ctx, "c", types.MergePatchType, []byte(`{"metadata":{"annotations":{"a":"1"}}}`), metav1.PatchOptions{FieldManager: "annotator"})
	if err != nil {
		t.Fatal(err)
	}
	assertManagers(t, "after the first annotation", patched, map[string]string{
		"creator":   `{"f:data":{}}`,
		"roundtrip": `{"f:data":{"f:k":{}}}`,
		"annotator": `{"f:metadata":{"f:annotations":{".":{},"f:a":{}}}}`,
	})
}

// assertManagers checks that obj's managedFields are want's, by manager,
// and never name the cluster annotation.
func assertManagers(t *testing.T, when string, obj metav1.Object, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, e := range obj.GetManagedFields() {
		got[e.Manager] = string(e.FieldsV1.Raw)
		if strings.Contains(got[e.Manager], logicalcluster.Annotation) {
			t.Errorf("%s: manager %s owns the cluster annotation: %s", when, e.Manager, got[e.Manager])
		}
	}
	for m, fields := range want {
		if got[m] != fields {
			t.Errorf("%s: manager %s owns %s, want %s", when, m, got[m], fields)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: managers %v, want %v", when, got, want)
	}
}
