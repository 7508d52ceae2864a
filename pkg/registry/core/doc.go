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
// store, by pkg/serviceip, which the hub installs on it, and which does
// there, before the strategy, what kube-apiserver's service storage does
// outside its strategy: clusterIPs kept in step with clusterIP, allocated
// values kept over an update that leaves them out, and the IP family
// fields of the one family it allocates from. Node ports are not
// allocated: a Service gets those from the physical cluster it is applied
// to, but for a placeholder health check node port, which validation
// requires.
//
// The hub has no internal versions of these types of its own: the k8s.io/api
// v1 types are registered as the internal version too, so requests and
// storage convert nothing. Defaulting, preparing and validating them is
// upstream's own code, lifted (pkg/registry/upstream): each kind's strategy
// is kube-apiserver's, run on the v1 objects, and decoded objects get the
// defaults upstream's v1 package registers. A Secret's stringData is
// merged into its data when it is decoded, as kube-apiserver's decoding
// to its internal version does (secret.go).
package core
