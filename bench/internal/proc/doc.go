// Package proc runs the processes a benchmark measures, and measures them:
// it builds the project's commands, starts them with their output in a log
// file and stops them when the benchmark ends (or dies), starts the hub on
// a datastore and talks to it as its admin, and reads a process's memory
// and CPU time from /proc; and it waits and logs as benchmarks do, until
// an interrupt.
package proc
