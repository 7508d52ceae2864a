// Package fleet starts what a benchmark's hub places workloads on: real
// physical clusters (e2e/pcluster) side by side, and on each one or
// several SyncTargets (a big cluster partitioned), each registered with `hub synctarget create` and its syncer run
// as a local process with the hub kubeconfig of the printed manifest; and
// the Deployments kwok runs there, and watches of what the syncers made.
package fleet
