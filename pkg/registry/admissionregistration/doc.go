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
// Upstream's strategies also take an authorizer, with which kube-apiserver
// checks that whoever writes a policy with a paramKind, or a binding with
// a paramRef, may read those params. The hub gives them none, so that
// check is not made: whoever may write policies and bindings in a logical
// cluster may have them read any params of it.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package admissionregistration
