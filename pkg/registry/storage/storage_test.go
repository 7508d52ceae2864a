package storage

import (
	"context"
	"reflect"
	"testing"
	"time"

	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestDefaultClassInList checks that a list's table marks the default
// class as kubectl's printStorageClassList does: of the classes annotated
// default, the newest, of equally new ones the first by name; a single
// class's table marks none.
func TestDefaultClassInList(t *testing.T) {
	at := func(s int) metav1.Time { return metav1.NewTime(time.Date(2026, 1, 1, 0, 0, s, 0, time.UTC)) }
	class := func(name string, created metav1.Time, annotation string) storagev1.StorageClass {
		sc := storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: created}, Provisioner: "p"}
		if annotation != "" {
			sc.Annotations = map[string]string{annotation: "true"}
		}
		return sc
	}
	list := &storagev1.StorageClassList{Items: []storagev1.StorageClass{
		class("old", at(1), "storageclass.kubernetes.io/is-default-class"),
		class("plain", at(9), ""),
		class("b", at(5), "storageclass.beta.kubernetes.io/is-default-class"),
		class("a", at(5), "storageclass.kubernetes.io/is-default-class"),
	}}
	table, err := classTable{storageClassTable}.ConvertToTable(context.Background(), list, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []any
	for _, r := range table.Rows {
		names = append(names, r.Cells[0])
	}
	if want := []any{"old", "plain", "b", "a (default)"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names in the table: %v, want %v", names, want)
	}
	one, err := classTable{storageClassTable}.ConvertToTable(context.Background(), &list.Items[3], nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := one.Rows[0].Cells; got[0] != "a" || got[2] != "Delete" || got[3] != "Immediate" || got[4] != false {
		t.Errorf("a single class's row: %v", got)
	}
}
