// Command syncer runs the syncer of one SyncTarget: it pulls the hub
// objects assigned to the target into a physical cluster and pushes their
// status back to the hub (package sync). It serves the syncer's
// Prometheus metrics, and sends its traces to an OTLP collector.
package main
