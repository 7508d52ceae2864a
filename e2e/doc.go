// Package e2e tests the hub from the outside, as a user meets it: the
// built cmd/hub binary as a process, driven with the real kubectl on PATH
// through the admin kubeconfig it writes.
package e2e
