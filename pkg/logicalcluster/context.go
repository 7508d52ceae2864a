package logicalcluster

import "context"

type contextKey struct{}

// target is what a request addresses: one logical cluster, or all.
type target struct {
	name     Name
	wildcard bool
}

// WithCluster returns ctx for requests to logical cluster n, and no longer
// for the wildcard if ctx was.
func WithCluster(ctx context.Context, n Name) context.Context {
	return context.WithValue(ctx, contextKey{}, target{name: n})
}

// ClusterFrom returns the logical cluster ctx is for, if any.
func ClusterFrom(ctx context.Context) (Name, bool) {
	t, ok := ctx.Value(contextKey{}).(target)
	return t.name, ok && !t.wildcard
}

// WithWildcard returns ctx for a request to every logical cluster at once,
// /clusters/*/…. Such a context names no cluster, so that whatever needs
// one must decide deliberately what a wildcard request means to it.
func WithWildcard(ctx context.Context) context.Context {
	return context.WithValue(ctx, contextKey{}, target{wildcard: true})
}

// IsWildcard tells whether ctx is for a request to every logical cluster.
func IsWildcard(ctx context.Context) bool {
	t, _ := ctx.Value(contextKey{}).(target)
	return t.wildcard
}
