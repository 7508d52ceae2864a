// Package admissionpolicy is the hub's admission plugin for
// ValidatingAdmissionPolicies: one plugin for every logical cluster. One
// watch of policies and one of bindings across all logical clusters feed
// an index by logical cluster, so a request in a logical cluster without
// policies costs a map lookup; equal policies in many logical clusters
// share one compiled evaluator. Requests are judged with upstream's
// dispatcher, matcher and evaluator, bound to the request's logical
// cluster: its namespaces, its authorizer.
//
// A binding labelled admission.canopy.dev/inherit=descendants applies,
// with its policy, in its own logical cluster and every one below it,
// which can neither remove nor weaken it. Params are objects of a
// built-in kind the hub serves, read in the logical cluster of the
// policy's bindings when each request comes.
package admissionpolicy
