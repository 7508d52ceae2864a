package core

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"
)

type configMapStrategy struct {
	runtime.ObjectTyper
	names.NameGenerator
}

func (configMapStrategy) NamespaceScoped() bool                                            { return true }
func (configMapStrategy) PrepareForCreate(context.Context, runtime.Object)                 {}
func (configMapStrategy) PrepareForUpdate(context.Context, runtime.Object, runtime.Object) {}
func (configMapStrategy) Canonicalize(runtime.Object)                                      {}
func (configMapStrategy) AllowCreateOnUpdate(context.Context) bool                         { return false }
func (configMapStrategy) AllowUnconditionalUpdate(context.Context) bool                    { return true }
func (configMapStrategy) WarningsOnCreate(context.Context, runtime.Object) []string        { return nil }
func (configMapStrategy) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}

func (configMapStrategy) Validate(_ context.Context, obj runtime.Object) field.ErrorList {
	return validateConfigMap(obj.(*corev1.ConfigMap))
}

func (configMapStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	cm, oldCM := obj.(*corev1.ConfigMap), old.(*corev1.ConfigMap)
	errs := apivalidation.ValidateObjectMetaUpdate(&cm.ObjectMeta, &oldCM.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, validateImmutable(oldCM.Immutable, cm.Immutable,
		[]any{oldCM.Data, oldCM.BinaryData}, []any{cm.Data, cm.BinaryData})...)
	return append(errs, validateConfigMap(cm)...)
}

func validateConfigMap(cm *corev1.ConfigMap) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&cm.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateDataKeys(stringSizes("data", cm.Data), byteSizes("binaryData", cm.BinaryData))...)
}
