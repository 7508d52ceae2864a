// Package logicalcluster names logical clusters and routes requests to
// them: a request for /clusters/<name>/… is served as a request for /… of
// logical cluster <name>, carried in its context.
//
// A name is a path of segments joined by ':' that starts at root, such as
// root or root:org:team; each segment is a lowercase DNS label. Logical
// clusters form a tree: root:org:team is made by a LogicalCluster named
// team in root:org (package registry/tenancy).
//
// A request for /clusters/*/… is for every logical cluster at once: it
// lists or watches a resource across all of them, for the hub's
// controllers and other privileged clients such as syncers, and each
// object it returns says its cluster in the annotation below. Such a
// request's context is marked by WithWildcard and names no cluster;
// WithWildcardReadOnly refuses anything but list and watch there, and
// package authorization/wildcard lets only members of system:masters or
// WildcardReadersGroup through, as far as RBAC in root grants them.
//
// Objects carry their logical cluster in the canopy.dev/cluster annotation,
// because parts of the API server that see only an object, such as the
// watch cache computing its key, cannot learn it from a request. The
// hub's audit events carry the same annotation, naming the logical
// cluster of each request.
package logicalcluster
