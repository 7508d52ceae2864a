package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel/attribute"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/pkg/otlp"
	"github.com/canopy-dev/canopy/pkg/sync"
)

func main() {
	if err := newCommand().Execute(); err != nil {
		os.Exit(1)
	}
}

func newCommand() *cobra.Command {
	var hubKubeconfig, clusterKubeconfig, target, metricsAddress, otlpEndpoint string
	var hubURLs []string
	var workers int
	var samplingRate int32
	var namespaceGracePeriod, hubResync time.Duration
	cmd := &cobra.Command{
		Use:   "syncer --hub-kubeconfig FILE [--cluster-kubeconfig FILE] --sync-target PATH:NAME",
		Short: "Pull the workloads assigned to a SyncTarget into its physical cluster, and push their status back",
		Long: `Pull the workloads assigned to a SyncTarget into its physical cluster, and push their status back.

A hub object is assigned to the target whose key is K by the label
state.workload.canopy.dev/K=Sync; the target's key is in its status, or
the first 16 hex digits of the SHA-256 of "<logical cluster path>:<name>".

The syncer reads --hub-kubeconfig again every few seconds: a new client
certificate there (hub synctarget rotate) replaces the one in use without a
restart.

With several --hub-url, the syncer connects to the first hub replica that
takes a connection and stays with it; once that one refuses connections, or
takes them and answers nothing, it moves to the next, and its watches resume
there from where they were.`,
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if hubKubeconfig == "" || target == "" {
				return errors.New("--hub-kubeconfig and --sync-target are required")
			}
			if namespaceGracePeriod < 0 {
				return errors.New("--namespace-grace-period must not be negative")
			}
			if hubResync <= 0 {
				return errors.New("--hub-resync must be positive, as 5m")
			}
			if _, _, err := sync.ParseTarget(target); err != nil {
				return err
			}
			hub, credential, err := hubConfig(hubKubeconfig, hubURLs)
			if err != nil {
				return err
			}
			// Without a kubeconfig the syncer runs in its physical
			// cluster, as the manifest of hub synctarget create runs it.
			cluster, err := clientcmd.BuildConfigFromFlags("", clusterKubeconfig)
			if err != nil {
				return fmt.Errorf("the physical cluster: %w", err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			go credential.watch(ctx, credentialPollInterval)
			tracerProvider, err := otlp.NewTracerProvider(ctx, otlpEndpoint, samplingRate, "canopy-syncer", attribute.String("canopy.sync_target", target))
			if err != nil {
				return err
			}
			defer func() {
				// The spans still batched go out before the syncer exits.
				flush, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				if err := tracerProvider.Shutdown(flush); err != nil {
					klog.ErrorS(err, "Sending the last spans")
				}
			}()
			if metricsAddress != "0" {
				if err := serveMetrics(ctx, metricsAddress); err != nil {
					return err
				}
			}
			if err := startTunnel(ctx, hub, cluster, target); err != nil {
				return err
			}
			s, err := sync.New(ctx, sync.Config{Hub: hub, Cluster: cluster, Target: target, NamespaceGracePeriod: namespaceGracePeriod, HubResync: hubResync, TracerProvider: tracerProvider})
			if err != nil {
				return err
			}
			return s.Run(ctx, workers)
		},
	}
	cmd.Flags().StringVar(&hubKubeconfig, "hub-kubeconfig", "", "kubeconfig of the hub; its server may address any logical cluster")
	cmd.Flags().StringArrayVar(&hubURLs, "hub-url", nil, "https://host:port of a hub replica, repeated for each, tried in order; unset means the server of --hub-kubeconfig, "+
		"whose name each replica's serving certificate must hold too (hub start --tls-san)")
	cmd.Flags().StringVar(&clusterKubeconfig, "cluster-kubeconfig", "", "kubeconfig of the physical cluster; unset means the cluster the syncer runs in")
	cmd.Flags().StringVar(&target, "sync-target", "", "the SyncTarget, as <logical cluster path>:<name>, e.g. root:platform:pc1")
	cmd.Flags().DurationVar(&namespaceGracePeriod, "namespace-grace-period", sync.DefaultNamespaceGracePeriod, "how long a downstream namespace the syncer made stays once nothing it synced is left in it")
	cmd.Flags().DurationVar(&hubResync, "hub-resync", sync.DefaultHubResync, "how often every assigned hub object is looked at again, which bounds how stale a dependency not assigned itself may be downstream")
	cmd.Flags().IntVar(&workers, "workers", 2, "objects synced at once in each direction")
	cmd.Flags().StringVar(&metricsAddress, "metrics-bind-address", ":8080", "host:port to serve Prometheus metrics on, at /metrics, and /healthz; 0 serves neither")
	cmd.Flags().StringVar(&otlpEndpoint, "otlp-endpoint", "", "host:port of an OTLP/gRPC collector (plaintext) to send a trace of each sync to, with its requests to the hub and the physical cluster; unset means no tracing")
	cmd.Flags().Int32Var(&samplingRate, "tracing-sampling-rate-per-million", 1000000, "with --otlp-endpoint, how many syncs in a million to trace")
	klogFlags := flag.NewFlagSet("klog", flag.ExitOnError)
	klog.InitFlags(klogFlags)
	cmd.Flags().AddGoFlagSet(klogFlags)
	cmd.SetContext(context.Background())
	return cmd
}
