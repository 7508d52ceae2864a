// Command syncer runs the syncer of one SyncTarget: it pulls the hub
// objects assigned to the target into a physical cluster and pushes their
// status back to the hub (package sync). It serves the syncer's
// Prometheus metrics, and sends its traces to an OTLP collector.
//
// Its hub client is client-go's, but for the connections under it, which
// are the command's: they present the certificate of the hub kubeconfig
// as it is now, so that a rotated credential is taken without a restart
// (credential.go); they go to whichever of the hub's replicas answers,
// given --hub-url, so that the syncer outlives a replica (replicas.go);
// and keepalives and HTTP/2 pings find a dead one within seconds, since a
// replica gone with its machine, or behind a balancer, sends no reset.
// Package sync sees none of it: the informers' watches break with the
// connection, and resume from their resourceVersions on the next.
package main
