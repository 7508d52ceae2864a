// Package rbac authorizes requests by the RBAC objects of the logical
// cluster each request is addressed to, as Kubernetes' RBAC authorizer
// does for a whole cluster.
//
// A request in logical cluster C is evaluated against C's ClusterRoles
// and ClusterRoleBindings and the Roles and RoleBindings of the request's
// namespace in C, and nothing else: a ClusterRoleBinding in root:a grants
// nothing in root:b or in root. The objects are read per request through
// a Source, which the hub backs with the registry's shared watch caches,
// so a logical cluster costs no goroutine, informer or index of its own.
//
// A request it does not allow from a user who is no member of the logical
// cluster (IsMember) is refused with a reason saying so: asking the wrong
// logical cluster is the usual mistake. A request it allows is allowed
// with Kubernetes' reason, word for word (the binding, its role and the
// subject that names the user), so that a SubjectAccessReview answers as
// kube-apiserver's does; what every logical cluster grants everyone is
// told by the bootstrap binding that grants it in Kubernetes.
//
// The rules match as Kubernetes' do (k8s.io/kubernetes cannot be
// imported, so they are written out here): "*" for any verb, API group or
// resource, "resource/subresource" and "*/subresource", resource names,
// and non-resource URLs with a trailing "*" as a prefix.
package rbac
