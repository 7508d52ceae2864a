// Package hubclient is how the syncer's controllers reach the hub: one
// set of connections, shared by a client per logical cluster made on
// demand, and the writes every controller makes there the same way.
//
// The syncer reads the hub through the wildcard endpoint /clusters/* and
// writes each object in its own logical cluster, /clusters/<path>. A
// client per logical cluster costs no request and keeps no state, so
// it is made for each write rather than kept: a logical cluster the
// syncer no longer serves leaves nothing behind.
//
// The status the syncer writes at the hub, its own or its report of it
// where several targets share an object, is a merge patch without a
// resourceVersion (pkg/sync/patch): those fields are the syncer's alone,
// so the write cannot conflict with another, and a lagging informer copy
// costs no retry.
package hubclient
