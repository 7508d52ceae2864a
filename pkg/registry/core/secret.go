package core

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/storage/names"
)

type secretStrategy struct {
	runtime.ObjectTyper
	names.NameGenerator
}

func (secretStrategy) NamespaceScoped() bool                         { return true }
func (secretStrategy) Canonicalize(runtime.Object)                   {}
func (secretStrategy) AllowCreateOnUpdate(context.Context) bool      { return false }
func (secretStrategy) AllowUnconditionalUpdate(context.Context) bool { return true }
func (secretStrategy) WarningsOnCreate(context.Context, runtime.Object) []string {
	return nil
}
func (secretStrategy) WarningsOnUpdate(context.Context, runtime.Object, runtime.Object) []string {
	return nil
}

func (secretStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	normalizeSecret(obj.(*corev1.Secret))
}

func (secretStrategy) PrepareForUpdate(_ context.Context, obj, _ runtime.Object) {
	normalizeSecret(obj.(*corev1.Secret))
}

// normalizeSecret does what Kubernetes does while converting a v1 Secret
// to its internal version: stringData is write-only and wins over data.
func normalizeSecret(s *corev1.Secret) {
	if len(s.StringData) > 0 && s.Data == nil {
		s.Data = make(map[string][]byte, len(s.StringData))
	}
	for k, v := range s.StringData {
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
	if s.Type == "" {
		s.Type = corev1.SecretTypeOpaque
	}
}

func (secretStrategy) Validate(_ context.Context, obj runtime.Object) field.ErrorList {
	return validateSecret(obj.(*corev1.Secret))
}

func (secretStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) field.ErrorList {
	s, oldS := obj.(*corev1.Secret), old.(*corev1.Secret)
	errs := apivalidation.ValidateObjectMetaUpdate(&s.ObjectMeta, &oldS.ObjectMeta, field.NewPath("metadata"))
	errs = append(errs, apivalidation.ValidateImmutableField(s.Type, oldS.Type, field.NewPath("type"))...)
	errs = append(errs, validateImmutable(oldS.Immutable, s.Immutable, oldS.Data, s.Data)...)
	return append(errs, validateSecret(s)...)
}

func validateSecret(s *corev1.Secret) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&s.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	data := field.NewPath("data")
	errs = append(errs, validateDataKeys(byteSizes("data", s.Data))...)
	require := func(keys ...string) {
		for _, k := range keys {
			if _, ok := s.Data[k]; !ok {
				errs = append(errs, field.Required(data.Key(k), ""))
			}
		}
	}
	// The well-known types promise consumers certain keys; Kubernetes
	// enforces the same ones.
	switch s.Type {
	case corev1.SecretTypeServiceAccountToken:
		if s.Annotations[corev1.ServiceAccountNameKey] == "" {
			errs = append(errs, field.Required(field.NewPath("metadata", "annotations").Key(corev1.ServiceAccountNameKey), ""))
		}
	case corev1.SecretTypeDockercfg:
		require(corev1.DockerConfigKey)
		errs = append(errs, validateJSON(data.Key(corev1.DockerConfigKey), s.Data[corev1.DockerConfigKey])...)
	case corev1.SecretTypeDockerConfigJson:
		require(corev1.DockerConfigJsonKey)
		errs = append(errs, validateJSON(data.Key(corev1.DockerConfigJsonKey), s.Data[corev1.DockerConfigJsonKey])...)
	case corev1.SecretTypeBasicAuth:
		_, user := s.Data[corev1.BasicAuthUsernameKey]
		_, pass := s.Data[corev1.BasicAuthPasswordKey]
		if !user && !pass {
			errs = append(errs, field.Required(data.Key(corev1.BasicAuthUsernameKey), "either username or password is required"))
		}
	case corev1.SecretTypeSSHAuth:
		require(corev1.SSHAuthPrivateKey)
	case corev1.SecretTypeTLS:
		require(corev1.TLSCertKey, corev1.TLSPrivateKeyKey)
	}
	return errs
}

func validateJSON(p *field.Path, value []byte) field.ErrorList {
	if value != nil && !json.Valid(value) {
		return field.ErrorList{field.Invalid(p, "<secret contents redacted>", "must be valid JSON")}
	}
	return nil
}
