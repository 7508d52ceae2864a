package core

import (
	authenticationv1 "k8s.io/api/authentication/v1"
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
	&corev1.ServiceAccount{}, &corev1.ServiceAccountList{},
	&corev1.Pod{}, &corev1.PodList{},
	&corev1.Node{}, &corev1.NodeList{},
	&corev1.PodTemplate{}, &corev1.PodTemplateList{},
	&corev1.Service{}, &corev1.ServiceList{},
	&corev1.Endpoints{}, &corev1.EndpointsList{},
	&corev1.Event{}, &corev1.EventList{},
	&corev1.LimitRange{}, &corev1.LimitRangeList{},
	&corev1.ResourceQuota{}, &corev1.ResourceQuotaList{},
	&corev1.ReplicationController{}, &corev1.ReplicationControllerList{},
	&corev1.PersistentVolume{}, &corev1.PersistentVolumeList{},
	&corev1.PersistentVolumeClaim{}, &corev1.PersistentVolumeClaimList{},
}

// authenticationInternalVersion is the internal version of
// authentication.k8s.io, the group of the TokenRequests that
// serviceaccounts/token takes.
var authenticationInternalVersion = schema.GroupVersion{Group: authenticationv1.GroupName, Version: runtime.APIVersionInternal}

// AddToScheme registers core/v1 and authentication.k8s.io/v1 and, for the
// served kinds and TokenRequests, the same Go types as the internal
// versions, the defaults the decoder fills in (a Secret's stringData
// merged into its data), and the fields lists and watches select by.
func AddToScheme(s *runtime.Scheme) error {
	if err := corev1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(internalVersion, served...)
	addSecretDecoding(s)
	if err := addFieldLabelConversions(s); err != nil {
		return err
	}
	if err := s.SetVersionPriority(corev1.SchemeGroupVersion); err != nil {
		return err
	}
	if err := authenticationv1.AddToScheme(s); err != nil {
		return err
	}
	s.AddKnownTypes(authenticationInternalVersion, &authenticationv1.TokenRequest{})
	return s.SetVersionPriority(authenticationv1.SchemeGroupVersion)
}
