// Package admissionregistration serves admissionregistration.k8s.io/v1
// ValidatingAdmissionPolicies (with their status), MutatingAdmissionPolicies
// and the bindings of each in every logical cluster, each cluster's own.
// They are defaulted, prepared and validated by upstream's own strategies
// (package upstream runs the lifted code of third_party/kubernetes), so a
// logical cluster answers as kube-apiserver does: every CEL expression of
// a policy is compiled before it is stored and one that does not compile
// is refused naming its field, metadata.generation follows the spec, and
// an update must name the resourceVersion it replaces. Package
// admission/admissionpolicy enforces them.
//
// Upstream's strategies also check, as kube-apiserver's do, that whoever
// writes a policy with a paramKind may read every object of that kind,
// and whoever writes a binding with a paramRef may read the params it
// names, so that no one makes a policy read for him what he may not
// read. The hub gives them the RBAC authorizer of the request's logical
// cluster (system:masters skips the check, as upstream lets it), and
// resolves paramKinds among the kinds it serves, where kube-apiserver
// asks its discovery.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package admissionregistration
