// Package lcctl moves a kubeconfig between the hub's logical clusters: it
// is the logic behind `hub kubeconfig` and the `kubectl lc` plugin.
//
// A kubeconfig context reaches a logical cluster through its server URL,
// https://HOST/clusters/<name>, so the current logical cluster is read from
// the current context's server, and switching to another one writes a
// context and a cluster entry named after it, with the same base URL, CA and
// user. The logical cluster left behind is kept in the context and cluster
// entry named PreviousContext, which is what `use -` returns to, as
// `kubectl ws -` does in kcp.
//
// Creating a logical cluster and printing the tree go through the
// LogicalCluster API (tenancy.canopy.dev/v1alpha1) of each logical cluster.
package lcctl
