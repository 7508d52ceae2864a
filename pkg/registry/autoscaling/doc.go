// Package autoscaling serves autoscaling/v2 HorizontalPodAutoscalers in
// every logical cluster, stored at the hub, and defaulted, validated and
// warned of by upstream's own strategy (package upstream runs the lifted
// code of third_party/kubernetes). Nothing scales here; syncers carry them to the physical
// clusters, whose controllers do and fill in their status.
//
// It registers autoscaling/v2 only, with its Go types as the internal
// version as in package core; autoscaling/v1 is the group of the Scale
// of /scale subresources, registered by those who serve them.
package autoscaling
