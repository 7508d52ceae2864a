// Package quota is what counts against a ResourceQuota at the hub: the
// one set of evaluators (NewRegistry) that both the hub's ResourceQuota
// admission (pkg/admission/resourcequota), charging a request, and its
// quota controller (pkg/controller/resourcequota), counting a namespace,
// use, so that the usage one writes is the usage the other computes.
//
// They are kube's evaluators of pods and services (evaluators.go, copied
// from k8s.io/kubernetes, which is no dependency of the hub), the hub's
// own of workloads (workloads.go: a Deployment, ReplicaSet, StatefulSet
// or ReplicationController counts the pods its replicas will run in the
// physical clusters, since the hub runs none), and an object count of
// every other resource. The package is apart from the controller so that
// admission, which reads only the shared informers, imports no
// controller's code.
package quota
