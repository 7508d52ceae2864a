package upstream

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	storagemigrationv1 "k8s.io/api/storagemigration/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/api/legacyscheme"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/admissionregistration"
	k8s_admissionregistration_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/admissionregistration/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/apps"
	k8s_apps_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/apps/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/autoscaling"
	k8s_autoscaling_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/autoscaling/v1"
	k8s_autoscaling_v2 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/autoscaling/v2"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/batch"
	k8s_batch_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/batch/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/certificates"
	k8s_certificates_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/certificates/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/coordination"
	k8s_coordination_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/coordination/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/core"
	k8s_api_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/core/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/discovery"
	k8s_discovery_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/discovery/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/events"
	k8s_events_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/events/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/flowcontrol"
	k8s_flowcontrol_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/flowcontrol/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/networking"
	k8s_networking_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/networking/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/node"
	k8s_node_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/node/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/policy"
	k8s_policy_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/policy/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/rbac"
	k8s_rbac_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/rbac/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/scheduling"
	k8s_scheduling_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/scheduling/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/storage"
	k8s_storage_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/storage/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/storagemigration"
	k8s_storagemigration_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/storagemigration/v1"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/capabilities"
)

// group is an API group as upstream's strategies know it: its internal
// version and the version the hub serves, with their conversions and
// defaults.
type group struct {
	served                  schema.GroupVersion
	addInternal, addVersion func(*runtime.Scheme) error
}

// groups are the API groups whose kinds have upstream strategies here. A
// group's row is what upstream's pkg/apis/<group>/install does, for the
// served version only.
var groups = []group{
	{corev1.SchemeGroupVersion, core.AddToScheme, k8s_api_v1.AddToScheme},
	{appsv1.SchemeGroupVersion, apps.AddToScheme, k8s_apps_v1.AddToScheme},
	// autoscaling/v1 too, for the Scales of scale subresources.
	{autoscalingv2.SchemeGroupVersion, autoscaling.AddToScheme, all(k8s_autoscaling_v2.AddToScheme, k8s_autoscaling_v1.AddToScheme)},
	{batchv1.SchemeGroupVersion, batch.AddToScheme, k8s_batch_v1.AddToScheme},
	{coordinationv1.SchemeGroupVersion, coordination.AddToScheme, k8s_coordination_v1.AddToScheme},
	{discoveryv1.SchemeGroupVersion, discovery.AddToScheme, k8s_discovery_v1.AddToScheme},
	{networkingv1.SchemeGroupVersion, networking.AddToScheme, k8s_networking_v1.AddToScheme},
	{policyv1.SchemeGroupVersion, policy.AddToScheme, k8s_policy_v1.AddToScheme},
	{rbacv1.SchemeGroupVersion, rbac.AddToScheme, k8s_rbac_v1.AddToScheme},
	{certificatesv1.SchemeGroupVersion, certificates.AddToScheme, k8s_certificates_v1.AddToScheme},
	{flowcontrolv1.SchemeGroupVersion, flowcontrol.AddToScheme, k8s_flowcontrol_v1.AddToScheme},
	{storagemigrationv1.SchemeGroupVersion, storagemigration.AddToScheme, k8s_storagemigration_v1.AddToScheme},
	{admissionregistrationv1.SchemeGroupVersion, admissionregistration.AddToScheme, k8s_admissionregistration_v1.AddToScheme},
	// events.k8s.io/v1 is core's Event at another version, whose
	// declarative validation converts to it.
	{eventsv1.SchemeGroupVersion, events.AddToScheme, k8s_events_v1.AddToScheme},
	{storagev1.SchemeGroupVersion, storage.AddToScheme, k8s_storage_v1.AddToScheme},
	{nodev1.SchemeGroupVersion, node.AddToScheme, k8s_node_v1.AddToScheme},
	{schedulingv1.SchemeGroupVersion, scheduling.AddToScheme, k8s_scheduling_v1.AddToScheme},
}

// Scheme is upstream's legacyscheme.Scheme, the one the lifted strategies
// type, convert and declaratively validate objects with, holding the
// internal and served versions of groups.
var Scheme = legacyscheme.Scheme

func init() {
	// The hub runs no pod: whether one may be privileged is for the
	// physical clusters to say, with their --allow-privileged. The hub
	// takes what such a cluster takes, as kubeadm, kind and kwok set it up,
	// and as kube-apiserver does once Setup with it; the harness's does.
	capabilities.Setup(true, 0)
	for _, g := range groups {
		utilruntime.Must(g.addInternal(Scheme))
		utilruntime.Must(g.addVersion(Scheme))
		utilruntime.Must(Scheme.SetVersionPriority(g.served))
	}
}

// all adds to a scheme what each of adds adds.
func all(adds ...func(*runtime.Scheme) error) func(*runtime.Scheme) error {
	return func(s *runtime.Scheme) error {
		for _, add := range adds {
			if err := add(s); err != nil {
				return err
			}
		}
		return nil
	}
}
