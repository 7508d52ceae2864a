package namespacedefaults

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// DefaultServiceAccount is the ServiceAccount of every namespace, which a
// pod naming none runs as.
const DefaultServiceAccount = "default"

// NewServiceAccounts keeps the ServiceAccount "default" in every Active
// namespace, as kube's serviceaccounts controller does: made when
// missing, and otherwise left as its users made it.
func NewServiceAccounts(c Config) *Ensurer {
	return newEnsurer("serviceaccounts", c, object{
		name:     DefaultServiceAccount,
		resource: corev1.SchemeGroupVersion.WithResource("serviceaccounts"),
		want: func() runtime.Object {
			return &corev1.ServiceAccount{
				TypeMeta:   metav1.TypeMeta{APIVersion: corev1.SchemeGroupVersion.String(), Kind: "ServiceAccount"},
				ObjectMeta: metav1.ObjectMeta{Name: DefaultServiceAccount},
			}
		},
	})
}
