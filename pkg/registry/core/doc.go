// Package core serves the core/v1 resources every logical cluster has:
// namespaces, configmaps, secrets, serviceaccounts, whose token
// subresource issues ServiceAccount tokens (TokenRequests of
// authentication.k8s.io/v1, which are never stored); pods and
// podtemplates, stored only: no pod is ever scheduled at the hub; and services,
// endpoints, events, limitranges and resourcequotas, stored here with
// Kubernetes' defaults and validation for syncers to carry to the
// physical clusters whose controllers act on them.
//
// A Service's cluster IP at the hub is allocated around this package's
// store, by pkg/serviceip, which the hub installs on it; node ports are
// not: a Service gets those from the physical cluster it is applied to.
// A user-given clusterIP (an IP, or None for a headless Service) is
// checked and kept, clusterIPs follows it, and neither may change once
// set but to or from type ExternalName, which has none.
//
// Without k8s.io/kubernetes there are no internal versions of these types,
// so the k8s.io/api v1 types are registered as the internal version too.
// runtime.Scheme converts between two versions of one Go type by setting
// the kind, so requests and storage convert nothing, and the strategies
// here validate and default the v1 objects directly. The defaulting and
// v1-to-internal steps Kubernetes does in conversion (Secret.stringData
// merged into data, an empty Secret type becoming Opaque) happen in the
// strategies instead; defaults that Kubernetes fills in when it decodes
// a request (a Service's type, ports' protocols and target ports) are
// registered as the scheme's defaulting functions, which the decoder
// applies the same way.
package core
