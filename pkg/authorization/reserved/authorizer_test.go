package reserved

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

func TestImpersonation(t *testing.T) {
	tenant := &user.DefaultInfo{Name: "dave", Groups: []string{user.AllAuthenticated}}
	master := &user.DefaultInfo{Name: "admin", Groups: []string{user.SystemPrivilegedGroup, user.AllAuthenticated}}
	// asks builds what kube-apiserver's impersonation filters ask: legacy
	// impersonation names users, groups and serviceaccounts in the core
	// group, constrained impersonation in authentication.k8s.io.
	asks := func(verb, resource, name string) authorizer.AttributesRecord {
		group := "authentication.k8s.io"
		if verb == "impersonate" && (resource == "users" || resource == "groups" || resource == "serviceaccounts") {
			group = ""
		}
		return authorizer.AttributesRecord{User: tenant, Verb: verb, APIGroup: group, APIVersion: "v1", Resource: resource, Name: name, ResourceRequest: true}
	}
	extra := func(verb, key, value string) authorizer.AttributesRecord {
		a := asks(verb, "userextras", value)
		a.Subresource = key
		return a
	}
	serviceAccount := func(verb, namespace, name string) authorizer.AttributesRecord {
		a := asks(verb, "serviceaccounts", name)
		a.Namespace = namespace
		return a
	}
	const (
		legacy      = "impersonate"
		userInfo    = "impersonate:user-info"
		saMode      = "impersonate:serviceaccount"
		anyNode     = "impersonate:arbitrary-node"
		onUserInfo  = "impersonate-on:user-info:create"
		notReserved = ""
	)
	for _, tc := range []struct {
		name  string
		attrs authorizer.AttributesRecord
		// why is a part of the reason of the denial; empty, no opinion.
		why string
	}{
		{"system:masters", asks(legacy, "groups", "system:masters"), "group system:masters is reserved to the hub: its members may do anything"},
		{"system:masters, constrained", asks(userInfo, "groups", "system:masters"), "group system:masters is reserved"},
		{"syncers", asks(legacy, "groups", "canopy:syncers"), "group canopy:syncers is reserved to the hub: canopy: groups are given by the hub's own credentials"},
		{"a sync target's group", asks(userInfo, "groups", "canopy:synctarget:root:pc1"), "group canopy:synctarget:root:pc1 is reserved"},
		{"wildcard readers", asks(legacy, "groups", "canopy:wildcard-readers"), "group canopy:wildcard-readers is reserved"},
		{"a future hub group", asks(legacy, "groups", "canopy:anything"), "group canopy:anything is reserved"},
		{"nodes", asks(legacy, "groups", "system:nodes"), "group system:nodes is reserved to the hub: system: groups other than"},
		{"every group at once", asks(userInfo, "groups", "*"), "every group at once"},
		{"authenticated", asks(legacy, "groups", "system:authenticated"), notReserved},
		{"unauthenticated", asks(userInfo, "groups", "system:unauthenticated"), notReserved},
		{"all service accounts", asks(legacy, "groups", "system:serviceaccounts"), notReserved},
		{"a namespace's service accounts", asks(legacy, "groups", "system:serviceaccounts:default"), notReserved},
		{"a tenant's group", asks(legacy, "groups", "developers"), notReserved},
		{"the hub's controllers", asks(legacy, "groups", "system:canopy:controllers"), "group system:canopy:controllers is reserved"},
		{"the hub's controllers, constrained", asks(userInfo, "groups", "system:canopy:controllers"), "group system:canopy:controllers is reserved"},

		{"a syncer", asks(legacy, "users", "syncer:0123456789abcdef"), "user syncer:0123456789abcdef is reserved to the hub: syncer:<key> is the user of a SyncTarget's syncer credential"},
		{"a syncer, constrained", asks(userInfo, "users", "syncer:0123456789abcdef"), "user syncer:0123456789abcdef is reserved"},
		{"a hub user", asks(legacy, "users", "canopy:controller"), "user canopy:controller is reserved"},
		{"a hub controller's user", asks(legacy, "users", "system:canopy:controller:placement"), "user system:canopy:controller:placement is reserved"},
		{"a hub controller's user, constrained", asks(userInfo, "users", "system:canopy:controller:garbage-collector"), "user system:canopy:controller:garbage-collector is reserved"},
		{"the controller manager", asks(legacy, "users", "system:kube-controller-manager"), "user system:kube-controller-manager is reserved to the hub: system: users other than"},
		{"system:admin", asks(userInfo, "users", "system:admin"), "user system:admin is reserved"},
		{"the API server's loopback user", asks(legacy, "users", "system:apiserver"), "user system:apiserver is reserved"},
		{"a node, legacy", asks(legacy, "users", "system:node:n1"), "user system:node:n1 is reserved"},
		{"a node, constrained", asks(anyNode, "nodes", "n1"), "user system:node:n1 is reserved to the hub: system:node:<name> is a node's"},
		{"no ServiceAccount's name", asks(legacy, "users", "system:serviceaccount:default"), "it is no ServiceAccount's user"},
		{"anonymous", asks(legacy, "users", "system:anonymous"), notReserved},
		{"a ServiceAccount", serviceAccount(legacy, "default", "builder"), notReserved},
		{"a ServiceAccount, constrained", serviceAccount(saMode, "default", "builder"), notReserved},
		{"a tenant's user", asks(legacy, "users", "alice"), notReserved},
		{"the admin's name, without its group", asks(legacy, "users", "admin"), notReserved},

		{"a UID", asks(legacy, "uids", "7d4b1c2e-0000-4000-8000-000000000000"), `UID "7d4b1c2e-0000-4000-8000-000000000000" is reserved to the hub`},
		{"a UID, constrained", asks(userInfo, "uids", "u1"), `UID "u1" is reserved`},
		{"a Kubernetes credential ID", extra(legacy, "authentication.kubernetes.io/credential-id", "JTI=1"), "user extra authentication.kubernetes.io/credential-id is reserved to the hub"},
		{"a node name extra", extra(userInfo, "authentication.kubernetes.io/node-name", "n1"), "is reserved"},
		{"a hub extra", extra(legacy, "canopy.dev/cluster", "root:b"), "user extra canopy.dev/cluster is reserved"},
		{"a hub subdomain's extra", extra(legacy, "tenancy.canopy.dev/anything", "x"), "is reserved"},
		{"a k8s.io extra", extra(legacy, "example.k8s.io/x", "y"), "is reserved"},
		{"every extra at once", extra(userInfo, "*", "*"), "every user extra at once"},
		{"a tenant's extra", extra(legacy, "example.com/team", "web"), notReserved},
		{"a look-alike domain", extra(legacy, "notcanopy.dev/x", "y"), notReserved},
		{"an extra without a domain", extra(legacy, "scopes", "read"), notReserved},

		{"the request, in constrained impersonation", asks(onUserInfo, "configmaps", ""), notReserved},
		{"another verb on groups", asks("get", "groups", "system:masters"), notReserved},
		{"a custom resource named users", func() authorizer.AttributesRecord {
			a := asks(legacy, "users", "system:admin")
			a.APIGroup = "example.com"
			return a
		}(), notReserved},
	} {
		decision, reason, err := New().Authorize(context.Background(), tc.attrs)
		switch {
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.why == "" && decision != authorizer.DecisionNoOpinion:
			t.Errorf("%s: %v, %q; want no opinion", tc.name, decision, reason)
		case tc.why != "" && (decision != authorizer.DecisionDeny || !strings.Contains(reason, tc.why) || !strings.HasSuffix(reason, "only system:masters may impersonate it")):
			t.Errorf("%s: %v, %q; want a denial saying %q", tc.name, decision, reason, tc.why)
		}
		// system:masters may impersonate anything.
		tc.attrs.User = master
		if decision, reason, _ := New().Authorize(context.Background(), tc.attrs); decision != authorizer.DecisionNoOpinion {
			t.Errorf("%s, by system:masters: %v, %q; want no opinion", tc.name, decision, reason)
		}
	}
}
