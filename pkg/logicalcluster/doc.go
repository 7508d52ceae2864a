// Package logicalcluster names logical clusters and routes requests to
// them: a request for /clusters/<name>/… is served as a request for /… of
// logical cluster <name>, carried in its context.
//
// A name is a path of segments joined by ':' that starts at root, such as
// root or root:org:team; each segment is a lowercase DNS label. Logical
// clusters form a tree: root:org:team is made by a LogicalCluster named
// team in root:org (package registry/tenancy).
//
// Objects carry their logical cluster in the canopy.dev/cluster annotation,
// because parts of the API server that see only an object, such as the
// watch cache computing its key, cannot learn it from a request.
package logicalcluster
