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

// Syncer is the syncer of one physical cluster.
type Syncer struct {
	*proc.Process
	Cluster *pcluster.Cluster
}

// StartSyncer registers SyncTarget pc.Name in root, with labels (each
// key=value), with hub synctarget create and runs its syncer as a local
// process, with the hub kubeconfig of the manifest that command printed,
// its log in logDir. The hub scopes the credential itself, so no logical
// cluster needs naming.
func StartSyncer(ctx context.Context, tb testing.TB, h *proc.Hub, hubBin, syncerBin string, pc *pcluster.Cluster, logDir string, labels ...string) *Syncer {
	tb.Helper()
	args := []string{"synctarget", "create", pc.Name, "--logical-cluster", "root", "--data-dir", h.DataDir, "--hub-url", h.URL()}
	for _, l := range labels {
		args = append(args, "--label", l)
	}
	create := exec.CommandContext(ctx, hubBin, args...)
	var stdout, stderr bytes.Buffer
	create.Stdout, create.Stderr = &stdout, &stderr
	if err := create.Run(); err != nil {
		tb.Fatalf("hub synctarget create %s: %v\n%s", pc.Name, err, stderr.String())
	}
	kubeconfig, err := syncerdeploy.HubKubeconfig(stdout.Bytes())
	if err != nil {
		tb.Fatalf("the manifest of hub synctarget create %s: %v", pc.Name, err)
	}
	// It holds the syncer's private key: not kept with the logs.
	path := filepath.Join(tb.TempDir(), "hub.kubeconfig")
	if err := os.WriteFile(path, kubeconfig, 0o600); err != nil {
		tb.Fatal(err)
	}
	p := proc.Start(tb, filepath.Join(logDir, "syncer-"+pc.Name+".log"), syncerBin,
		"--hub-kubeconfig", path, "--cluster-kubeconfig", pc.Kubeconfig, "--sync-target", "root:"+pc.Name,
		// Several syncers share this machine: each serves its metrics on
		// a port of its own.
		"--metrics-bind-address", "127.0.0.1:0")
	return &Syncer{Process: p, Cluster: pc}
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
	tb.Fatalf("the syncer of %s is not ready after %v:\n%s", s.Cluster.Name, ReadyTimeout, s.LogTail())
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
