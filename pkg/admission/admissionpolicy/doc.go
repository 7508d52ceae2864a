// Package admissionpolicy is the hub's admission plugin for
// ValidatingAdmissionPolicies and MutatingAdmissionPolicies: one plugin
// for every logical cluster. The shared informer (pkg/informer) of each
// kind of policy and binding across all logical clusters feeds an index by
// logical cluster, so a request in a logical cluster without policies
// costs a map lookup; equal policies in many logical clusters share one
// compiled evaluator.
// Requests are judged and mutated with upstream's dispatchers, matcher and
// evaluators, bound to the request's logical cluster: its namespaces, its
// authorizer.
//
// A binding labelled admission.canopy.dev/inherit=descendants applies,
// with its policy, in its own logical cluster and every one below it,
// which can neither remove nor weaken it. Policies run in this order: the
// logical cluster's own, then those inherited from its parent, and so on
// up to root's, last. A MutatingAdmissionPolicy of the logical cluster may
// set what it likes, but an inherited one that sets the same field runs
// after it and has the last word, the one nearest root over the others;
// kube-apiserver's chain runs every mutation before any validation, so an
// inherited ValidatingAdmissionPolicy judges the object as all of them
// left it. The hub's chain reinvokes no plugin, so a policy that ran
// first cannot answer back, whatever its reinvocationPolicy. Params are objects of a
// built-in kind the hub serves, read in the logical cluster of the
// policy's bindings when each request comes. Mutations apply to the
// built-in kinds, whose schemas the hub knows, and not to custom
// resources.
package admissionpolicy
