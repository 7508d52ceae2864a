package customresource

import (
	"errors"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/klog/v2"
)

// warm makes the storage of every group resource that objs, the
// definitions of every logical cluster as first listed, define, so that
// their watch caches fill before the hub says it is ready, rather than at
// the first request for each, which would be answered 429 meanwhile.
func (h *Handler) warm(objs []runtime.Object) {
	h.readiness.Lock()
	defer h.readiness.Unlock()
	if h.readiness.warmed != nil {
		return
	}
	warmed := map[schema.GroupResource]storage.Interface{}
	for _, obj := range objs {
		crd, ok := obj.(*apiextensions.CustomResourceDefinition)
		if !ok || !named(crd) {
			continue
		}
		gr := resourceOf(crd)
		s, err := h.catalog.storage(gr)
		if err != nil {
			klog.ErrorS(err, "Making the storage of a defined resource", "resource", gr)
			continue
		}
		warmed[gr] = s
	}
	h.readiness.warmed = warmed
}

// ReadinessCheck is nil once the definitions of every logical cluster
// were listed and the watch cache of each group resource they defined
// then is ready. Once ready it stays so: the caches of resources defined
// later fill while their first requests wait.
func (h *Handler) ReadinessCheck() error {
	h.readiness.Lock()
	defer h.readiness.Unlock()
	if h.readiness.ready {
		return nil
	}
	if h.readiness.warmed == nil {
		return errors.New("the CustomResourceDefinitions of the logical clusters are not listed yet")
	}
	for gr, s := range h.readiness.warmed {
		if err := s.ReadinessCheck(); err != nil {
			return fmt.Errorf("the watch cache of %s: %w", gr, err)
		}
	}
	h.readiness.ready = true
	return nil
}
