package hub

import (
	"errors"
	"net/http"
	"sync/atomic"

	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/server/healthz"
)

// installInformers starts the shared informers once the server runs,
// after every controller and plugin asked for its own, and holds /readyz
// until they have listed: until then the admission plugins that read
// them refuse requests.
func (h *hubServer) installInformers() error {
	informers := h.informers
	if err := h.server.AddPostStartHook("canopy-informers", func(ctx genericapiserver.PostStartHookContext) error {
		informers.Start(ctx)
		return nil
	}); err != nil {
		return err
	}
	// Once ready it stays ready: an informer made later, for a custom
	// resource just defined, lists on its own time.
	var ready atomic.Bool
	return h.server.AddReadyzChecks(healthz.NamedCheck("canopy-informers", func(*http.Request) error {
		if !ready.Load() && !informers.HasSynced() {
			return errors.New("the shared informers have not listed every store yet")
		}
		ready.Store(true)
		return nil
	}))
}
