package hub

import (
	"k8s.io/apiserver/pkg/authentication/request/bearertoken"
	unionauth "k8s.io/apiserver/pkg/authentication/request/union"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	"k8s.io/apiserver/pkg/authorization/union"
	genericapiserver "k8s.io/apiserver/pkg/server"

	"github.com/canopy-dev/canopy/pkg/loopback"
)

// The controllers that write what users own, each through the API as a
// user of its own (pkg/loopback).
const (
	placementControllerName        = "placement"
	garbageCollectorControllerName = "garbage-collector"
)

// controllerClients are their API clients.
type controllerClients struct {
	placement, garbageCollector *loopback.Client
}

// newControllerUsers makes the users of the controllers that write
// through the API.
func newControllerUsers() (*loopback.Users, error) {
	return loopback.NewUsers(placementControllerName, garbageCollectorControllerName)
}

// controllersAuthorizer lets the controllers' users do anything in every
// logical cluster, as system:masters may: they act for the hub. It goes
// after the reserved authorizer, so that they may not impersonate the
// identities the hub reserves, which they never need.
func controllersAuthorizer() union.NamedAuthorizer {
	return union.NamedAuthorizer{AuthorizerName: "controllers", Authorizer: authorizerfactory.NewPrivilegedGroups(loopback.Group)}
}

// authenticateControllers has cfg authenticate the controllers' tokens,
// before any other credential.
func authenticateControllers(cfg *genericapiserver.Config, users *loopback.Users) {
	cfg.Authentication.Authenticator = unionauth.New(bearertoken.New(users), cfg.Authentication.Authenticator)
}

// newControllerClients makes the controllers' clients over the hub's
// loopback connection, which cfg describes once it is complete.
func newControllerClients(cfg *genericapiserver.Config, users *loopback.Users) (controllerClients, error) {
	placement, err := users.Client(cfg.LoopbackClientConfig, placementControllerName)
	if err != nil {
		return controllerClients{}, err
	}
	garbageCollector, err := users.Client(cfg.LoopbackClientConfig, garbageCollectorControllerName)
	if err != nil {
		return controllerClients{}, err
	}
	return controllerClients{placement: placement, garbageCollector: garbageCollector}, nil
}
