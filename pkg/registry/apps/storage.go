package apps

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
					registry.Column("Up-to-date", "string", appsv1.DeploymentStatus{}.SwaggerDoc()["updatedReplicas"]),
					registry.Column("Available", "string", appsv1.DeploymentStatus{}.SwaggerDoc()["availableReplicas"]),
				},
				Cells: func(o runtime.Object) []any {
					d := o.(*appsv1.Deployment)
					return []any{ready(d.Status.ReadyReplicas, d.Spec.Replicas), int64(d.Status.UpdatedReplicas), int64(d.Status.AvailableReplicas)}
				},
				Wide: podspec.SelectorColumns(appsv1.DeploymentSpec{}.SwaggerDoc()["selector"]),
				WideCells: func(o runtime.Object) []any {
					d := o.(*appsv1.Deployment)
					return podspec.SelectorCells(&d.Spec.Template, d.Spec.Selector)
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
					registry.Column("Desired", "integer", appsv1.ReplicaSetSpec{}.SwaggerDoc()["replicas"]),
					registry.Column("Current", "integer", appsv1.ReplicaSetStatus{}.SwaggerDoc()["replicas"]),
					registry.Column("Ready", "integer", appsv1.ReplicaSetStatus{}.SwaggerDoc()["readyReplicas"]),
				},
				Cells: func(o runtime.Object) []any {
					rs := o.(*appsv1.ReplicaSet)
					return []any{int64(ptr.Deref(rs.Spec.Replicas, 0)), int64(rs.Status.Replicas), int64(rs.Status.ReadyReplicas)}
				},
				Wide: podspec.SelectorColumns(appsv1.ReplicaSetSpec{}.SwaggerDoc()["selector"]),
				WideCells: func(o runtime.Object) []any {
					rs := o.(*appsv1.ReplicaSet)
					return podspec.SelectorCells(&rs.Spec.Template, rs.Spec.Selector)
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
				Wide: podspec.TemplateColumns,
				WideCells: func(o runtime.Object) []any {
					return podspec.TemplateCells(&o.(*appsv1.StatefulSet).Spec.Template)
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
					registry.Column("Desired", "integer", appsv1.DaemonSetStatus{}.SwaggerDoc()["desiredNumberScheduled"]),
					registry.Column("Current", "integer", appsv1.DaemonSetStatus{}.SwaggerDoc()["currentNumberScheduled"]),
					registry.Column("Ready", "integer", appsv1.DaemonSetStatus{}.SwaggerDoc()["numberReady"]),
					registry.Column("Up-to-date", "integer", appsv1.DaemonSetStatus{}.SwaggerDoc()["updatedNumberScheduled"]),
					registry.Column("Available", "integer", appsv1.DaemonSetStatus{}.SwaggerDoc()["numberAvailable"]),
					registry.Column("Node Selector", "string", corev1.PodSpec{}.SwaggerDoc()["nodeSelector"]),
				},
				Cells: func(o runtime.Object) []any {
					s := o.(*appsv1.DaemonSet).Status
					return []any{
						int64(s.DesiredNumberScheduled), int64(s.CurrentNumberScheduled), int64(s.NumberReady),
						int64(s.UpdatedNumberScheduled), int64(s.NumberAvailable),
						labels.FormatLabels(o.(*appsv1.DaemonSet).Spec.Template.Spec.NodeSelector),
					}
				},
				Wide: podspec.SelectorColumns(appsv1.DaemonSetSpec{}.SwaggerDoc()["selector"]),
				WideCells: func(o runtime.Object) []any {
					d := o.(*appsv1.DaemonSet)
					return podspec.SelectorCells(&d.Spec.Template, d.Spec.Selector)
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
					registry.Column("Revision", "string", appsv1.ControllerRevision{}.SwaggerDoc()["revision"]),
				},
				Cells: func(o runtime.Object) []any {
					r := o.(*appsv1.ControllerRevision)
					return []any{controllerOf(r), r.Revision}
				},
			},
		},
	)
}

// controllerOf names the controller of r as kubectl get prints it, by
// its lower-case kind and group ("statefulset.apps/db"), or "<none>".
func controllerOf(r *appsv1.ControllerRevision) string {
	ref := metav1.GetControllerOf(r)
	if ref == nil {
		return "<none>"
	}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return ref.Kind + "/" + ref.Name
	}
	return strings.ToLower(gv.WithKind(ref.Kind).GroupKind().String()) + "/" + ref.Name
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
