// Package core serves the core/v1 resources every logical cluster has:
// namespaces, configmaps, secrets, serviceaccounts, whose token
// subresource issues ServiceAccount tokens (TokenRequests of
// authentication.k8s.io/v1, which are never stored), and pods and
// podtemplates, stored only: no pod is ever scheduled at the hub.
//
// Without k8s.io/kubernetes there are no internal versions of these types,
// so the k8s.io/api v1 types are registered as the internal version too.
// runtime.Scheme converts between two versions of one Go type by setting
// the kind, so requests and storage convert nothing, and the strategies
// here validate and default the v1 objects directly. The defaulting and
// v1-to-internal steps Kubernetes does in conversion (Secret.stringData
// merged into data, an empty Secret type becoming Opaque) happen in the
// strategies instead.
package core
