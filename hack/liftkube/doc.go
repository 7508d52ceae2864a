// Command liftkube copies the packages of k8s.io/kubernetes that Canopy
// validates and defaults built-in kinds with into third_party/kubernetes,
// at the version hack/tools/kube pins (the one the e2e tests' physical
// clusters run). hack/lift-kubernetes.sh runs it from the repository root:
//
//	bash hack/lift-kubernetes.sh            # lift again, after changing the pin or PACKAGES
//	bash hack/lift-kubernetes.sh -closure   # the closure of PACKAGES, to paste into it
//
// Why a lift and not an import: k8s.io/kubernetes can be required only
// with a replace directive for each of its staging modules, and a module
// with replace directives cannot be installed with `go install
// …/cmd/hub@version`. A lift keeps upstream's code byte for byte but for
// its import paths, so the hub answers with kube-apiserver's own field
// paths and messages, and moving to the next Kubernetes release is running
// this command again.
//
// The lift is mechanical so that it can be checked: every file is the
// upstream file with imports of k8s.io/kubernetes rewritten to the lifted
// tree, a provenance header naming the version and the file prepended, and
// gofmt applied (the rewritten imports sort differently). Test files are
// left out. third_party/kubernetes/PACKAGES lists every lifted package;
// the command refuses a list that is not closed under the lifted packages'
// imports of k8s.io/kubernetes, naming what is missing, so nothing lifted
// can import upstream itself. TestLift lifts again into a temporary
// directory and fails when the tree differs, so a hand edit, or a pin
// moved without lifting again, does not go unseen.
package main
