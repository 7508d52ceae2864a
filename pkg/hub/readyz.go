package hub

import (
	"fmt"
	"net/http"
	"sync/atomic"

	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/server/healthz"
)

// readinessChecker is what has a storage.Interface's ReadinessCheck.
type readinessChecker interface{ ReadinessCheck() error }

// watchCachesReady is the readyz check that every watch cache serving
// requests has filled: those of the built-in stores, and of the custom
// resources defined when the hub started. Until then the caches answer
// 429, so a hub ready before them would send clients that trust /readyz
// into errors. Once ready it stays ready, as kube-apiserver's
// storage-readiness hook does.
func watchCachesReady(stores []*genericregistry.Store, custom readinessChecker) healthz.HealthChecker {
	var ready atomic.Bool
	return healthz.NamedCheck("canopy-watch-caches", func(*http.Request) error {
		if ready.Load() {
			return nil
		}
		for _, s := range stores {
			if err := s.Storage.Storage.ReadinessCheck(); err != nil {
				return fmt.Errorf("the watch cache of %s: %w", s.DefaultQualifiedResource, err)
			}
		}
		if err := custom.ReadinessCheck(); err != nil {
			return err
		}
		ready.Store(true)
		return nil
	})
}
