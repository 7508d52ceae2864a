package core

import (
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

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

func validateSecretUpdate(s, old *corev1.Secret) field.ErrorList {
	errs := apivalidation.ValidateImmutableField(s.Type, old.Type, field.NewPath("type"))
	return append(errs, validateImmutable(old.Immutable, s.Immutable, old.Data, s.Data)...)
}

func validateSecret(s *corev1.Secret) field.ErrorList {
	data := field.NewPath("data")
	errs := validateDataKeys(byteSizes("data", s.Data))
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
