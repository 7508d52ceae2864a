package syncer

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/canopy-dev/canopy/bench/internal/proc"
	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// clusterStart are the physical clusters starting in the background while
// the hub starts.
type clusterStart struct {
	done     chan struct{}
	clusters []*pcluster.Cluster
	errs     []error
}

// clusterStartTimeout bounds starting the physical clusters side by side.
const clusterStartTimeout = 5 * time.Minute

// startClusters starts physical clusters pc1..pcN of nodes nodes each,
// their state under dir, and stops them when b ends.
func startClusters(ctx context.Context, b *testing.B, dir string, n, nodes int) *clusterStart {
	// A run killed before its cleanups left its clusters here.
	stopClusters(b, dir)
	cs := &clusterStart{done: make(chan struct{}), clusters: make([]*pcluster.Cluster, n), errs: make([]error, n)}
	b.Cleanup(func() {
		<-cs.done
		stopClusters(b, dir)
	})
	logf("starting %d physical clusters of %d kwok nodes each", n, nodes)
	go func() {
		defer close(cs.done)
		ctx, cancel := context.WithTimeout(ctx, clusterStartTimeout)
		defer cancel()
		var wg sync.WaitGroup
		for i := range n {
			name := targetName(i)
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

// wait returns the clusters once all have started.
func (cs *clusterStart) wait(b *testing.B) []*pcluster.Cluster {
	<-cs.done
	if err := errors.Join(cs.errs...); err != nil {
		b.Fatalf("starting the physical clusters: %v", err)
	}
	logf("%d physical clusters ready", len(cs.clusters))
	return cs.clusters
}

// stopClusters stops every physical cluster under dir and removes it.
func stopClusters(b *testing.B, dir string) {
	names, err := pcluster.Names(dir)
	if err != nil {
		b.Errorf("physical clusters under %s: %v", dir, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, name := range names {
		if err := pcluster.Stop(ctx, dir, name); err != nil {
			b.Errorf("stopping physical cluster %s: %v", name, err)
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		b.Errorf("removing %s: %v", dir, err)
	}
}

// createLogicalClusters makes logical clusters root:lc-0..n-1, each with
// namespace app, and returns their paths.
func (hc *hubClients) createLogicalClusters(ctx context.Context, b *testing.B, n int) []string {
	paths := make([]string, n)
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range next {
				paths[i] = fmt.Sprintf("root:lc-%d", i)
				errs[i] = hc.createLogicalCluster(ctx, b, fmt.Sprintf("lc-%d", i))
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		b.Fatalf("%v\nhub log tail:\n%s", err, hc.h.LogTail())
	}
	return paths
}

// readyTimeout bounds a logical cluster's way to Ready and serving.
const readyTimeout = 2 * time.Minute

// createLogicalCluster makes logical cluster root:name and, once it is
// Ready, namespace app in it.
func (hc *hubClients) createLogicalCluster(ctx context.Context, b *testing.B, name string) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	lcs := hc.root.Resource(lcResource)
	lc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "tenancy.canopy.dev/v1alpha1", "kind": "LogicalCluster",
		"metadata": map[string]any{"name": name},
	}}
	if _, err := lcs.Create(ctx, lc, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating LogicalCluster %s: %w", name, err)
	}
	for {
		got, err := lcs.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("reading LogicalCluster %s: %w", name, err)
		}
		if phase, _, _ := unstructured.NestedString(got.Object, "status", "phase"); phase == "Ready" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	ns := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": namespace},
	}}
	for {
		// Ready comes a moment before the logical cluster serves.
		_, err := hc.in(b, "root:"+name).Resource(namespaces).Create(ctx, ns, metav1.CreateOptions{})
		if err == nil || !apierrors.IsNotFound(err) && !apierrors.IsForbidden(err) || ctx.Err() != nil {
			if err != nil {
				return fmt.Errorf("creating namespace %s in root:%s: %w", namespace, name, err)
			}
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// syncerRun is the syncer of one physical cluster.
type syncerRun struct {
	*proc.Process
	pc *pcluster.Cluster
}

// startSyncer registers SyncTarget pc.Name in root with hub synctarget
// create and runs its syncer as a local process, with the hub kubeconfig
// of the manifest that command printed.
func startSyncer(ctx context.Context, b *testing.B, h *proc.Hub, hubBin, syncerBin string, pc *pcluster.Cluster, out string) *syncerRun {
	create := exec.CommandContext(ctx, hubBin, syncTargetArgs(h, pc.Name)...)
	var stdout, stderr bytes.Buffer
	create.Stdout, create.Stderr = &stdout, &stderr
	if err := create.Run(); err != nil {
		b.Fatalf("hub synctarget create %s: %v\n%s", pc.Name, err, stderr.String())
	}
	kubeconfig, err := hubKubeconfig(stdout.Bytes())
	if err != nil {
		b.Fatalf("the manifest of hub synctarget create %s: %v", pc.Name, err)
	}
	// It holds the syncer's private key: not kept with the logs.
	path := filepath.Join(b.TempDir(), "hub.kubeconfig")
	if err := os.WriteFile(path, kubeconfig, 0o600); err != nil {
		b.Fatal(err)
	}
	p := proc.Start(b, filepath.Join(out, "syncer-"+pc.Name+".log"), syncerBin,
		"--hub-kubeconfig", path, "--cluster-kubeconfig", pc.Kubeconfig, "--sync-target", "root:"+pc.Name,
		// Several syncers share this machine: each serves its metrics on
		// a port of its own.
		"--metrics-bind-address", "127.0.0.1:0")
	return &syncerRun{Process: p, pc: pc}
}

// syncTargetArgs are the arguments of hub synctarget create for target
// name in root, with the label placement would select it by. The hub
// scopes the credential itself, so no logical cluster needs naming.
func syncTargetArgs(h *proc.Hub, name string) []string {
	return []string{"synctarget", "create", name, "--logical-cluster", "root", "--label", "bench=syncer",
		"--data-dir", h.DataDir, "--hub-url", h.URL()}
}

// hubKubeconfig is the syncer's hub kubeconfig in the manifest of hub
// synctarget create: the one Secret's kubeconfig.
func hubKubeconfig(manifest []byte) ([]byte, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(manifest), 4096)
	for {
		var doc unstructured.Unstructured
		if err := dec.Decode(&doc.Object); err == io.EOF {
			return nil, fmt.Errorf("no Secret with a kubeconfig in:\n%s", manifest)
		} else if err != nil {
			return nil, err
		}
		if doc.GetKind() != "Secret" {
			continue
		}
		if data, ok, _ := unstructured.NestedString(doc.Object, "data", "kubeconfig"); ok {
			return base64.StdEncoding.DecodeString(data)
		}
	}
}

// waitReady waits until the syncer's informers have listed everything.
func (s *syncerRun) waitReady(ctx context.Context, b *testing.B) {
	for deadline := time.Now().Add(readyTimeout); time.Now().Before(deadline); sleep(ctx, b, 200*time.Millisecond) {
		if strings.Contains(s.Log(), "Syncer ready") {
			return
		}
	}
	b.Fatalf("the syncer of %s is not ready after %v:\n%s", s.pc.Name, readyTimeout, s.LogTail())
}
