package apiextensions

import (
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// AddToScheme registers apiextensions.k8s.io/v1 and its internal version,
// which upstream's strategy and validation work on, with the conversions
// and defaults between them. v1beta1 is left out: the hub serves v1 only.
func AddToScheme(s *runtime.Scheme) error {
	if err := apiextensions.AddToScheme(s); err != nil {
		return err
	}
	if err := apiextensionsv1.AddToScheme(s); err != nil {
		return err
	}
	return s.SetVersionPriority(apiextensionsv1.SchemeGroupVersion)
}
