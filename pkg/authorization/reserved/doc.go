// Package reserved keeps the identities the hub gives meaning to from
// being impersonated by anyone but system:masters, whatever RBAC grants.
//
// Kubernetes lets whoever RBAC grants the verb impersonate act as any
// user, group, UID or user extra, and cluster-admin grants it. At the hub
// every tenant admin is cluster-admin of a logical cluster, while some
// identities mean more than any logical cluster's RBAC can grant:
// system:masters may do anything in every logical cluster; a syncer's user
// syncer:<key> and groups canopy:syncers and canopy:synctarget:<cluster>:<name>
// reach the objects assigned to its target in every logical cluster;
// canopy:wildcard-readers reads /clusters/*; and Kubernetes' system: names
// are those of its components, and of any the hub adds. Impersonating one
// of them is refused, with a reason saying it is reserved to the hub and
// why; an inherited admission policy that exempts system:masters thus
// still holds against a tenant admin.
//
// A tenant admin may impersonate what it could grant itself: users and
// groups it names, system:anonymous, system:authenticated and
// system:unauthenticated, and ServiceAccounts
// (system:serviceaccount:<namespace>:<name>) and their groups
// (system:serviceaccounts[:<namespace>]). A ServiceAccount's user names no
// logical cluster: impersonated in root:a it is root:a's ServiceAccount of
// that name, with what root:a's RBAC grants it. The impersonation itself
// is authorized in the logical cluster the request addresses, so no one
// reaches another logical cluster's ServiceAccounts this way.
//
// UIDs are reserved altogether: the hub's authenticators vouch for them (a
// ServiceAccount's, a static token's), and no logical cluster assigns
// them. User extras are reserved under the domains the hub and Kubernetes
// give meaning to, canopy.dev, k8s.io and kubernetes.io and their
// subdomains (authentication.kubernetes.io/credential-id, node-name, …);
// others, such as example.com/team, are a tenant's to use.
//
// The decision covers every verb kube-apiserver's impersonation filters
// ask to impersonate an identity: impersonate, for legacy impersonation,
// and impersonate:<mode> (user-info, serviceaccount, arbitrary-node,
// associated-node) for constrained impersonation, including the name "*"
// it asks first for many groups or extras at once. The checks of
// impersonate-on:<mode>:<verb>, which name the request rather than the
// identity, are RBAC's.
package reserved
