// Package admissionregistration serves admissionregistration.k8s.io/v1
// ValidatingAdmissionPolicies (with their status), MutatingAdmissionPolicies
// and the bindings of each in every logical cluster, each cluster's own,
// with Kubernetes' defaults and validation: every CEL expression of a
// policy is compiled before it is stored, and one that does not compile
// is refused naming its field. Package
// admission/admissionpolicy enforces them.
//
// As in package core, the v1 Go types are registered as the internal
// version too, so nothing converts.
package admissionregistration
