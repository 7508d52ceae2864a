package storage

import (
	"context"
	"strings"
	"time"

	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/storage/names"
	"k8s.io/utils/ptr"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/storage/csidriver"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/storage/csinode"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/storage/csistoragecapacity"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/storage/storageclass"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/storage/volumeattachment"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/storage/volumeattributesclass"
)

var internalVersion = schema.GroupVersion{Group: storagev1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers storage.k8s.io/v1 and the same Go types as its
// internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := storagev1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion,
		&storagev1.StorageClass{}, &storagev1.StorageClassList{},
		&storagev1.CSIDriver{}, &storagev1.CSIDriverList{},
		&storagev1.CSINode{}, &storagev1.CSINodeList{},
		&storagev1.VolumeAttachment{}, &storagev1.VolumeAttachmentList{},
		&storagev1.CSIStorageCapacity{}, &storagev1.CSIStorageCapacityList{},
		&storagev1.VolumeAttributesClass{}, &storagev1.VolumeAttributesClassList{},
	)
	return s.SetVersionPriority(storagev1.SchemeGroupVersion)
}

// NewStorage returns the storage.k8s.io/v1 resources. The tables are
// kubectl get's, from k8s.io/kubernetes@v1.37.1
// pkg/printers/internalversion/printers.go.
func NewStorage(f *registry.Factory, typer runtime.ObjectTyper) (registry.Group, error) {
	v1 := storagev1.SchemeGroupVersion.String()
	attachments := registry.Kind[*storagev1.VolumeAttachment]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true, Upstream: upstream.For(volumeattachment.Strategy),
	}
	csiNodes := registry.Kind[*storagev1.CSINode]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true, Upstream: upstream.For(csinode.Strategy),
	}
	return f.Build(storagev1.SchemeGroupVersion,
		registry.Resource{
			Singular: "storageclass", Plural: "storageclasses", ShortNames: []string{"sc"},
			New:     func() runtime.Object { return &storagev1.StorageClass{} },
			NewList: func() runtime.Object { return &storagev1.StorageClassList{} },
			Strategy: registry.Kind[*storagev1.StorageClass]{
				ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true, Upstream: upstream.For(storageclass.Strategy),
			},
			Configure: func(s *genericregistry.Store) { s.TableConvertor = classTable{storageClassTable} },
		},
		registry.Resource{
			Singular: "csidriver", Plural: "csidrivers",
			New:     func() runtime.Object { return &storagev1.CSIDriver{} },
			NewList: func() runtime.Object { return &storagev1.CSIDriverList{} },
			Strategy: registry.Kind[*storagev1.CSIDriver]{
				ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true, Upstream: upstream.For(csidriver.Strategy),
			},
			Table: csiDriverTable,
		},
		registry.Resource{
			Singular: "csinode", Plural: "csinodes",
			New:      func() runtime.Object { return &storagev1.CSINode{} },
			NewList:  func() runtime.Object { return &storagev1.CSINodeList{} },
			Strategy: csiNodes,
			Status:   registry.StatusOf[*storagev1.CSINode]{Kind: csiNodes, Upstream: upstream.For(csinode.StatusStrategy)},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Drivers", "integer", "Drivers indicates the number of CSI drivers registered on the node")},
				Cells:   func(o runtime.Object) []any { return []any{int64(len(o.(*storagev1.CSINode).Spec.Drivers))} },
			},
		},
		registry.Resource{
			Singular: "volumeattachment", Plural: "volumeattachments",
			New:      func() runtime.Object { return &storagev1.VolumeAttachment{} },
			NewList:  func() runtime.Object { return &storagev1.VolumeAttachmentList{} },
			Strategy: attachments,
			Status:   registry.StatusOf[*storagev1.VolumeAttachment]{Kind: attachments, Upstream: upstream.For(volumeattachment.StatusStrategy)},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{
					{Name: "Attacher", Type: "string", Format: "name", Description: storagev1.VolumeAttachmentSpec{}.SwaggerDoc()["attacher"]},
					registry.Column("PV", "string", storagev1.VolumeAttachmentSource{}.SwaggerDoc()["persistentVolumeName"]),
					registry.Column("Node", "string", storagev1.VolumeAttachmentSpec{}.SwaggerDoc()["nodeName"]),
					registry.Column("Attached", "boolean", storagev1.VolumeAttachmentStatus{}.SwaggerDoc()["attached"]),
				},
				Cells: func(o runtime.Object) []any {
					va := o.(*storagev1.VolumeAttachment)
					return []any{va.Spec.Attacher, ptr.Deref(va.Spec.Source.PersistentVolumeName, ""), va.Spec.NodeName, va.Status.Attached}
				},
			},
		},
		registry.Resource{
			Singular: "csistoragecapacity", Plural: "csistoragecapacities",
			New:     func() runtime.Object { return &storagev1.CSIStorageCapacity{} },
			NewList: func() runtime.Object { return &storagev1.CSIStorageCapacityList{} },
			Strategy: registry.Kind[*storagev1.CSIStorageCapacity]{
				ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, Upstream: upstream.For(csistoragecapacity.Strategy),
			},
			// kube-apiserver's default table, as it has no printer of
			// capacities: the name and the creation time.
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("Created At", "date", metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"])},
				Cells: func(o runtime.Object) []any {
					return []any{o.(*storagev1.CSIStorageCapacity).CreationTimestamp.UTC().Format(time.RFC3339)}
				},
				NoAge: true,
			},
		},
		registry.Resource{
			Singular: "volumeattributesclass", Plural: "volumeattributesclasses", ShortNames: []string{"vac"},
			New:     func() runtime.Object { return &storagev1.VolumeAttributesClass{} },
			NewList: func() runtime.Object { return &storagev1.VolumeAttributesClassList{} },
			Strategy: registry.Kind[*storagev1.VolumeAttributesClass]{
				ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: v1, ClusterScoped: true, Upstream: upstream.For(volumeattributesclass.Strategy),
			},
			Table: registry.Table{
				Columns: []metav1.TableColumnDefinition{registry.Column("DriverName", "string", storagev1.VolumeAttributesClass{}.SwaggerDoc()["driverName"])},
				Cells:   func(o runtime.Object) []any { return []any{o.(*storagev1.VolumeAttributesClass).DriverName} },
			},
		},
	)
}

