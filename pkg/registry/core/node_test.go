package core

import (
	"context"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestNodeTable checks kubectl get's columns of nodes against what
// kube-apiserver v1.37 prints: NAME STATUS ROLES AGE VERSION, then the
// -o wide ones.
func TestNodeTable(t *testing.T) {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{
			"node-role.kubernetes.io/worker": "", "node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "edge",
		}},
		Spec: corev1.NodeSpec{Unschedulable: true},
		Status: corev1.NodeStatus{
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionFalse}},
			Addresses:  []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.1"}},
			NodeInfo:   corev1.NodeSystemInfo{KubeletVersion: "v1.37.1", Architecture: "amd64"},
		},
	}
	table, err := nodeTable.ConvertToTable(context.Background(), n, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range table.ColumnDefinitions {
		if c.Priority == 0 {
			names = append(names, c.Name)
		}
	}
	if want := []string{"Name", "Status", "Roles", "Age", "Version"}; !slices.Equal(names, want) {
		t.Errorf("columns %v, want %v", names, want)
	}
	cells := table.Rows[0].Cells
	want := []any{"n1", "NotReady,SchedulingDisabled", "control-plane,edge,worker", "<unknown>", "v1.37.1", "10.0.0.1", "<none>", "<unknown>", "<unknown> (amd64)", "<unknown>"}
	if !slices.Equal(cells, want) {
		t.Errorf("cells %v, want %v", cells, want)
	}
	if got := nodeStatus(&corev1.Node{}); got != "Unknown" {
		t.Errorf("the status of a node without conditions: %q, want Unknown", got)
	}
}
