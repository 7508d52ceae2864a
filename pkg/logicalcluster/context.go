package logicalcluster

import "context"

type contextKey struct{}

// WithCluster returns ctx for requests to logical cluster n.
func WithCluster(ctx context.Context, n Name) context.Context {
	return context.WithValue(ctx, contextKey{}, n)
}

// ClusterFrom returns the logical cluster ctx is for, if any.
func ClusterFrom(ctx context.Context) (Name, bool) {
	n, ok := ctx.Value(contextKey{}).(Name)
	return n, ok
}

type wildcardKey struct{}

// WithWildcard returns ctx for a request to every logical cluster at once,
// /clusters/*/…. Such a context names no cluster, so that whatever needs
// one must decide deliberately what a wildcard request means to it.
func WithWildcard(ctx context.Context) context.Context {
	return context.WithValue(ctx, wildcardKey{}, true)
}

// IsWildcard tells whether ctx is for a request to every logical cluster.
func IsWildcard(ctx context.Context) bool {
	w, _ := ctx.Value(wildcardKey{}).(bool)
	return w
}
