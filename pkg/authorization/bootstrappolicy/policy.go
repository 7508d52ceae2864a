package bootstrappolicy

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
)

// KubernetesVersion is the release whose bootstrap policy the data file
// holds; e2e's physical clusters run its kube-apiserver.
const KubernetesVersion = "v1.37.1"

// File is the data file's name, beside this one.
const File = "kubernetes.json"

//go:embed kubernetes.json
var data []byte

// Policy is the data file: the default ClusterRoles and
// ClusterRoleBindings of a logical cluster, sorted by name.
type Policy struct {
	// KubernetesVersion is the kube-apiserver the objects were read from.
	KubernetesVersion   string                      `json:"kubernetesVersion"`
	ClusterRoles        []rbacv1.ClusterRole        `json:"clusterRoles"`
	ClusterRoleBindings []rbacv1.ClusterRoleBinding `json:"clusterRoleBindings"`
}

// policy is the data file decoded. It is part of the binary, checked by
// this package's tests, so failing to decode it is a broken build, not a
// condition to handle at run time.
var policy = func() Policy {
	var p Policy
	if err := json.Unmarshal(data, &p); err != nil {
		panic(fmt.Sprintf("bootstrappolicy: %s does not decode: %v", File, err))
	}
	return p
}()

// ClusterRoles returns copies of the default ClusterRoles: kube's, and
// MetricsReader.
func ClusterRoles() []*rbacv1.ClusterRole {
	out := make([]*rbacv1.ClusterRole, len(policy.ClusterRoles), len(policy.ClusterRoles)+1)
	for i := range policy.ClusterRoles {
		out[i] = policy.ClusterRoles[i].DeepCopy()
	}
	return append(out, MetricsReader())
}

// ClusterRoleBindings returns copies of the default ClusterRoleBindings.
func ClusterRoleBindings() []*rbacv1.ClusterRoleBinding {
	out := make([]*rbacv1.ClusterRoleBinding, len(policy.ClusterRoleBindings))
	for i := range policy.ClusterRoleBindings {
		out[i] = policy.ClusterRoleBindings[i].DeepCopy()
	}
	return out
}

// ClusterRole returns a copy of kube's default ClusterRole name, or nil.
func ClusterRole(name string) *rbacv1.ClusterRole {
	for i := range policy.ClusterRoles {
		if policy.ClusterRoles[i].Name == name {
			return policy.ClusterRoles[i].DeepCopy()
		}
	}
	return nil
}

// controllerRoles is the prefix of the roles of kube-controller-manager's
// controllers.
const controllerRoles = "system:controller:"

// excluded are the roles and bindings of kube's bootstrap policy that a
// logical cluster leaves out, by name, with the reason.
var excluded = map[string]string{
	"system:node":                          "nodes: a logical cluster runs no kubelets; its pods run in physical clusters",
	"system:node-proxier":                  "kube-proxy: Services are proxied in the physical clusters, not in a logical cluster",
	"system:node-problem-detector":         "node-problem-detector runs on nodes, which a logical cluster does not have",
	"system:heapster":                      "heapster read metrics from kubelets, which a logical cluster does not run",
	"system:kube-aggregator":               "the hub aggregates no API servers",
	"system:node-bootstrapper":             "kubelet TLS bootstrapping: a logical cluster runs no kubelets",
	"system:kubelet-api-admin":             "the kubelet API: a logical cluster runs no kubelets",
	"system:kube-scheduler":                "kube-scheduler: placement, not a scheduler, decides where a logical cluster's pods run",
	"system:volume-scheduler":              "kube-scheduler's volume binding: a logical cluster schedules no pods",
	"system:kube-controller-manager":       "kube-controller-manager: the hub's own controllers act through its loopback client",
	"system:kube-dns":                      "kube-dns: cluster DNS runs in the physical clusters",
	"system:persistent-volume-provisioner": "volume provisioners run in the physical clusters",
	"system:monitoring":                    "metrics and health details are the hub's, served to its admin, not a logical cluster's",
	"system:certificates.k8s.io:certificatesigningrequests:nodeclient":     "kubelet client certificates: a logical cluster runs no kubelets",
	"system:certificates.k8s.io:certificatesigningrequests:selfnodeclient": "kubelet client certificates: a logical cluster runs no kubelets",
	"system:certificates.k8s.io:kube-apiserver-client-kubelet-approver":    "kubelet client certificates: a logical cluster runs no kubelets",
	"system:certificates.k8s.io:kubelet-serving-approver":                  "kubelet serving certificates: a logical cluster runs no kubelets",
	"system:certificates.k8s.io:legacy-unknown-approver":                   "the legacy-unknown signer belongs to kube-controller-manager, which a logical cluster does not run",
}

// Excluded returns why kube's default ClusterRole or ClusterRoleBinding
// name is not one of a logical cluster's, and whether it is excluded.
func Excluded(name string) (string, bool) {
	if strings.HasPrefix(name, controllerRoles) {
		return "a controller of kube-controller-manager, which runs as a ServiceAccount of kube-system; the hub's controllers act through its loopback client", true
	}
	reason, ok := excluded[name]
	return reason, ok
}
