package core

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/storage/names"

	"github.com/canopy-dev/canopy/pkg/registry"
	"github.com/canopy-dev/canopy/pkg/registry/upstream"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/persistentvolume"
	"github.com/canopy-dev/canopy/third_party/kubernetes/pkg/registry/core/persistentvolumeclaim"
)

// PersistentVolumeClaims are stored and served as kube-apiserver serves
// them, with their status, by upstream's strategy: app teams' manifests
// and charts hold them. Nothing at the hub binds or provisions them; a
// claim synced to a physical cluster is bound there, and its status
// comes back as any synced object's. PersistentVolumes are served the
// same way, as plain stored objects: a logical cluster has no storage of
// its own, so the volumes its claims bind to are the physical clusters',
// and are not copied up.

type (
	persistentVolume      = corev1.PersistentVolume
	persistentVolumeClaim = corev1.PersistentVolumeClaim
)

func persistentVolumes(typer runtime.ObjectTyper) registry.Resource {
	pvs := registry.Kind[*persistentVolume]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: corev1.SchemeGroupVersion.String(),
		ClusterScoped: true, Upstream: upstream.For(persistentvolume.Strategy),
	}
	return registry.Resource{
		Singular: "persistentvolume", Plural: "persistentvolumes", ShortNames: []string{"pv"},
		New:      func() runtime.Object { return &persistentVolume{} },
		NewList:  func() runtime.Object { return &corev1.PersistentVolumeList{} },
		Strategy: pvs,
		Status:   registry.StatusOf[*persistentVolume]{Kind: pvs, Upstream: upstream.For(persistentvolume.StatusStrategy)},
		// kubectl get's table, printPersistentVolume in
		// k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go.
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Capacity", "string", corev1.PersistentVolumeSpec{}.SwaggerDoc()["capacity"]),
				registry.Column("Access Modes", "string", corev1.PersistentVolumeSpec{}.SwaggerDoc()["accessModes"]),
				registry.Column("Reclaim Policy", "string", corev1.PersistentVolumeSpec{}.SwaggerDoc()["persistentVolumeReclaimPolicy"]),
				registry.Column("Status", "string", corev1.PersistentVolumeStatus{}.SwaggerDoc()["phase"]),
				registry.Column("Claim", "string", corev1.PersistentVolumeSpec{}.SwaggerDoc()["claimRef"]),
				registry.Column("StorageClass", "string", "StorageClass of the pv"),
				registry.Column("VolumeAttributesClass", "string", "VolumeAttributesClass of the pv"),
				registry.Column("Reason", "string", corev1.PersistentVolumeStatus{}.SwaggerDoc()["reason"]),
			},
			Cells: func(o runtime.Object) []any {
				pv := o.(*persistentVolume)
				claim := ""
				if ref := pv.Spec.ClaimRef; ref != nil {
					claim = ref.Namespace + "/" + ref.Name
				}
				phase := string(pv.Status.Phase)
				if pv.DeletionTimestamp != nil {
					phase = "Terminating"
				}
				class, ok := pv.Annotations[corev1.BetaStorageClassAnnotation]
				if !ok {
					class = pv.Spec.StorageClassName
				}
				capacity := pv.Spec.Capacity[corev1.ResourceStorage]
				return []any{capacity.String(), accessModes(pv.Spec.AccessModes), string(pv.Spec.PersistentVolumeReclaimPolicy),
					phase, claim, class, unset(pv.Spec.VolumeAttributesClassName), pv.Status.Reason}
			},
			Wide:      []metav1.TableColumnDefinition{wide(registry.Column("VolumeMode", "string", corev1.PersistentVolumeSpec{}.SwaggerDoc()["volumeMode"]))},
			WideCells: func(o runtime.Object) []any { return []any{volumeMode(o.(*persistentVolume).Spec.VolumeMode)} },
		},
	}
}

