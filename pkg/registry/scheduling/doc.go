// Package scheduling serves scheduling.k8s.io/v1 PriorityClasses in every
// logical cluster, as kube-apiserver v1.37 serves them by default.
//
// A logical cluster needs them for the Priority admission plugin
// (pkg/admission/kubeplugins), which resolves each pod's
// priorityClassName to its priority and refuses a pod naming a class
// that does not exist; the pods' copies in physical clusters are
// scheduled with the physical cluster's classes of the same name.
// kube-apiserver makes the two system classes, system-cluster-critical
// and system-node-critical, in every cluster; the hub makes them in every
// logical cluster when it is made (SystemPriorityClasses).
//
// Their strategy, defaults and validation are kube-apiserver's own,
// lifted (pkg/registry/upstream). As in package core, the v1 Go types are
// registered as the internal version too, so nothing converts at the
// hub's storage.
package scheduling
