// Package podspec reads the pod templates of the workload kinds: the
// containers and images that tables show of them, the ConfigMaps, Secrets
// and ServiceAccounts they refer to, which follow a workload downstream,
// and the labels of a pod template, wherever its kind keeps it. Their
// defaulting and validation are upstream's own (pkg/registry/upstream).
package podspec
