package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

func main() {
	if len(os.Args) < 2 || (os.Args[1] != "up" && os.Args[1] != "down") {
		fmt.Fprintln(os.Stderr, "usage: pclusters up [-n N] [-dir DIR] | pclusters down [-dir DIR]")
		os.Exit(2)
	}
	flags := flag.NewFlagSet("pclusters "+os.Args[1], flag.ExitOnError)
	n := flags.Int("n", 3, "how many clusters to start")
	dir := flags.String("dir", filepath.Join(os.TempDir(), "canopy-pclusters"), "where the clusters' state lives")
	_ = flags.Parse(os.Args[2:])

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var err error
	if os.Args[1] == "up" {
		err = up(ctx, *dir, *n)
	} else {
		err = down(ctx, *dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pclusters:", err)
		os.Exit(1)
	}
}

// up starts clusters pc1..pcN side by side, each with two nodes in a
// region of its own, one per zone.
func up(ctx context.Context, dir string, n int) error {
	clusters := make([]*pcluster.Cluster, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range clusters {
		name := fmt.Sprintf("pc%d", i+1)
		region := fmt.Sprintf("region-%d", i+1)
		wg.Go(func() {
			clusters[i], errs[i] = pcluster.Create(ctx, dir, name, pcluster.Options{Nodes: []pcluster.Node{
				{Name: name + "-a", Labels: map[string]string{"region": region, "zone": region + "-a"}},
				{Name: name + "-b", Labels: map[string]string{"region": region, "zone": region + "-b"}},
			}})
		})
	}
	wg.Wait()
	for _, c := range clusters {
		if c != nil {
			fmt.Printf("%s: export KUBECONFIG=%s\n", c.Name, c.Kubeconfig)
		}
	}
	return errors.Join(errs...)
}

func down(ctx context.Context, dir string) error {
	names, err := pcluster.Names(dir)
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := pcluster.Stop(ctx, dir, name); err != nil {
			return err
		}
		fmt.Printf("%s: stopped\n", name)
	}
	return os.RemoveAll(dir)
}
