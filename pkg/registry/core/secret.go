package core

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	k8s_api_v1 "github.com/canopy-dev/canopy/third_party/kubernetes/pkg/apis/core/v1"
)

// addSecretDecoding makes s give every Secret it decodes what
// kube-apiserver's decoding to its internal version gives it: upstream's
// defaults, then stringData merged into data, which the internal type has
// alone (k8s.io/kubernetes@v1.37.1 pkg/apis/core/v1/conversion.go,
// Convert_v1_Secret_To_core_Secret). The hub's internal version is v1
// itself, so no conversion runs; the defaulter is the step every write
// takes before anything reads the object (its managedFields, admission,
// the strategy), as kube's conversion is. Without it a Secret's
// managedFields named stringData where kube's name data, and a
// server-side apply of the keys an earlier create set conflicted.
func addSecretDecoding(s *runtime.Scheme) {
	s.AddTypeDefaultingFunc(&corev1.Secret{}, func(obj any) { decodeSecret(obj.(*corev1.Secret)) })
}

func decodeSecret(secret *corev1.Secret) {
	k8s_api_v1.SetObjectDefaults_Secret(secret)
	if len(secret.StringData) == 0 {
		return
	}
	if secret.Data == nil {
		secret.Data = make(map[string][]byte, len(secret.StringData))
	}
	// stringData wins over data, key by key, as upstream's conversion has it.
	for k, v := range secret.StringData {
		secret.Data[k] = []byte(v)
	}
	secret.StringData = nil
}
