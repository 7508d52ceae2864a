// Package clusterwide is what the hub's controllers share: a work loop
// over one resource watched across every logical cluster at once, with a
// fixed pool of workers, the watch and the pool on their own for
// controllers that watch many resources, the emptying of a logical
// cluster or a namespace through the registries, and the stores to empty
// in a logical cluster: the hub's own and those of its custom resources.
//
// One watch and one pool serve every logical cluster, so a logical
// cluster with nothing happening costs a controller nothing.
package clusterwide
