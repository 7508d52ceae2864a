package hub

import (
	"context"
	"sync/atomic"

	genericapiserver "k8s.io/apiserver/pkg/server"

	"github.com/canopy-dev/canopy/pkg/shard"
)

// installShards makes this hub a member of the replicas sharing its
// datastore, owning its share of the shards of logical clusters by Leases
// in leases, the hub's own Lease store. The controllers ask the Ownership
// it returns which logical clusters to handle, and must register their
// OnGain before the server runs: the Manager starts once the server
// serves.
//
// It stops in a pre-shutdown hook, which the server runs as soon as it is
// told to stop, while it still serves and before the datastore closes:
// the Manager releases every shard at once, for the other replicas to
// take within a second or two rather than once the leases expire. The
// post-start hooks' context ends only after the pre-shutdown hooks, too
// late to wait for.
func installShards(server *genericapiserver.GenericAPIServer, leases shard.Leases) (shard.Ownership, error) {
	m, err := shard.New(shard.Config{Leases: leases, Identity: shard.NewIdentity()})
	if err != nil {
		return nil, err
	}
	stopping, stop := context.WithCancel(context.Background())
	var started atomic.Bool
	done := make(chan struct{})
	if err := server.AddPostStartHook("canopy-shards", func(hookCtx genericapiserver.PostStartHookContext) error {
		started.Store(true)
		ctx, cancel := context.WithCancel(hookCtx)
		context.AfterFunc(stopping, cancel)
		go func() {
			defer close(done)
			defer cancel()
			m.Run(ctx)
		}()
		return nil
	}); err != nil {
		stop()
		return nil, err
	}
	if err := server.AddPreShutdownHook("canopy-shards", func() error {
		stop()
		if started.Load() {
			<-done
		}
		return nil
	}); err != nil {
		stop()
		return nil, err
	}
	return m, nil
}
