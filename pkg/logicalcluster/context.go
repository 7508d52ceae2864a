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
