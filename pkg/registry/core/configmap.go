package core

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func validateConfigMap(cm *corev1.ConfigMap) field.ErrorList {
	return validateDataKeys(stringSizes("data", cm.Data), byteSizes("binaryData", cm.BinaryData))
}

func validateConfigMapUpdate(cm, old *corev1.ConfigMap) field.ErrorList {
	return validateImmutable(old.Immutable, cm.Immutable, []any{old.Data, old.BinaryData}, []any{cm.Data, cm.BinaryData})
}
