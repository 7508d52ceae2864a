package syncer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

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
