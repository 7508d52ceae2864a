// Package node serves node.k8s.io/v1 RuntimeClasses in every logical
// cluster, as kube-apiserver v1.37 serves them by default.
//
// A RuntimeClass names a container runtime configuration of the nodes;
// pods name it in spec.runtimeClassName, and app teams' manifests and Helm
// charts carry both. The hub keeps them as written: it runs no pod, so
// no RuntimeClass admission here adds a class's overhead or scheduling to
// a pod; the physical cluster running the pod does that with its own
// classes.
//
// Their strategy, defaults and validation are kube-apiserver's own,
// lifted (pkg/registry/upstream). As in package core, the v1 Go types are
// registered as the internal version too, so nothing converts at the hub's
// storage.
package node
