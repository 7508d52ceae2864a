package rbac

import (
	"github.com/canopy-dev/canopy/pkg/authorization/bootstrappolicy"
)

// clusterAdminRules grant everything: they are kube's cluster-admin's.
var clusterAdminRules = bootstrappolicy.ClusterRole("cluster-admin").Rules
