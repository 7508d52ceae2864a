package podproxy

import (
	"context"
	"fmt"
	"net/url"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/tunnel"
	k8s_api_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/core/v1"
)

// AddToScheme registers how the query of each pod subresource request
// decodes into its options, as kube-apiserver's scheme does, and the
// metrics.k8s.io types Metrics serves.
func AddToScheme(s *runtime.Scheme) error {
	if err := metricsv1beta1.AddToScheme(s); err != nil {
		return err
	}
	for _, c := range []struct {
		options runtime.Object
		convert func(*url.Values, runtime.Object, conversion.Scope) error
	}{
		{&corev1.PodLogOptions{}, func(in *url.Values, out runtime.Object, s conversion.Scope) error {
			return k8s_api_v1.Convert_url_Values_To_v1_PodLogOptions(in, out.(*corev1.PodLogOptions), s)
		}},
		{&corev1.PodExecOptions{}, func(in *url.Values, out runtime.Object, s conversion.Scope) error {
			return k8s_api_v1.Convert_url_Values_To_v1_PodExecOptions(in, out.(*corev1.PodExecOptions), s)
		}},
		{&corev1.PodAttachOptions{}, func(in *url.Values, out runtime.Object, s conversion.Scope) error {
			return k8s_api_v1.Convert_url_Values_To_v1_PodAttachOptions(in, out.(*corev1.PodAttachOptions), s)
		}},
		{&corev1.PodPortForwardOptions{}, func(in *url.Values, out runtime.Object, s conversion.Scope) error {
			return k8s_api_v1.Convert_url_Values_To_v1_PodPortForwardOptions(in, out.(*corev1.PodPortForwardOptions), s)
		}},
	} {
		convert := c.convert
		if err := s.AddConversionFunc((*url.Values)(nil), c.options, func(a, b any, scope conversion.Scope) error {
			return convert(a.(*url.Values), b.(runtime.Object), scope)
		}); err != nil {
			return err
		}
	}
	return nil
}

// Pods finds, for a pod at the hub, the SyncTarget whose syncer runs it.
type Pods struct {
	pods        rest.Getter
	syncTargets rest.Lister
	tunnels     tunnel.Dialer
}

// New returns Pods reading pods and SyncTargets from their stores, and
// reaching syncers through tunnels.
func New(pods rest.Getter, syncTargets rest.Lister, tunnels tunnel.Dialer) *Pods {
	return &Pods{pods: pods, syncTargets: syncTargets, tunnels: tunnels}
}

// Locate is pod name of the namespace and logical cluster of ctx, and the
// SyncTarget that runs it: a 404 if the hub has no such pod, a 400 if
// no syncer upsynced it.
func (p *Pods) Locate(ctx context.Context, name string) (*corev1.Pod, tunnel.Target, error) {
	obj, err := p.pods.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, tunnel.Target{}, err
	}
	pod := obj.(*corev1.Pod)
	cluster, _ := logicalcluster.ClusterFrom(ctx)
	key := pod.Labels[workloadv1alpha1.UpsyncedLabel]
	if key == "" {
		return nil, tunnel.Target{}, apierrors.NewBadRequest(fmt.Sprintf(
			"pod %s/%s of logical cluster %s runs in no physical cluster: only the pods that syncers upsynced (label %s) have logs, exec, attach and port-forward at the hub",
			pod.Namespace, name, cluster, workloadv1alpha1.UpsyncedLabel))
	}
	t, err := p.target(ctx, cluster, key)
	if err != nil {
		return nil, tunnel.Target{}, err
	}
	return pod, t, nil
}

// target is the SyncTarget of key that may run pods of cluster: in
// cluster or one of its ancestors, where SyncTargets usable from it are.
func (p *Pods) target(ctx context.Context, cluster logicalcluster.Name, key string) (tunnel.Target, error) {
	for c, ok := cluster, true; ok; c, ok = c.Parent() {
		list, err := p.syncTargets.List(logicalcluster.WithCluster(ctx, c), &metainternalversion.ListOptions{})
		if err != nil {
			return tunnel.Target{}, err
		}
		for _, st := range list.(*workloadv1alpha1.SyncTargetList).Items {
			if t := (tunnel.Target{Cluster: c, Name: st.Name}); t.Key() == key {
				return t, nil
			}
		}
	}
	return tunnel.Target{}, apierrors.NewServiceUnavailable(fmt.Sprintf(
		"the SyncTarget of key %s, whose syncer upsynced the pod, is gone from logical cluster %s and its ancestors, so the pod cannot be reached", key, cluster))
}
