package main

import (
	"context"

	"k8s.io/client-go/rest"

	"github.com/canopy-dev/canopy/pkg/sync"
	"github.com/canopy-dev/canopy/pkg/tunnel"
	"github.com/canopy-dev/canopy/pkg/tunnel/agent"
)

// startTunnel keeps the syncer's tunnel to the hub open until ctx ends,
// serving there the subresources of the pods it upsynced from cluster.
func startTunnel(ctx context.Context, hub, cluster *rest.Config, target string) error {
	lc, name, err := sync.ParseTarget(target)
	if err != nil {
		return err
	}
	t := tunnel.Target{Cluster: lc, Name: name}
	pods, err := agent.NewPodProxy(hub, cluster, t)
	if err != nil {
		return err
	}
	a, err := agent.New(hub, t, pods)
	if err != nil {
		return err
	}
	go a.Run(ctx)
	return nil
}
