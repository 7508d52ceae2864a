// Package e2e tests the hub from the outside, as a user meets it: the
// built cmd/hub binary as a process, driven with the real kubectl on PATH
// through the admin kubeconfig it writes.
//
// Every test starts its own hubs, physical clusters and syncers, on ports
// and directories of its own, so tests share nothing but the binaries
// (built once per run) and the PostgreSQL server, in which each has its
// own database. Tests call t.Parallel, so that their waits (for heartbeats,
// grace periods, outages and process start-ups) overlap instead of adding
// up in CI. They give hub and syncer flags, and the environment of a hub
// or a kubectl command, to the helpers that start them (startHubFlags,
// syncerSetup, the env fields of hub and kubectl), never to the test
// process: t.Setenv would forbid t.Parallel and reach every test's
// processes. A test that times the hub within a second runs alone
// instead (TestSyncTargetHeartbeatTimeout).
package e2e
