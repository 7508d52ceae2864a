package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/klog/v2"

	// The work queues' depth, latency and retries, and the REST clients'
	// requests, as series of the same registry.
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/workqueue"
)

// serveMetrics serves the legacy registry's metrics at /metrics on
// address, and /healthz, until ctx ends. It fails at once if address
// cannot be listened on, rather than run unobserved.
func serveMetrics(ctx context.Context, address string) error {
	l, err := net.Listen("tcp", address)
	if err != nil {
		return fmt.Errorf("--metrics-bind-address: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", legacyregistry.Handler())
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("ok"))
	})
	server := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := server.Serve(l); !errors.Is(err, http.ErrServerClosed) {
			klog.ErrorS(err, "Serving metrics")
		}
	}()
	go func() {
		<-ctx.Done()
		_ = server.Close()
	}()
	klog.InfoS("Serving metrics", "address", l.Addr().String())
	return nil
}
