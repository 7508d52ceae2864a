package hub

import (
	"k8s.io/apiserver/pkg/apis/apiserver"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/request/anonymous"
	unionauth "k8s.io/apiserver/pkg/authentication/request/union"

	rbacauthz "github.com/canopy-dev/canopy/pkg/authorization/rbac"
)

// withPublicInfo authenticates a request without credentials as
// system:anonymous, in group system:unauthenticated, when it asks for one
// of the paths of system:public-info-viewer (/livez, /readyz, /healthz,
// /version), and refuses it everywhere else, as kube-apiserver does with
// anonymous authentication limited to those paths. Kubelets probe hub
// replicas, and load balancers check them, without credentials.
//
// A request whose credentials authenticated refuses stays refused: the
// first error ends the chain, so that a wrong token is a 401, not
// anonymous.
func withPublicInfo(authenticated authenticator.Request) authenticator.Request {
	var paths []apiserver.AnonymousAuthCondition
	for _, rule := range rbacauthz.PublicInfoViewer.Rules {
		for _, path := range rule.NonResourceURLs {
			paths = append(paths, apiserver.AnonymousAuthCondition{Path: path})
		}
	}
	return unionauth.NewFailOnError(authenticated, anonymous.NewAuthenticator(paths))
}
