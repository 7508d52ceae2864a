package core

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/configmap"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/endpoint"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/event"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/limitrange"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/namespace"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/pod"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/podtemplate"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/resourcequota"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/secret"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/service"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/serviceaccount"
)

// NewStorage returns the core/v1 resources. tokens signs the tokens of
// serviceaccounts/token.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper, tokens TokenIssuer) (registry.Group, error) {
	k := kinds(typer)
	return f.Build(corev1.SchemeGroupVersion,
		registry.Resource{
			Singular: "namespace", Plural: "namespaces", ShortNames: []string{"ns"},
			New:       func() runtime.Object { return &corev1.Namespace{} },
			NewList:   func() runtime.Object { return &corev1.NamespaceList{} },
			Fields:    namespaceFields,
			Strategy:  k.namespaces,
			Configure: func(s *genericregistry.Store) { s.ShouldDeleteDuringUpdate = namespaceDeletableOnUpdate },
			Serve: func(main *registry.Served) map[string]rest.Storage {
				return map[string]rest.Storage{
					"namespaces":          &namespaceREST{main},
					"namespaces/finalize": newNamespaceFinalize(main.Store, registry.StatusOf[*corev1.Namespace]{Kind: k.namespaces, Upstream: upstream.For(namespace.FinalizeStrategy)}),
					"namespaces/status":   registry.NewStatus(main.Store, registry.StatusOf[*corev1.Namespace]{Kind: k.namespaces, Upstream: upstream.For(namespace.StatusStrategy)}),
				}
			},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Status", "string", "The status of the namespace")},
				Cells:   func(o runtime.Object) []any { return []any{string(o.(*corev1.Namespace).Status.Phase)} },
			},
		},
		registry.Resource{
			Singular: "configmap", Plural: "configmaps", ShortNames: []string{"cm"},
			New:      func() runtime.Object { return &corev1.ConfigMap{} },
			NewList:  func() runtime.Object { return &corev1.ConfigMapList{} },
			Strategy: k.configMaps,
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Data", "string", corev1.ConfigMap{}.SwaggerDoc()["data"])},
				Cells: func(o runtime.Object) []any {
					cm := o.(*corev1.ConfigMap)
					return []any{int64(len(cm.Data) + len(cm.BinaryData))}
				},
			},
		},
		registry.Resource{
			Singular: "secret", Plural: "secrets",
			New:      func() runtime.Object { return &corev1.Secret{} },
			NewList:  func() runtime.Object { return &corev1.SecretList{} },
			Fields:   secretFields,
			Strategy: k.secrets,
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Type", "string", corev1.Secret{}.SwaggerDoc()["type"]),
					registry.Column("Data", "string", corev1.Secret{}.SwaggerDoc()["data"]),
				},
				Cells: func(o runtime.Object) []any {
					s := o.(*corev1.Secret)
					return []any{string(s.Type), int64(len(s.Data))}
				},
			},
		},
		registry.Resource{
			Singular: "serviceaccount", Plural: "serviceaccounts", ShortNames: []string{"sa"},
			New:      func() runtime.Object { return &corev1.ServiceAccount{} },
			NewList:  func() runtime.Object { return &corev1.ServiceAccountList{} },
			Strategy: k.serviceAccounts,
			Serve: func(main *registry.Served) map[string]rest.Storage {
				return map[string]rest.Storage{
					"serviceaccounts":       main,
					"serviceaccounts/token": &tokenRequests{serviceAccounts: main.Store, issuer: tokens},
				}
			},
			// kubectl shows a ServiceAccount's name and age alone.
			Table: registry.Table{Cells: func(runtime.Object) []any { return nil }},
		},
		nodeResource(typer),
		registry.Resource{
			Singular: "pod", Plural: "pods", ShortNames: []string{"po"}, Categories: []string{"all"},
			New:      func() runtime.Object { return &corev1.Pod{} },
			NewList:  func() runtime.Object { return &corev1.PodList{} },
			Fields:   podFields,
			Strategy: k.pods,
			Status:   registry.StatusOf[*corev1.Pod]{Kind: k.pods, Upstream: upstream.For(pod.StatusStrategy)},
			Table:    podTable,
		},
		registry.Resource{
			Singular: "podtemplate", Plural: "podtemplates",
			New:      func() runtime.Object { return &corev1.PodTemplate{} },
			NewList:  func() runtime.Object { return &corev1.PodTemplateList{} },
			Strategy: k.podTemplates,
			Table:    podTemplateTable,
		},
		registry.Resource{
			Singular: "service", Plural: "services", ShortNames: []string{"svc"}, Categories: []string{"all"},
			New:      func() runtime.Object { return &corev1.Service{} },
			NewList:  func() runtime.Object { return &corev1.ServiceList{} },
			Fields:   serviceFields,
			Strategy: k.services,
			Status:   registry.StatusOf[*corev1.Service]{Kind: k.services, Upstream: upstream.For(service.StatusStrategy)},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Type", "string", corev1.ServiceSpec{}.SwaggerDoc()["type"]),
					registry.Column("Cluster-IP", "string", corev1.ServiceSpec{}.SwaggerDoc()["clusterIP"]),
					registry.Column("External-IP", "string", corev1.ServiceSpec{}.SwaggerDoc()["externalIPs"]),
					registry.Column("Port(s)", "string", corev1.ServiceSpec{}.SwaggerDoc()["ports"]),
				},
				Cells:     serviceCells,
				Wide:      []metav1.TableColumnDefinition{registry.Column("Selector", "string", corev1.ServiceSpec{}.SwaggerDoc()["selector"])},
				WideCells: serviceSelector,
			},
		},
		registry.Resource{
			Singular: "endpoints", Plural: "endpoints", ShortNames: []string{"ep"},
			New:      func() runtime.Object { return &corev1.Endpoints{} },
			NewList:  func() runtime.Object { return &corev1.EndpointsList{} },
			Strategy: k.endpoints,
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Endpoints", "string", corev1.Endpoints{}.SwaggerDoc()["subsets"])},
				Cells:   endpointsCells,
			},
		},
		registry.Resource{
			Singular: "event", Plural: "events", ShortNames: []string{"ev"},
			New:      func() runtime.Object { return &corev1.Event{} },
			NewList:  func() runtime.Object { return &corev1.EventList{} },
			Fields:   eventFields,
			Strategy: k.events,
			Table:    eventTable,
		},
		registry.Resource{
			Singular: "limitrange", Plural: "limitranges", ShortNames: []string{"limits"},
			New:      func() runtime.Object { return &corev1.LimitRange{} },
			NewList:  func() runtime.Object { return &corev1.LimitRangeList{} },
			Strategy: k.limitRanges,
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Created At", "date", metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"])},
				Cells:   limitRangeCells,
				NoAge:   true,
			},
		},
		registry.Resource{
			Singular: "resourcequota", Plural: "resourcequotas", ShortNames: []string{"quota"},
			New:      func() runtime.Object { return &corev1.ResourceQuota{} },
			NewList:  func() runtime.Object { return &corev1.ResourceQuotaList{} },
			Strategy: k.resourceQuotas,
			Status:   registry.StatusOf[*corev1.ResourceQuota]{Kind: k.resourceQuotas, Upstream: upstream.For(resourcequota.StatusStrategy)},
			Table:    quotaTable,
		},
		replicationControllers(typer),
		persistentVolumes(typer),
		persistentVolumeClaims(typer),
	)
}

