package tunnel

import (
	"io"
	"path"
	"strings"
	"time"

	"github.com/hashicorp/yamux"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Protocol is the name, in the Upgrade header, of the tunnel's protocol:
// yamux streams over the upgraded connection, each stream one HTTP/1.1
// connection from the hub to the http.Handler the syncer serves.
const Protocol = "canopy-tunnel-yamux"

// Subresource is the subresource of a SyncTarget at which its syncer
// opens the tunnel: GET .../synctargets/<name>/tunnel with the Upgrade
// header.
const Subresource = "tunnel"

// keepAlive is how often both ends ping over an idle tunnel, so that a
// peer gone without closing its connection (a network cut, not a killed
// process, whose kernel closes it) is noticed within twice that.
const keepAlive = 10 * time.Second

// MuxConfig is the yamux configuration of both ends.
func MuxConfig() *yamux.Config {
	c := yamux.DefaultConfig()
	c.KeepAliveInterval = keepAlive
	c.ConnectionWriteTimeout = keepAlive
	// yamux logs to stderr by default; its errors reach the callers
	// instead.
	c.LogOutput = io.Discard
	return c
}

// PodPath is the path, inside the tunnel, of subresource sub of pod name
// in namespace of logical cluster cluster: the pod as the hub names it,
// which the syncer maps to its downstream namespace.
func PodPath(cluster logicalcluster.Name, namespace, name, sub string) string {
	return path.Join(logicalcluster.PathPrefix, string(cluster), "api/v1/namespaces", namespace, "pods", name, sub)
}

// ParsePodPath is the pod and subresource PodPath names; false if p is
// no such path.
func ParsePodPath(p string) (cluster logicalcluster.Name, namespace, name, sub string, ok bool) {
	rest, found := strings.CutPrefix(p, logicalcluster.PathPrefix)
	parts := strings.Split(rest, "/")
	if !found || len(parts) != 8 || parts[1] != "api" || parts[2] != "v1" || parts[3] != "namespaces" || parts[5] != "pods" {
		return "", "", "", "", false
	}
	cluster, err := logicalcluster.Parse(parts[0])
	if err != nil || parts[4] == "" || parts[6] == "" || parts[7] == "" {
		return "", "", "", "", false
	}
	return cluster, parts[4], parts[6], parts[7], true
}
