package apiextensions

import (
	"crypto/sha256"
	"encoding/json"
	"unsafe"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/canopy-dev/canopy/pkg/registry"
)

// A definition installed in many logical clusters is one object in each,
// which the watch cache holds decoded: the schemas of its spec, the field
// sets of its managedFields and, when kubectl applied it, the whole
// definition again in an annotation. The tables below make those one copy
// in memory however many logical clusters hold them, so that an
// installation of a known definition costs little more than its metadata
// and status.
var (
	sharedVersions     = registry.NewShared[apiextensions.CustomResourceDefinitionVersion]()
	sharedValidations  = registry.NewShared[apiextensions.CustomResourceValidation]()
	sharedSubresources = registry.NewShared[apiextensions.CustomResourceSubresources]()
	sharedColumns      = registry.NewShared[apiextensions.CustomResourceColumnDefinition]()
	sharedConversions  = registry.NewShared[apiextensions.CustomResourceConversion]()
	sharedBytes        = registry.NewShared[byte]()
)

// largeAnnotation is the size from which an annotation's value is shared:
// smaller ones cost less than their key in the table.
const largeAnnotation = 512

// Sharing makes equal parts of the definitions the watch cache keeps one
// copy in memory.
func (strategy) Sharing() func(runtime.Object) {
	return func(obj runtime.Object) {
		if crd, ok := obj.(*apiextensions.CustomResourceDefinition); ok {
			share(crd)
		}
	}
}

// preserve and prune are what spec.preserveUnknownFields points to.
var preserve, prune = true, false

func share(crd *apiextensions.CustomResourceDefinition) {
	// Conversion from v1 points preserveUnknownFields into the decoded v1
	// object, which would keep all of that alive beside the internal one.
	if p := crd.Spec.PreserveUnknownFields; p != nil {
		if *p {
			crd.Spec.PreserveUnknownFields = &preserve
		} else {
			crd.Spec.PreserveUnknownFields = &prune
		}
	}
	if encoded, err := json.Marshal(&crd.Spec); err == nil {
		sum := sha256.Sum256(encoded)
		key := string(sum[:])
		s := &crd.Spec
		s.Versions = sharedVersions.Slice(key, s.Versions)
		s.AdditionalPrinterColumns = sharedColumns.Slice(key, s.AdditionalPrinterColumns)
		if s.Validation != nil {
			s.Validation = sharedValidations.Pointer(key, s.Validation)
		}
		if s.Subresources != nil {
			s.Subresources = sharedSubresources.Pointer(key, s.Subresources)
		}
		if s.Conversion != nil {
			s.Conversion = sharedConversions.Pointer(key, s.Conversion)
		}
	}
	for _, m := range crd.ManagedFields {
		if m.FieldsV1 != nil {
			m.FieldsV1.Raw = shareBytes(m.FieldsV1.Raw)
		}
	}
	for k, v := range crd.Annotations {
		if len(v) >= largeAnnotation {
			b := shareBytes([]byte(v))
			crd.Annotations[k] = unsafe.String(&b[0], len(b))
		}
	}
}

// shareBytes is the copy of b the table holds, by its content's hash.
func shareBytes(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	sum := sha256.Sum256(b)
	return sharedBytes.Slice(string(sum[:]), b)
}