func persistentVolumeClaims(typer runtime.ObjectTyper) registry.Resource {
	pvcs := registry.Kind[*persistentVolumeClaim]{
		ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, APIVersion: corev1.SchemeGroupVersion.String(),
		Upstream: upstream.For(persistentvolumeclaim.Strategy),
	}
	return registry.Resource{
		Singular: "persistentvolumeclaim", Plural: "persistentvolumeclaims", ShortNames: []string{"pvc"},
		New:      func() runtime.Object { return &persistentVolumeClaim{} },
		NewList:  func() runtime.Object { return &corev1.PersistentVolumeClaimList{} },
		Strategy: pvcs,
		Status:   registry.StatusOf[*persistentVolumeClaim]{Kind: pvcs, Upstream: upstream.For(persistentvolumeclaim.StatusStrategy)},
		// kubectl get's table, printPersistentVolumeClaim in
		// k8s.io/kubernetes@v1.37.1 pkg/printers/internalversion/printers.go:
		// capacity and access modes only once bound.
		Table: registry.Table{
			Columns: []metav1.TableColumnDefinition{
				registry.Column("Status", "string", corev1.PersistentVolumeClaimStatus{}.SwaggerDoc()["phase"]),
				registry.Column("Volume", "string", corev1.PersistentVolumeClaimSpec{}.SwaggerDoc()["volumeName"]),
				registry.Column("Capacity", "string", corev1.PersistentVolumeClaimStatus{}.SwaggerDoc()["capacity"]),
				registry.Column("Access Modes", "string", corev1.PersistentVolumeClaimStatus{}.SwaggerDoc()["accessModes"]),
				registry.Column("StorageClass", "string", "StorageClass of the pvc"),
				registry.Column("VolumeAttributesClass", "string", "VolumeAttributesClass of the pvc"),
			},
			Cells: func(o runtime.Object) []any {
				pvc := o.(*persistentVolumeClaim)
				phase := string(pvc.Status.Phase)
				if pvc.DeletionTimestamp != nil {
					phase = "Terminating"
				}
				capacity, modes := "", ""
				if pvc.Spec.VolumeName != "" {
					q := pvc.Status.Capacity[corev1.ResourceStorage]
					capacity, modes = q.String(), accessModes(pvc.Status.AccessModes)
				}
				class, ok := pvc.Annotations[corev1.BetaStorageClassAnnotation]
				if !ok && pvc.Spec.StorageClassName != nil {
					class = *pvc.Spec.StorageClassName
				}
				return []any{phase, pvc.Spec.VolumeName, capacity, modes, class, unset(pvc.Spec.VolumeAttributesClassName)}
			},
			Wide:      []metav1.TableColumnDefinition{wide(registry.Column("VolumeMode", "string", corev1.PersistentVolumeClaimSpec{}.SwaggerDoc()["volumeMode"]))},
			WideCells: func(o runtime.Object) []any { return []any{volumeMode(o.(*persistentVolumeClaim).Spec.VolumeMode)} },
		},
	}
}

// accessModes are modes as kubectl abbreviates them, each once, in
// Kubernetes' order (GetAccessModesAsString of k8s.io/kubernetes
// pkg/apis/core/helper).
func accessModes(modes []corev1.PersistentVolumeAccessMode) string {
	out := ""
	for _, m := range []struct {
		mode  corev1.PersistentVolumeAccessMode
		short string
	}{{corev1.ReadWriteOnce, "RWO"}, {corev1.ReadOnlyMany, "ROX"}, {corev1.ReadWriteMany, "RWX"}, {corev1.ReadWriteOncePod, "RWOP"}} {
		if !slices.Contains(modes, m.mode) {
			continue
		}
		if out != "" {
			out += ","
		}
		out += m.short
	}
	return out
}

// unset is *s, or "<unset>".
func unset(s *string) string {
	if s == nil {
		return "<unset>"
	}
	return *s
}

func volumeMode(m *corev1.PersistentVolumeMode) string {
	if m == nil {
		return "<unset>"
	}
	return string(*m)
}
