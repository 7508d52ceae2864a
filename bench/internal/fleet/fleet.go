package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"github.com/canopy-dev/canopy/bench/internal/proc"
	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/syncerdeploy"
)

// Clusters are physical clusters starting in the background, while the
// hub starts.
type Clusters struct {
	done     chan struct{}
	clusters []*pcluster.Cluster
	errs     []error
}

// startTimeout bounds starting the physical clusters side by side.
const startTimeout = 5 * time.Minute

// StartClusters starts physical clusters of the given names, of nodes
// kwok nodes each (<name>-0, <name>-1, …), their state under dir, and
// stops them when tb ends.
func StartClusters(ctx context.Context, tb testing.TB, dir string, names []string, nodes int) *Clusters {
	// A run killed before its cleanups left its clusters here.
	StopClusters(tb, dir)
	cs := &Clusters{done: make(chan struct{}), clusters: make([]*pcluster.Cluster, len(names)), errs: make([]error, len(names))}
	tb.Cleanup(func() {
		<-cs.done
		StopClusters(tb, dir)
	})
	go func() {
		defer close(cs.done)
		ctx, cancel := context.WithTimeout(ctx, startTimeout)
		defer cancel()
		var wg sync.WaitGroup
		for i, name := range names {
			var opts pcluster.Options
			for j := range nodes {
				opts.Nodes = append(opts.Nodes, pcluster.Node{Name: fmt.Sprintf("%s-%d", name, j)})
			}
			wg.Go(func() { cs.clusters[i], cs.errs[i] = pcluster.Create(ctx, dir, name, opts) })
		}
		wg.Wait()
	}()
	return cs
}

// Wait returns the clusters once all have started.
func (cs *Clusters) Wait(tb testing.TB) []*pcluster.Cluster {
	tb.Helper()
	<-cs.done
	if err := errors.Join(cs.errs...); err != nil {
		tb.Fatalf("starting the physical clusters: %v", err)
	}
	return cs.clusters
}

