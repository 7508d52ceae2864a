// Package bootstrappolicy holds the default ClusterRoles and
// ClusterRoleBindings every logical cluster starts with: Kubernetes'
// bootstrap policy of the pinned version, rule for rule, as data.
//
// The hub may not import k8s.io/kubernetes, where the policy is written
// as Go (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), so the data is
// what a real kube-apiserver of that version serves: the objects labeled
// kubernetes.io/bootstrapping=rbac-defaults, with their names, labels,
// annotations, rules, aggregation rules, role references and subjects,
// and nothing a server fills in. The e2e test TestBootstrapPolicy
// compares a fresh logical cluster with the physical-cluster harness's
// kube-apiserver and, run with -update-bootstrap-policy, rewrites the
// data file from it: moving to the next Kubernetes minor is that run and
// a look at the diff.
//
// Aggregated roles (admin, edit, view, ...) are kept with the rules kube's
// aggregation controller gave them; the hub computes them again from the
// system:aggregate-to-* roles anyway, and the test checks both agree.
//
// Some of kube's defaults name identities no logical cluster has: the
// controllers of kube-controller-manager, nodes and kubelets, the
// scheduler, kube-proxy and kube-dns, and a monitoring group for metrics
// that are the hub's, not a logical cluster's. Excluded lists them, each
// with the reason, and the data file leaves them out.
//
// One role is added: MetricsReader, which metrics-server's manifest adds
// to a cluster, since every logical cluster serves pod metrics as a
// cluster with metrics-server does. TestBootstrapPolicy gives the
// physical cluster it compares with the same role.
package bootstrappolicy