// coreKinds are the strategies of the core/v1 kinds: upstream's, run on
// the hub's v1 objects, with what the hub adds.
type coreKinds struct {
	namespaces      registry.Kind[*corev1.Namespace]
	configMaps      registry.Kind[*corev1.ConfigMap]
	secrets         registry.Kind[*corev1.Secret]
	serviceAccounts registry.Kind[*corev1.ServiceAccount]
	pods            registry.Kind[*corev1.Pod]
	podTemplates    registry.Kind[*corev1.PodTemplate]
	services        registry.Kind[*corev1.Service]
	endpoints       registry.Kind[*corev1.Endpoints]
	events          registry.Kind[*corev1.Event]
	limitRanges     registry.Kind[*corev1.LimitRange]
	resourceQuotas  registry.Kind[*corev1.ResourceQuota]
}

func kinds(typer runtime.ObjectTyper) coreKinds {
	v1 := corev1.SchemeGroupVersion.String()
	return coreKinds{
		namespaces:      registry.Kind[*corev1.Namespace]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true, Upstream: upstream.For(namespace.Strategy)},
		configMaps:      registry.Kind[*corev1.ConfigMap]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(configmap.Strategy)},
		secrets:         registry.Kind[*corev1.Secret]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(secret.Strategy)},
		serviceAccounts: registry.Kind[*corev1.ServiceAccount]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(serviceaccount.Strategy)},
		pods:            registry.Kind[*corev1.Pod]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(pod.Strategy)},
		podTemplates:    registry.Kind[*corev1.PodTemplate]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(podtemplate.Strategy)},
		services:        registry.Kind[*corev1.Service]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(service.Strategy)},
		endpoints:       registry.Kind[*corev1.Endpoints]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(endpoint.Strategy)},
		events:          registry.Kind[*corev1.Event]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(event.Strategy)},
		limitRanges:     registry.Kind[*corev1.LimitRange]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(limitrange.Strategy)},
		resourceQuotas:  registry.Kind[*corev1.ResourceQuota]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(resourcequota.Strategy)},
	}
}
