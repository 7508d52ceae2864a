// Command differential runs the differential harness (internal/difftest)
// against two servers already running: a kube-apiserver and a logical
// cluster of a hub, each named by a kubeconfig and, optionally, a context.
// It prints the counts per kind and the divergence classes of each, and
// exits 1 when a divergence is not a deliberate one.
//
//	go run ./e2e/pcluster/pclusters up -n 1     # a kube-apiserver v1.37
//	go run ./hack/differential -kube pc1.kubeconfig -hub .canopy/admin.kubeconfig -hub-context team \
//	    -cases 2500 -seed 7
//	go run ./hack/differential … -seed 7 -case apps/v1/Deployment#17   # one case again, whole
//
// bench/differential.sh starts both servers itself.
package main
