package core

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// internalVersion is the core group's internal version, which here is the
// v1 Go types under another name.
var internalVersion = schema.GroupVersion{Group: corev1.GroupName, Version: runtime.APIVersionInternal}

// served are the kinds this package serves, with their lists.
var served = []runtime.Object{
	&corev1.Namespace{}, &corev1.NamespaceList{},
	&corev1.ConfigMap{}, &corev1.ConfigMapList{},
	&corev1.Secret{}, &corev1.SecretList{},
}

// AddToScheme registers core/v1 and, for the served kinds, the same Go
// types as the internal version.
func AddToScheme(s *runtime.Scheme) error {
	if err := corev1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, served...)
	return s.SetVersionPriority(corev1.SchemeGroupVersion)
}
