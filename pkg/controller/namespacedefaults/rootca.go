package namespacedefaults

import (
	"maps"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The ConfigMap the root CA is published in, its key, and the annotation
// that says what it is for, as kube's root-ca-cert-publisher
// (pkg/controller/certificates/rootcacertpublisher, v1.37.1) names them.
const (
	RootCACertConfigMap   = "kube-root-ca.crt"
	RootCACertKey         = "ca.crt"
	DescriptionAnnotation = "kubernetes.io/description"
	description           = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. " +
		"No other usage is guaranteed across distributions of Kubernetes clusters."
)

// NewRootCAPublisher keeps the ConfigMap "kube-root-ca.crt" in every
// Active namespace, holding caPEM, the CA that signs the hub's serving
// certificates, under "ca.crt", as kube's root-ca-cert-publisher does:
// made when missing, and its data and description put back when edited.
func NewRootCAPublisher(c Config, caPEM []byte) *Ensurer {
	data := map[string]string{RootCACertKey: string(caPEM)}
	return newEnsurer("root-ca-cert-publisher", c, object{
		name:     RootCACertConfigMap,
		resource: corev1.SchemeGroupVersion.WithResource("configmaps"),
		want: func() runtime.Object {
			return &corev1.ConfigMap{
				TypeMeta: metav1.TypeMeta{APIVersion: corev1.SchemeGroupVersion.String(), Kind: "ConfigMap"},
				ObjectMeta: metav1.ObjectMeta{
					Name:        RootCACertConfigMap,
					Annotations: map[string]string{DescriptionAnnotation: description},
				},
				Data: maps.Clone(data),
			}
		},
		repair: func(have runtime.Object) (runtime.Object, bool) {
			cm, differs := repairRootCA(have.(*corev1.ConfigMap), data)
			return cm, differs
		},
	})
}

// repairRootCA is cm with data and a description, and whether that
// differs from cm. As upstream, any description will do, and keys other
// than data's are removed; the rest of cm, labels and binaryData among
// it, is its users'.
func repairRootCA(cm *corev1.ConfigMap, data map[string]string) (*corev1.ConfigMap, bool) {
	if maps.Equal(cm.Data, data) && cm.Annotations[DescriptionAnnotation] != "" {
		return cm, false
	}
	cm = cm.DeepCopy()
	cm.TypeMeta = metav1.TypeMeta{APIVersion: corev1.SchemeGroupVersion.String(), Kind: "ConfigMap"}
	cm.Data = maps.Clone(data)
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[DescriptionAnnotation] = description
	return cm, true
}
