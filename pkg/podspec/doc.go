// Package podspec is the defaulting and validation of pod specs and pod
// templates, shared by every kind that carries one (Pods, PodTemplates,
// Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs), as
// kube-apiserver defaults and validates them, the containers and images
// that tables show of them, and the ConfigMaps, Secrets and
// ServiceAccounts they refer to, which follow a workload downstream; and
// the labels of a pod template, wherever its kind keeps it.
package podspec
