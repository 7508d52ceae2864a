// Package tunnel benchmarks reaching running pods through the hub: a
// pod's log and exec carried by the syncer's tunnel (pkg/tunnel,
// pkg/podproxy), against the same requests sent straight to the physical
// cluster that runs the pod.
//
// BenchmarkTunnel builds cmd/hub and cmd/syncer, starts the hub on a
// throwaway pgtest PostgreSQL database, one physical cluster pc1 of
// package e2e/pcluster with one kwok node, registers SyncTarget pc1 with
// `hub synctarget create` and runs its syncer as a local process. It
// places a Deployment of one replica on pc1 from namespace default of
// logical cluster root and waits for its pod to be upsynced. Then, N
// times (200 by default), alternating which goes first:
//
//   - time to first log byte: GET pods/log of the pod, from the request to
//     the first byte of the body, at the hub and at pc1;
//   - exec round trip: `echo` run in the pod through client-go's exec
//     executor, WebSocket with SPDY fallback as kubectl 1.30+ does, from
//     the start to the command's end, at the hub and at pc1;
//   - GET of the pod, at the hub and at pc1: no tunnel, the cost of a
//     plain request at each server on this machine, beside which the two
//     above read;
//
// and reports p50 / p99 / max of each, the hub's p99 over the direct
// p99 as a ratio, and the goal: the hub's p99 at most 1.5 times the
// direct p99 plus 20 ms. It shows the CPU time the hub and the syncer
// used per request over the exec loop, which a loaded machine distorts
// less than wall times.
//
// Last, it opens S (50) `logs -f` streams through the hub at once, waits
// until each has its first byte, and shows what the hub and the syncer
// hold per stream: the growth of their RSS, and of the hub's Go heap and
// goroutines, over S.
//
// Every figure is measured side by side in one run on one machine; the
// load average at the start and end is printed with them. Run it with
// bench/tunnel.sh.
package tunnel