// StopClusters stops every physical cluster under dir and removes it.
func StopClusters(tb testing.TB, dir string) {
	names, err := pcluster.Names(dir)
	if err != nil {
		tb.Errorf("physical clusters under %s: %v", dir, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, name := range names {
		if err := pcluster.Stop(ctx, dir, name); err != nil {
			tb.Errorf("stopping physical cluster %s: %v", name, err)
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		tb.Errorf("removing %s: %v", dir, err)
	}
}

// Options are what Start starts.
type Options struct {
	// Out is the directory of the logs and, under clusters/, the
	// physical clusters' state.
	Out string
	// Clusters are the physical clusters' names, of Nodes kwok nodes
	// each.
	Clusters []string
	Nodes    int
	// Targets are the SyncTargets' names, in root, target t on physical
	// cluster t mod len(Clusters); none is one per cluster, of its name.
	Targets []string
	// Labels are every SyncTarget's, each key=value.
	Labels []string
	// EnvHub and EnvSyncer name environment variables of prebuilt
	// binaries; unset, cmd/hub and cmd/syncer are built.
	EnvHub, EnvSyncer string
	// HubFlags are more flags of hub start.
	HubFlags []string
}

// Fleet is a hub on a throwaway PostgreSQL database, physical clusters,
// and a syncer of each SyncTarget registered on them, every syncer
// ready.
type Fleet struct {
	Hub      *proc.Hub
	HubBin   string
	Clusters []*pcluster.Cluster
	Syncers  []*Syncer
	// Logs are the hub's log and each syncer's.
	Logs []string
}

// Start starts a fleet as o says: the physical clusters in the
// background while the hub starts, then each target's syncer. It
// stops all when tb ends.
func Start(ctx context.Context, tb testing.TB, o Options) *Fleet {
	tb.Helper()
	logf := proc.Logger("fleet")
	logf("starting %d physical clusters of %d kwok nodes each", len(o.Clusters), o.Nodes)
	clusters := StartClusters(ctx, tb, filepath.Join(o.Out, "clusters"), o.Clusters, o.Nodes)
	f := &Fleet{HubBin: proc.Binary(tb, o.EnvHub, "github.com/canopy-dev/canopy/cmd/hub")}
	syncerBin := proc.Binary(tb, o.EnvSyncer, "github.com/canopy-dev/canopy/cmd/syncer")
	f.Hub = proc.StartHub(tb, f.HubBin, pgtest.Start(tb).NewDatabase(tb), filepath.Join(o.Out, "hub.log"), o.HubFlags...)
	logf("hub ready at %s (log %s)", f.Hub.URL(), f.Hub.LogPath)
	f.Clusters = clusters.Wait(tb)
	logf("%d physical clusters ready", len(f.Clusters))
	targets := o.Targets
	if len(targets) == 0 {
		targets = o.Clusters
	}
	f.Logs = []string{f.Hub.LogPath}
	for t, target := range targets {
		s := StartTarget(ctx, tb, f.Hub, f.HubBin, syncerBin, f.Clusters[t%len(f.Clusters)], target, o.Out, o.Labels...)
		f.Syncers = append(f.Syncers, s)
		f.Logs = append(f.Logs, s.LogPath)
	}
	for _, s := range f.Syncers {
		s.WaitReady(ctx, tb)
	}
	logf("%d syncers ready", len(f.Syncers))
	return f
}

// Syncer is the syncer of one SyncTarget on a physical cluster.
type Syncer struct {
	*proc.Process
	Cluster *pcluster.Cluster
	// Target is the SyncTarget's name, in root.
	Target string
}

// StartSyncer registers SyncTarget pc.Name in root, with labels (each
// key=value), with hub synctarget create and runs its syncer as a local
// process, with the hub kubeconfig of the manifest that command printed,
// its log in logDir. The hub scopes the credential itself, so no logical
// cluster needs naming.
func StartSyncer(ctx context.Context, tb testing.TB, h *proc.Hub, hubBin, syncerBin string, pc *pcluster.Cluster, logDir string, labels ...string) *Syncer {
	tb.Helper()
	return StartTarget(ctx, tb, h, hubBin, syncerBin, pc, pc.Name, logDir, labels...)
}

// StartTarget is StartSyncer for SyncTarget target, one of several that
// may share physical cluster pc, each syncing into namespaces of its own.
func StartTarget(ctx context.Context, tb testing.TB, h *proc.Hub, hubBin, syncerBin string, pc *pcluster.Cluster, target, logDir string, labels ...string) *Syncer {
	tb.Helper()
	args := []string{"synctarget", "create", target, "--logical-cluster", "root", "--data-dir", h.DataDir, "--hub-url", h.URL()}
	for _, l := range labels {
		args = append(args, "--label", l)
	}
	create := exec.CommandContext(ctx, hubBin, args...)
	var stdout, stderr bytes.Buffer
	create.Stdout, create.Stderr = &stdout, &stderr
	if err := create.Run(); err != nil {
		tb.Fatalf("hub synctarget create %s: %v\n%s", target, err, stderr.String())
	}
	kubeconfig, err := syncerdeploy.HubKubeconfig(stdout.Bytes())
	if err != nil {
		tb.Fatalf("the manifest of hub synctarget create %s: %v", target, err)
	}
	// It holds the syncer's private key: not kept with the logs.
	path := filepath.Join(tb.TempDir(), "hub.kubeconfig")
	if err := os.WriteFile(path, kubeconfig, 0o600); err != nil {
		tb.Fatal(err)
	}
	p := proc.Start(tb, filepath.Join(logDir, "syncer-"+target+".log"), syncerBin,
		"--hub-kubeconfig", path, "--cluster-kubeconfig", pc.Kubeconfig, "--sync-target", "root:"+target,
		// Several syncers share this machine: each serves its metrics on
		// a port of its own.
		"--metrics-bind-address", "127.0.0.1:0")
	return &Syncer{Process: p, Cluster: pc, Target: target}
}

// ReadyTimeout bounds a syncer's start, up to its informers' first lists.
const ReadyTimeout = 2 * time.Minute

// WaitReady waits until the syncer's informers have listed everything.
func (s *Syncer) WaitReady(ctx context.Context, tb testing.TB) {
	tb.Helper()
	for deadline := time.Now().Add(ReadyTimeout); time.Now().Before(deadline); {
		if strings.Contains(s.Log(), "Syncer ready") {
			return
		}
		select {
		case <-ctx.Done():
			tb.Fatalf("interrupted: %v", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
	tb.Fatalf("the syncer of %s is not ready after %v:\n%s", s.Target, ReadyTimeout, s.LogTail())
}

// Deployment is Deployment name in namespace with replicas, and labels,
// whose pods kwok runs without pulling an image.
func Deployment(name, namespace string, replicas int, labels map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   map[string]any{"name": name, "namespace": namespace, "labels": labels},
		"spec": map[string]any{
			"replicas": int64(replicas),
			"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": name}},
				"spec": map[string]any{"containers": []any{map[string]any{
					// kwok runs no image: the name need not resolve.
					"name": "web", "image": "registry.invalid/web:1",
				}}},
			},
		},
	}}
}

// Downstream is an informer, started until ctx ends, of the objects of
// resource gvr that syncers made in physical cluster pc.
func Downstream(ctx context.Context, pc *pcluster.Cluster, gvr schema.GroupVersionResource) (cache.SharedIndexInformer, error) {
	client, err := dynamic.NewForConfig(pc.Config)
	if err != nil {
		return nil, err
	}
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, metav1.NamespaceAll, func(o *metav1.ListOptions) {
		o.LabelSelector = workloadv1alpha1.TargetKeyLabel
	})
	informer := f.ForResource(gvr).Informer()
	f.Start(ctx.Done())
	return informer, nil
}
