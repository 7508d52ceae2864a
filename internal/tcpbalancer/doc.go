// Package tcpbalancer is a TCP load balancer in front of hub replicas, as
// a cloud load balancer or a Kubernetes Service would be, for the e2e
// tests and the benchmarks that run several replicas of one hub on one
// machine.
//
// It balances connections, not requests: each connection goes, whole, to
// the next backend in turn that accepts it, so TLS passes through
// untouched and every replica serves with its own certificate, as behind
// a real layer-4 balancer. A dead replica is skipped because it refuses
// the connection, without any health check, and a connection that was
// open to it when it died ends, as a client behind a real balancer sees
// it. It remembers which backend each client connection went to, so a
// test can tell which replica served it.
//
// It lives outside e2e because the benchmarks in bench/ need the same
// balancer in front of their replicas, and a copy would drift.
package tcpbalancer
