package apps

import (
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/podspec"
	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/apps/controllerrevision"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/apps/daemonset"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/apps/deployment"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/apps/replicaset"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/apps/statefulset"
)

// all is the category of kubectl get all.
var all = []string{"all"}

// NewStorage returns the apps/v1 resources.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	deployments := registry.Kind[*appsv1.Deployment]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(deployment.Strategy)}
	replicaSets := registry.Kind[*appsv1.ReplicaSet]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(replicaset.Strategy)}
	statefulSets := registry.Kind[*appsv1.StatefulSet]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(statefulset.Strategy)}
	daemonSets := registry.Kind[*appsv1.DaemonSet]{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(daemonset.Strategy)}
	return f.Build(appsv1.SchemeGroupVersion,
		registry.Resource{
			Singular: "deployment", Plural: "deployments", ShortNames: []string{"deploy"}, Categories: all,
			New:      func() runtime.Object { return &appsv1.Deployment{} },
			NewList:  func() runtime.Object { return &appsv1.DeploymentList{} },
			Strategy: deployments,
			Status:   registry.StatusOf[*appsv1.Deployment]{Kind: deployments, Upstream: upstream.For(deployment.StatusStrategy)},
			Scale: &registry.Scaled{
				Replicas: func(o runtime.Object) (int32, int32, string) {
					d := o.(*appsv1.Deployment)
					return ptr.Deref(d.Spec.Replicas, 0), d.Status.Replicas, selectorString(d.Spec.Selector)
				},
				SetReplicas: func(o runtime.Object, n int32) { o.(*appsv1.Deployment).Spec.Replicas = &n },
			},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Ready", "string", "Number of the pod with ready state"),
					registry.Column("Up-to-date", "string", "Total number of non-terminated pods targeted by this deployment that have the desired template spec."),
					registry.Column("Available", "string", "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment."),
				},
				Cells: func(o runtime.Object) []any {
					d := o.(*appsv1.Deployment)
					return []any{ready(d.Status.ReadyReplicas, d.Spec.Replicas), registry.Count(int(d.Status.UpdatedReplicas)), registry.Count(int(d.Status.AvailableReplicas))}
				},
				Wide: podspec.TemplateColumns,
				WideCells: func(o runtime.Object) []any {
					d := o.(*appsv1.Deployment)
					return podspec.TemplateCells(&d.Spec.Template, d.Spec.Selector)
				},
			},
		},
		registry.Resource{
			Singular: "replicaset", Plural: "replicasets", ShortNames: []string{"rs"}, Categories: all,
			New:      func() runtime.Object { return &appsv1.ReplicaSet{} },
			NewList:  func() runtime.Object { return &appsv1.ReplicaSetList{} },
			Strategy: replicaSets,
			Status:   registry.StatusOf[*appsv1.ReplicaSet]{Kind: replicaSets, Upstream: upstream.For(replicaset.StatusStrategy)},
			Scale: &registry.Scaled{
				Replicas: func(o runtime.Object) (int32, int32, string) {
					rs := o.(*appsv1.ReplicaSet)
					return ptr.Deref(rs.Spec.Replicas, 0), rs.Status.Replicas, selectorString(rs.Spec.Selector)
				},
				SetReplicas: func(o runtime.Object, n int32) { o.(*appsv1.ReplicaSet).Spec.Replicas = &n },
			},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Desired", "integer", "Number of desired pods."),
					registry.Column("Current", "integer", "Number of actual replicas."),
					registry.Column("Ready", "integer", "The number of ready replicas for this replica set."),
				},
				Cells: func(o runtime.Object) []any {
					rs := o.(*appsv1.ReplicaSet)
					return []any{registry.Count(int(ptr.Deref(rs.Spec.Replicas, 0))), registry.Count(int(rs.Status.Replicas)), registry.Count(int(rs.Status.ReadyReplicas))}
				},
				Wide: podspec.TemplateColumns,
				WideCells: func(o runtime.Object) []any {
					rs := o.(*appsv1.ReplicaSet)
					return podspec.TemplateCells(&rs.Spec.Template, rs.Spec.Selector)
				},
			},
		},
		registry.Resource{
			Singular: "statefulset", Plural: "statefulsets", ShortNames: []string{"sts"}, Categories: all,
			New:      func() runtime.Object { return &appsv1.StatefulSet{} },
			NewList:  func() runtime.Object { return &appsv1.StatefulSetList{} },
			Strategy: statefulSets,
			Status:   registry.StatusOf[*appsv1.StatefulSet]{Kind: statefulSets, Upstream: upstream.For(statefulset.StatusStrategy)},
			Scale: &registry.Scaled{
				Replicas: func(o runtime.Object) (int32, int32, string) {
					s := o.(*appsv1.StatefulSet)
					return ptr.Deref(s.Spec.Replicas, 0), s.Status.Replicas, selectorString(s.Spec.Selector)
				},
				SetReplicas: func(o runtime.Object, n int32) { o.(*appsv1.StatefulSet).Spec.Replicas = &n },
			},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Ready", "string", "Number of the pod with ready state")},
				Cells: func(o runtime.Object) []any {
					s := o.(*appsv1.StatefulSet)
					return []any{ready(s.Status.ReadyReplicas, s.Spec.Replicas)}
				},
				Wide: podspec.TemplateColumns[:2],
				WideCells: func(o runtime.Object) []any {
					s := o.(*appsv1.StatefulSet)
					return podspec.TemplateCells(&s.Spec.Template, nil)
				},
			},
		},
		registry.Resource{
			Singular: "daemonset", Plural: "daemonsets", ShortNames: []string{"ds"}, Categories: all,
			New:      func() runtime.Object { return &appsv1.DaemonSet{} },
			NewList:  func() runtime.Object { return &appsv1.DaemonSetList{} },
			Strategy: daemonSets,
			Status:   registry.StatusOf[*appsv1.DaemonSet]{Kind: daemonSets, Upstream: upstream.For(daemonset.StatusStrategy)},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Desired", "integer", "The total number of nodes that should be running the daemon pod."),
					registry.Column("Current", "integer", "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod."),
					registry.Column("Ready", "integer", "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready."),
					registry.Column("Up-to-date", "integer", "The total number of nodes that are running updated daemon pod"),
					registry.Column("Available", "integer", "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available."),
					registry.Column("Node Selector", "string", "NodeSelector is a selector which must be true for the pod to fit on a node."),
				},
				Cells: func(o runtime.Object) []any {
					s := o.(*appsv1.DaemonSet).Status
					return []any{
						registry.Count(int(s.DesiredNumberScheduled)), registry.Count(int(s.CurrentNumberScheduled)), registry.Count(int(s.NumberReady)),
						registry.Count(int(s.UpdatedNumberScheduled)), registry.Count(int(s.NumberAvailable)),
						labels.FormatLabels(o.(*appsv1.DaemonSet).Spec.Template.Spec.NodeSelector),
					}
				},
				Wide: podspec.TemplateColumns,
				WideCells: func(o runtime.Object) []any {
					d := o.(*appsv1.DaemonSet)
					return podspec.TemplateCells(&d.Spec.Template, d.Spec.Selector)
				},
			},
		},
		registry.Resource{
			Singular: "controllerrevision", Plural: "controllerrevisions",
			New:     func() runtime.Object { return &appsv1.ControllerRevision{} },
			NewList: func() runtime.Object { return &appsv1.ControllerRevisionList{} },
			Strategy: registry.Kind[*appsv1.ControllerRevision]{
				ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, Upstream: upstream.For(controllerrevision.Strategy),
			},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					registry.Column("Controller", "string", "Controller of the object"),
					registry.Column("Revision", "string", "Revision of the ControllerRevision"),
				},
				Cells: func(o runtime.Object) []any {
					r := o.(*appsv1.ControllerRevision)
					controller := "<none>"
					if ref := metav1.GetControllerOf(r); ref != nil {
						controller = ref.Kind + "/" + ref.Name
					}
					return []any{controller, registry.Count(int(r.Revision))}
				},
			},
		},
	)
}

// ready is how many of the desired replicas are ready, as "1/3".
func ready(n int32, desired *int32) string {
	return registry.Count(int(n)) + "/" + registry.Count(int(ptr.Deref(desired, 0)))
}

// selectorString is a selector as a Scale's status gives it.
func selectorString(s *metav1.LabelSelector) string {
	selector, err := metav1.LabelSelectorAsSelector(s)
	if err != nil {
		return ""
	}
	return selector.String()
}
