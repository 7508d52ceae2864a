// Package tunnel is the hub's end of the tunnels that syncers open to it,
// through which the hub reaches the pods they run: their logs, exec,
// attach and port-forward, carried to the physical cluster's API server
// by the syncer (pkg/tunnel/agent), so that a physical cluster behind NAT
// or a firewall needs no inbound port and the hub never dials one.
//
// # Shape
//
// A syncer opens its tunnel as a request to the hub like any other: GET
// /clusters/<cluster>/apis/workload.canopy.dev/v1alpha1/synctargets/<name>/tunnel
// with Connection: Upgrade and Upgrade: canopy-tunnel-yamux, over its
// existing TLS connection settings and client certificate. The request
// therefore passes the hub's authentication, its authorization (the
// syncer's scope lets it get the tunnel of its own SyncTarget only), its
// audit and its syncer revocation filter, and Endpoint takes the tunnel
// only from the credential of that SyncTarget's syncer, whatever RBAC
// says. The filter cancels the request's context when the SyncTarget is
// deleted or made again, or the credential revoked, which closes the
// tunnel, as it ends the syncer's watches.
//
// Once upgraded, the connection carries yamux (github.com/hashicorp/yamux)
// streams: a well-kept multiplexer, used the same way by HashiCorp's
// tools, rather than a framing of our own. The hub opens a stream per
// request and speaks plain HTTP/1.1 over it to the http.Handler that the
// syncer serves on its end, the yamux session being its net.Listener.
// So Dialer.Dial gives a raw byte stream, which upgrades such as exec's
// use as they are, and RoundTripper an http.RoundTripper over it.
// kube-apiserver proxies to kubelets the same way, with one hop more.
// Where an upgrade is proxied, at the hub and at the syncer, a backend
// that closed while the client still sends has its last output relayed
// all the same (ProxyBackend).
// Both ends ping every 10 s, so a tunnel whose peer vanished without
// closing it ends within 20 s; a killed syncer's kernel closes it at
// once. A syncer that reconnects replaces its previous tunnel.
//
// # Several replicas
//
// A syncer keeps one tunnel, to the replica its connection reached; it
// could not reach each replica anyway behind a balancer that hides them.
// The replica records it in a Lease canopy-tunnel-<key> in root's
// kube-system, as pkg/shard records shards, with its address
// (AddressAnnotation). A replica asked for a target whose tunnel it does
// not hold reads the Lease and asks the holder for a stream with
// Upgrade: canopy-tunnel-relay at the same endpoint, authenticating with a
// client certificate of RelayUser that it signs with the CA every
// replica shares (pkg/identity); the holder splices that connection to a
// stream of the tunnel. The Lease is written when the tunnel opens and
// deleted, if it still names this replica, when it closes; never
// renewed, so a quiet tunnel writes nothing. One left by a replica that
// died names an address that no longer answers, a 503, until the syncer
// opens its tunnel at another replica, within seconds, which writes over
// it.
//
// A tunnel costs its connection and yamux's buffers, and a stream its
// window (256 KiB at most in flight each way): no goroutine per idle
// target beyond the one serving its tunnel.
package tunnel
