package core

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// limitRangeCells is kubectl's CREATED AT, which limit ranges show
// instead of an age.
func limitRangeCells(o runtime.Object) []any {
	return []any{o.(*corev1.LimitRange).CreationTimestamp.UTC().Format(time.RFC3339)}
}

// quotaTable is Kubernetes' table of quotas: k8s.io/kubernetes@v1.37.1
// pkg/printers/internalversion/printers.go printResourceQuota.
var quotaTable = registry.Table{
	Columns: []metav1.TableColumnDefinition{
		registry.Column("Request", "string", "Request represents a minimum amount of cpu/memory that a container may consume."),
		registry.Column("Limit", "string", "Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node."),
	},
	Cells: func(o runtime.Object) []any {
		request, limit := quotaUsage(o.(*corev1.ResourceQuota))
		return []any{request, limit}
	},
}

// quotaUsage is kubectl's REQUEST and LIMIT of a quota: used/hard for
// each resource, limits apart.
func quotaUsage(q *corev1.ResourceQuota) (request, limit string) {
	var requests, limits []string
	for _, name := range slices.Sorted(maps.Keys(q.Status.Hard)) {
		used, hard := q.Status.Used[name], q.Status.Hard[name]
		s := fmt.Sprintf("%s: %s/%s", name, used.String(), hard.String())
		if strings.HasPrefix(string(name), "limits.") {
			limits = append(limits, s)
		} else {
			requests = append(requests, s)
		}
	}
	return strings.Join(requests, ", "), strings.Join(limits, ", ")
}
