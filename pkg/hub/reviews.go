package hub

import (
	"fmt"

	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/group"
	"k8s.io/apiserver/pkg/authentication/request/bearertoken"
	"k8s.io/apiserver/pkg/authentication/token/tokenfile"
	tokenunion "k8s.io/apiserver/pkg/authentication/token/union"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/registry/rest"

	rbacauthorizer "github.com/canopy-dev/canopy/pkg/authorization/rbac"
	authenticationregistry "github.com/canopy-dev/canopy/pkg/registry/authentication"
	authorizationregistry "github.com/canopy-dev/canopy/pkg/registry/authorization"
	"github.com/canopy-dev/canopy/pkg/serviceaccount"
)

// apiAudiences are the audiences of the hub's API, as kube-apiserver's
// --api-audiences: a TokenReview naming none asks for them.
var apiAudiences = []string{serviceaccount.Audience}

// serviceAccountIssuer is the base of the logical clusters' issuers:
// --service-account-issuer, or else the URL clients reach this hub at.
func (c *config) serviceAccountIssuer() string {
	if c.ServiceAccountIssuer != "" {
		return c.ServiceAccountIssuer
	}
	return "https://" + c.host
}

// bearerTokens authenticates bearer tokens: the hub's ServiceAccount
// tokens, valid only in their own logical cluster, which tokens checks
// against the cluster the routing filter put in the context, and, with
// --token-auth-file, static tokens, which like client certificates name a
// user in every logical cluster, whose RBAC decides what the user may do
// there. Static tokens have no audiences: they are for the hub's, as
// kube-apiserver takes them.
func (c *config) bearerTokens(tokens *serviceaccount.Authenticator) (authenticator.Token, error) {
	if c.TokenAuthFile == "" {
		return tokens, nil
	}
	static, err := tokenfile.NewCSV(c.TokenAuthFile)
	if err != nil {
		return nil, fmt.Errorf("--token-auth-file: %w", err)
	}
	return tokenunion.New(tokens, authenticator.WrapAudienceAgnosticToken(apiAudiences, static)), nil
}

// reviews are the storage of the review resources of
// authentication.k8s.io/v1 and authorization.k8s.io/v1, answered in each
// logical cluster by the hub's own authentication and authorization.
func reviews(bearer authenticator.Token, authz authorizer.Authorizer, members *rbacauthorizer.Authorizer) (authentication, authorization map[string]rest.Storage) {
	// A TokenReview authenticates as the hub does a request carrying
	// the token and nothing else.
	tokens := group.NewAuthenticatedGroupAdder(bearertoken.New(bearer))
	return map[string]rest.Storage{
			"selfsubjectreviews": authenticationregistry.SelfSubjectReviews{},
			"tokenreviews":       authenticationregistry.NewTokenReviews(tokens, apiAudiences),
		}, map[string]rest.Storage{
			"selfsubjectaccessreviews":  authorizationregistry.NewSelfSubjectAccessReviews(authz),
			"selfsubjectrulesreviews":   authorizationregistry.NewSelfSubjectRulesReviews(members),
			"subjectaccessreviews":      authorizationregistry.NewSubjectAccessReviews(authz),
			"localsubjectaccessreviews": authorizationregistry.NewLocalSubjectAccessReviews(authz),
		}
}

// installIssuerDiscovery serves each logical cluster's ServiceAccount
// issuer discovery document and key set, at kube-apiserver's paths, for
// whom that logical cluster's RBAC lets get them: by default its
// ServiceAccounts, through system:service-account-issuer-discovery.
func (h *hubServer) installIssuerDiscovery() error {
	d, err := serviceaccount.NewDiscovery(h.issuers, h.host, &h.pki.serviceAccountKey.PublicKey)
	if err != nil {
		return err
	}
	h.server.Handler.NonGoRestfulMux.HandleFunc(serviceaccount.OpenIDConfigPath, d.ServeConfiguration)
	h.server.Handler.NonGoRestfulMux.HandleFunc(serviceaccount.JWKSPath, d.ServeKeys)
	return nil
}