// storageClassTable is printStorageClass's: a class's reclaim policy,
// binding mode and expansion as they are when unset.
var storageClassTable = registry.Table{
	Columns: []metav1.TableColumnDefinition{
		registry.Column("Provisioner", "string", storagev1.StorageClass{}.SwaggerDoc()["provisioner"]),
		registry.Column("ReclaimPolicy", "string", storagev1.StorageClass{}.SwaggerDoc()["reclaimPolicy"]),
		registry.Column("VolumeBindingMode", "string", storagev1.StorageClass{}.SwaggerDoc()["volumeBindingMode"]),
		registry.Column("AllowVolumeExpansion", "string", storagev1.StorageClass{}.SwaggerDoc()["allowVolumeExpansion"]),
	},
	Cells: func(o runtime.Object) []any {
		sc := o.(*storagev1.StorageClass)
		reclaim := "Delete"
		if sc.ReclaimPolicy != nil {
			reclaim = string(*sc.ReclaimPolicy)
		}
		binding := string(storagev1.VolumeBindingImmediate)
		if sc.VolumeBindingMode != nil {
			binding = string(*sc.VolumeBindingMode)
		}
		return []any{sc.Provisioner, reclaim, binding, ptr.Deref(sc.AllowVolumeExpansion, false)}
	},
}

// classTable is the table of StorageClasses, which in a list, as
// printStorageClassList does, marks the effective default class
// "(default)": of those annotated default, the newest, of equally new
// ones the first by name.
type classTable struct{ registry.Table }

func (t classTable) ConvertToTable(ctx context.Context, object, tableOptions runtime.Object) (*metav1.Table, error) {
	out, err := t.Table.ConvertToTable(ctx, object, tableOptions)
	if err != nil || !meta.IsListType(object) {
		return out, err
	}
	var def *storagev1.StorageClass
	for i := range out.Rows {
		sc, ok := out.Rows[i].Object.Object.(*storagev1.StorageClass)
		if !ok || !isDefault(sc) {
			continue
		}
		if def == nil || sc.CreationTimestamp.After(def.CreationTimestamp.Time) ||
			sc.CreationTimestamp.Equal(&def.CreationTimestamp) && sc.Name < def.Name {
			def = sc
		}
	}
	for i := range out.Rows {
		if def != nil && out.Rows[i].Object.Object == runtime.Object(def) {
			out.Rows[i].Cells[0] = def.Name + " (default)"
		}
	}
	return out, nil
}

// isDefault says whether sc is annotated as a default class, by the GA or
// the beta annotation (IsDefaultAnnotation of k8s.io/kubernetes
// pkg/apis/storage/util).
func isDefault(sc *storagev1.StorageClass) bool {
	return sc.Annotations["storageclass.kubernetes.io/is-default-class"] == "true" ||
		sc.Annotations["storageclass.beta.kubernetes.io/is-default-class"] == "true"
}

// csiDriverTable is printCSIDriver's, each unset flag as the kubelet
// takes it.
var csiDriverTable = registry.Table{
	Columns: []metav1.TableColumnDefinition{
		registry.Column("AttachRequired", "boolean", storagev1.CSIDriverSpec{}.SwaggerDoc()["attachRequired"]),
		registry.Column("PodInfoOnMount", "boolean", storagev1.CSIDriverSpec{}.SwaggerDoc()["podInfoOnMount"]),
		registry.Column("StorageCapacity", "boolean", storagev1.CSIDriverSpec{}.SwaggerDoc()["storageCapacity"]),
		registry.Column("TokenRequests", "string", storagev1.CSIDriverSpec{}.SwaggerDoc()["tokenRequests"]),
		registry.Column("RequiresRepublish", "boolean", storagev1.CSIDriverSpec{}.SwaggerDoc()["requiresRepublish"]),
		registry.Column("Modes", "string", storagev1.CSIDriverSpec{}.SwaggerDoc()["volumeLifecycleModes"]),
	},
	Cells: func(o runtime.Object) []any {
		spec := o.(*storagev1.CSIDriver).Spec
		tokens := "<unset>"
		if spec.TokenRequests != nil {
			var audiences []string
			for _, t := range spec.TokenRequests {
				audiences = append(audiences, t.Audience)
			}
			tokens = strings.Join(audiences, ",")
		}
		var modes []string
		for _, m := range spec.VolumeLifecycleModes {
			modes = append(modes, string(m))
		}
		shownModes := strings.Join(modes, ",")
		if shownModes == "" {
			shownModes = "<none>"
		}
		return []any{ptr.Deref(spec.AttachRequired, true), ptr.Deref(spec.PodInfoOnMount, false), ptr.Deref(spec.StorageCapacity, false),
			tokens, ptr.Deref(spec.RequiresRepublish, false), shownModes}
	},
}
