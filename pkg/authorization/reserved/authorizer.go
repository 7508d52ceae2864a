package reserved

import (
	"context"
	"fmt"
	"slices"
	"strings"

	authenticationv1 "k8s.io/api/authentication/v1"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// New returns the authorizer that denies impersonating a reserved
// identity to everyone outside system:masters, and has no opinion on
// anything else, so that the authorizers after it in a union decide.
func New() authorizer.Authorizer { return authorizer.AuthorizerFunc(authorize) }

func authorize(_ context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	if u := attrs.GetUser(); u != nil && slices.Contains(u.GetGroups(), user.SystemPrivilegedGroup) {
		return authorizer.DecisionNoOpinion, "", nil
	}
	if why := reason(attrs); why != "" {
		return authorizer.DecisionDeny, why + "; only system:masters may impersonate it", nil
	}
	return authorizer.DecisionNoOpinion, "", nil
}

// reason says why the identity attrs asks to impersonate is reserved to
// the hub; it is empty if attrs asks something else, or an identity that
// is not reserved.
func reason(attrs authorizer.Attributes) string {
	if !impersonates(attrs) {
		return ""
	}
	name := attrs.GetName()
	switch attrs.GetResource() {
	case "users":
		return userReason(name)
	case "groups":
		return groupReason(name)
	case "nodes":
		return fmt.Sprintf("user system:node:%s is reserved to the hub: system:node:<name> is a node's", name)
	case "uids":
		return fmt.Sprintf("UID %q is reserved to the hub: UIDs are what its authenticators vouch for (a ServiceAccount's, a static token's), which no logical cluster assigns", name)
	case "userextras":
		return extraReason(attrs.GetSubresource())
	}
	return ""
}

// impersonates reports whether attrs asks to impersonate an identity, in
// legacy or constrained impersonation.
func impersonates(attrs authorizer.Attributes) bool {
	verb := attrs.GetVerb()
	if verb != "impersonate" && !strings.HasPrefix(verb, "impersonate:") {
		return false
	}
	g := attrs.GetAPIGroup()
	return attrs.IsResourceRequest() && (g == "" || g == authenticationv1.GroupName)
}

const (
	// hubPrefix starts the names of the hub's own users and groups, as
	// workloadv1alpha1.SyncersGroup and logicalcluster.WildcardReadersGroup.
	hubPrefix = "canopy:"
	// systemPrefix starts the names of Kubernetes' components and groups.
	systemPrefix = "system:"
	// all is the name constrained impersonation asks first for many
	// groups or extras at once: the reserved ones among them.
	all = "*"
)

// syncerPrefix starts the user name of every syncer's hub credential.
var syncerPrefix = workloadv1alpha1.SyncerUser("")

func userReason(name string) string {
	const why = "user %s is reserved to the hub: %s"
	switch {
	case strings.HasPrefix(name, syncerPrefix):
		return fmt.Sprintf(why, name, "syncer:<key> is the user of a SyncTarget's syncer credential")
	case strings.HasPrefix(name, hubPrefix):
		return fmt.Sprintf(why, name, "canopy: users are the hub's own")
	case name == user.Anonymous:
		return ""
	case strings.HasPrefix(name, serviceaccount.ServiceAccountUsernamePrefix):
		if _, _, err := serviceaccount.SplitUsername(name); err == nil {
			return ""
		}
		return fmt.Sprintf(why, name, "it is no ServiceAccount's user, system:serviceaccount:<namespace>:<name>, and other system: users are Kubernetes' components'")
	case strings.HasPrefix(name, systemPrefix):
		return fmt.Sprintf(why, name, "system: users other than system:anonymous and ServiceAccounts (system:serviceaccount:<namespace>:<name>) are Kubernetes' components'")
	}
	return ""
}

func groupReason(name string) string {
	const why = "group %s is reserved to the hub: %s"
	switch {
	case name == all:
		return "impersonating every group at once takes in those reserved to the hub"
	case name == user.SystemPrivilegedGroup:
		return fmt.Sprintf(why, name, "its members may do anything in every logical cluster")
	case strings.HasPrefix(name, hubPrefix):
		return fmt.Sprintf(why, name, "canopy: groups are given by the hub's own credentials, as syncers' ("+workloadv1alpha1.SyncersGroup+", canopy:synctarget:<cluster>:<name>)")
	case name == user.AllAuthenticated || name == user.AllUnauthenticated ||
		name == serviceaccount.AllServiceAccountsGroup || strings.HasPrefix(name, serviceaccount.ServiceAccountGroupPrefix):
		return ""
	case strings.HasPrefix(name, systemPrefix):
		return fmt.Sprintf(why, name, "system: groups other than system:authenticated, system:unauthenticated and system:serviceaccounts[:<namespace>] are Kubernetes' components'")
	}
	return ""
}

// extraDomains are the domains, with their subdomains, of the user extras
// the hub and Kubernetes give meaning to.
var extraDomains = []string{"canopy.dev", "k8s.io", "kubernetes.io"}

func extraReason(key string) string {
	if key == all {
		return "impersonating every user extra at once takes in those reserved to the hub"
	}
	domain, _, found := strings.Cut(strings.ToLower(key), "/")
	if !found {
		return ""
	}
	for _, d := range extraDomains {
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return fmt.Sprintf("user extra %s is reserved to the hub: extras under %s mean what the hub and Kubernetes say they do", key, strings.Join(extraDomains, ", "))
		}
	}
	return ""
}
