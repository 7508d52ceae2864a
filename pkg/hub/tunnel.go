package hub

import (
	"maps"

	"k8s.io/apiserver/pkg/authorization/authorizer"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/podproxy"
	"github.com/canopy-dev/canopy/pkg/tunnel"
)

// installTunnel serves synctargets/tunnel, at which syncers open their
// tunnels to tunnels, and the subresources of upsynced pods carried
// through them: exec, attach and port-forward asked for over a WebSocket
// are authorized by authz for create too.
func (s *apiStorage) installTunnel(tunnels *tunnel.Hub, authz authorizer.Authorizer) {
	for _, g := range s.groups {
		if g.version == workloadv1alpha1.SchemeGroupVersion {
			g.Storage["synctargets/"+tunnel.Subresource] = tunnels.Endpoint()
		}
	}
	pods := podproxy.New(s.Pods, s.SyncTargets, tunnels)
	s.core.Storage["pods/log"] = pods.Log()
	maps.Copy(s.core.Storage, pods.Streams(authz))
}
