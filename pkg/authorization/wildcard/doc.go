// Package wildcard authorizes requests to every logical cluster at once,
// /clusters/*/…, which read what no single logical cluster's RBAC can
// grant: the objects of all of them.
//
// Such a resource request is allowed only to a user who is explicitly
// made a reader of the wildcard, by membership of system:masters or of
// logicalcluster.WildcardReadersGroup (an Organization of its client
// certificate, which only the hub's CA can issue), and then only as far as
// the authorizers it wraps allow the same request in root: a member of
// canopy:wildcard-readers also needs a ClusterRole in root granting list
// and watch on the resource, bound to it in root. Being admin of any
// logical cluster, root included, grants nothing here, and no
// ServiceAccount token is valid for the wildcard. Discovery and OpenAPI
// under the wildcard are root's, authorized as in root.
package wildcard
