// Package loopback gives each of the hub's controllers that writes what
// users own its own API client: a user of its own, authenticated by a
// bearer token only this process knows, speaking to the hub over the
// generic API server's loopback connection. Kube-apiserver's controllers
// and kcp's do the same.
//
// Such a write then goes through the whole handler chain, as any user's:
// the admission plugins, including the ValidatingAdmissionPolicies a
// logical cluster or its ancestors bind, may refuse it; the audit log
// names the controller's user; managedFields name its field manager.
// Writing to the registry stores directly, as the hub's bookkeeping does
// (SyncTarget heartbeats, LogicalCluster phases, Events), skips all three,
// which is right only for objects the hub owns.
//
// The users are system:canopy:controller:<name>, in the group
// system:canopy:controllers. Both are system: names, which the hub's
// reserved authorizer (pkg/authorization/reserved) lets no one but
// system:masters impersonate, so a tenant cannot borrow a controller's
// rights; the hub authorizes the group everywhere, as it does
// system:masters, since the controllers act in every logical cluster.
// Their tokens are random, made anew each time the hub starts, and never
// leave the process: no impersonation is involved, so the audit log's
// user.username is the controller's own.
//
// A client is one per controller, not per logical cluster, so a quiet
// logical cluster costs nothing: the logical cluster of a request is
// carried in its context (WithCluster), and the client's round tripper
// puts /clusters/<name> in front of the path, as kcp's cluster-aware
// clients do.
//
// A controller's write is conditional on what it read, so that it does
// not overwrite a change it has not seen. Conditional on the
// resourceVersion, it conflicts with any write of the object, such as
// another controller's write of fields it never reads; the controllers
// that share objects (placement, status aggregation) write JSON patches
// instead whose tests (Test) hold exactly the fields they read. Such a
// test that fails comes back as a 422 that looks like a refusal, and
// Stale tells the two apart, so that a controller leaves the one to the
// change's watch event and backs off, or says so, on the other.
package loopback
