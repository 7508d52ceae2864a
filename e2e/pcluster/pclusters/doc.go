// Command pclusters starts and stops physical clusters for manual work,
// the ones the e2e tests start through package pcluster:
//
//	pclusters up -n 3   # starts pc1..pc3 and prints their kubeconfigs
//	pclusters down      # stops every cluster it started
//
// The clusters outlive the command; their state is under -dir.
package main
