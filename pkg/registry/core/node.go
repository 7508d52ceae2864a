package core

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/node"
)

// The nodes of a logical cluster are the physical nodes its pods run on,
// copied up by the syncers as its pods are (pkg/sync): so a pod's
// spec.nodeName names a node there, and kubectl get and describe node
// work. Only a syncer writes them, which pkg/admission/upsynced and
// pkg/syncerscope enforce; here they are stored, selected and printed as
// kube-apiserver does, and validated by upstream's strategy, which a
// syncer's copy of a node its physical cluster accepted passes.

// nodeResource is the nodes resource and its status.
func nodeResource(typer runtime.ObjectTyper) registry.Resource {
	nodes := registry.Kind[*corev1.Node]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: corev1.SchemeGroupVersion.String(), ClusterScoped: true, Upstream: upstream.For(node.Strategy)}
	return registry.Resource{
		Singular: "node", Plural: "nodes", ShortNames: []string{"no"},
		New:      func() runtime.Object { return &corev1.Node{} },
		NewList:  func() runtime.Object { return &corev1.NodeList{} },
		Fields:   nodeFields,
		Strategy: nodes,
		Status:   registry.StatusOf[*corev1.Node]{Kind: nodes, Upstream: upstream.For(node.StatusStrategy)},
		Table:    nodeTable,
	}
}

// nodeFields: k8s.io/kubernetes@v1.37.1 pkg/registry/core/node/strategy.go
// NodeToSelectableFields; pkg/apis/core/v1/conversion.go, kind Node.
var nodeFields = registry.Fields[*corev1.Node]{
	ClusterScoped: true,
	Values: map[string]func(*corev1.Node) string{
		"spec.unschedulable": func(n *corev1.Node) string {
			if n.Spec.Unschedulable {
				return "true"
			}
			return "false"
		},
	},
}

// nodeTable: k8s.io/kubernetes@v1.37.1
// pkg/printers/internalversion/printers.go printNode, whose kubelet
// version comes after the age.
var nodeTable = registry.Table{
	Whole: true,
	Columns: []metav1.TableColumnDefinition{
		{Name: "Name", Type: "string", Format: "name", Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]},
		registry.Column("Status", "string", "The status of the node"),
		registry.Column("Roles", "string", "The roles of the node"),
		registry.Column("Age", "string", metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]),
		registry.Column("Version", "string", corev1.NodeSystemInfo{}.SwaggerDoc()["kubeletVersion"]),
		wide(registry.Column("Internal-IP", "string", corev1.NodeStatus{}.SwaggerDoc()["addresses"])),
		wide(registry.Column("External-IP", "string", corev1.NodeStatus{}.SwaggerDoc()["addresses"])),
		wide(registry.Column("OS-Image", "string", corev1.NodeSystemInfo{}.SwaggerDoc()["osImage"])),
		wide(registry.Column("Kernel-Version", "string", corev1.NodeSystemInfo{}.SwaggerDoc()["kernelVersion"])),
		wide(registry.Column("Container-Runtime", "string", corev1.NodeSystemInfo{}.SwaggerDoc()["containerRuntimeVersion"])),
	},
	Cells: func(o runtime.Object) []any {
		n := o.(*corev1.Node)
		info := n.Status.NodeInfo
		kernel := orUnknown(info.KernelVersion)
		if info.Architecture != "" {
			kernel += " (" + info.Architecture + ")"
		}
		return []any{n.Name, nodeStatus(n), nodeRoles(n), registry.Age(n.CreationTimestamp), info.KubeletVersion,
			nodeAddress(n, corev1.NodeInternalIP), nodeAddress(n, corev1.NodeExternalIP), orUnknown(info.OSImage), kernel, orUnknown(info.ContainerRuntimeVersion)}
	},
}

// nodeStatus is Ready, NotReady or Unknown by the node's Ready condition,
// with SchedulingDisabled when it is cordoned.
func nodeStatus(n *corev1.Node) string {
	status := []string{"Unknown"}
	if i := slices.IndexFunc(n.Status.Conditions, func(c corev1.NodeCondition) bool { return c.Type == corev1.NodeReady }); i >= 0 {
		status[0] = "NotReady"
		if n.Status.Conditions[i].Status == corev1.ConditionTrue {
			status[0] = "Ready"
		}
	}
	if n.Spec.Unschedulable {
		status = append(status, "SchedulingDisabled")
	}
	return strings.Join(status, ",")
}

// nodeRoles are the roles the node's labels node-role.kubernetes.io/<role>
// and kubernetes.io/role name, sorted, or <none>.
func nodeRoles(n *corev1.Node) string {
	roles := sets.New[string]()
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			if role := strings.TrimPrefix(k, "node-role.kubernetes.io/"); role != "" {
				roles.Insert(role)
			}
		case k == "kubernetes.io/role" && v != "":
			roles.Insert(v)
		}
	}
	if roles.Len() == 0 {
		return "<none>"
	}
	return strings.Join(sets.List(roles), ",")
}

// nodeAddress is the node's first address of type t, or <none>.
func nodeAddress(n *corev1.Node, t corev1.NodeAddressType) string {
	for _, a := range n.Status.Addresses {
		if a.Type == t {
			return a.Address
		}
	}
	return "<none>"
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}
