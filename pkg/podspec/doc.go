// Package podspec is the defaulting and validation of pod templates in the
// workload kinds whose strategies are not yet upstream's (Deployments,
// ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs; Pods and
// PodTemplates are defaulted and validated by upstream's own code, see
// pkg/registry/upstream), the containers and images that tables show of
// them, and the ConfigMaps, Secrets and ServiceAccounts they refer to,
// which follow a workload downstream; and the labels of a pod template,
// wherever its kind keeps it.
package podspec
