package hub

import (
	"maps"
	"slices"

	"k8s.io/apiserver/pkg/authentication/request/bearertoken"
	unionauth "k8s.io/apiserver/pkg/authentication/request/union"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	genericapiserver "k8s.io/apiserver/pkg/server"

	"github.com/canopy-dev/canopy/pkg/loopback"
)

// controllerClients are the API clients of the controllers that write
// what users own, each through the API as a user of its own
// (pkg/loopback). The others write only what the hub owns, through the
// registries.
type controllerClients struct {
	placement, garbageCollector, namespace, statusAggregation, csrSigning *loopback.Client
	serviceAccounts, rootCACertPublisher, resourceQuota                   *loopback.Client
}

// byName is each of c's clients, by its controller's name.
func (c *controllerClients) byName() map[string]**loopback.Client {
	return map[string]**loopback.Client{
		"placement":              &c.placement,
		"garbage-collector":      &c.garbageCollector,
		"namespace":              &c.namespace,
		"status-aggregation":     &c.statusAggregation,
		"serviceaccounts":        &c.serviceAccounts,
		"root-ca-cert-publisher": &c.rootCACertPublisher,
		"resourcequota":          &c.resourceQuota,
		"csr-signing":            &c.csrSigning,
	}
}

// controllersAuthorizer lets the controllers' users do anything in every
// logical cluster, as system:masters may: they act for the hub. It goes
// after the reserved authorizer, so that they may not impersonate the
// identities the hub reserves, which they never need.
func controllersAuthorizer() union.NamedAuthorizer {
	return union.NamedAuthorizer{AuthorizerName: "controllers", Authorizer: authorizerfactory.NewPrivilegedGroups(loopback.Group)}
}

// newControllerClients makes the controllers' users, has cfg
// authenticate their tokens before any other credential, and makes their
// clients over the hub's loopback connection, whose host and TLS config
// cfg holds.
func newControllerClients(cfg *genericapiserver.Config) (controllerClients, error) {
	var clients controllerClients
	byName := clients.byName()
	users, err := loopback.NewUsers(slices.Sorted(maps.Keys(byName))...)
	if err != nil {
		return controllerClients{}, err
	}
	cfg.Authentication.Authenticator = unionauth.New(bearertoken.New(users), cfg.Authentication.Authenticator)
	for name, client := range byName {
		c, err := users.Client(cfg.LoopbackClientConfig, name)
		if err != nil {
			return controllerClients{}, err
		}
		*client = c
	}
	return clients, nil
}
