package bootstrappolicy

import (
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MetricsReaderName is the ClusterRole metrics-server's manifest adds.
const MetricsReaderName = "system:aggregated-metrics-reader"

// MetricsReader is the ClusterRole metrics-server v0.8.0's manifest adds
// to a cluster, aggregated into view, edit and admin, so that those who
// may read pods may read their usage. Every logical cluster serves
// metrics.k8s.io's pods (kubectl top pod) as a cluster with
// metrics-server does, so it starts with this role too, besides kube's
// own defaults.
func MetricsReader() *rbacv1.ClusterRole {
	return &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{
			Name: MetricsReaderName,
			Labels: map[string]string{
				"k8s-app": "metrics-server",
				"rbac.authorization.k8s.io/aggregate-to-admin": "true",
				"rbac.authorization.k8s.io/aggregate-to-edit":  "true",
				"rbac.authorization.k8s.io/aggregate-to-view":  "true",
			},
		},
		Rules: []rbacv1.PolicyRule{{
			APIGroups: []string{"metrics.k8s.io"},
			Resources: []string{"pods", "nodes"},
			Verbs:     []string{"get", "list", "watch"},
		}},
	}
}
