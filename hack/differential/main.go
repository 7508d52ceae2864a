package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/internal/difftest"
)

func main() {
	kube := flag.String("kube", "", "kubeconfig of the kube-apiserver")
	kubeContext := flag.String("kube-context", "", "its context; the current one when empty")
	hub := flag.String("hub", "", "kubeconfig of the hub")
	hubContext := flag.String("hub-context", "", "the context of the logical cluster; the current one when empty")
	var opts difftest.Options
	flag.Int64Var(&opts.Seed, "seed", 1, "the seed cases are generated from")
	flag.IntVar(&opts.Cases, "cases", 200, "cases per kind")
	flag.StringVar(&opts.Only, "case", "", "run only this case, as apps/v1/Deployment#17, and print it whole")
	kinds := flag.String("kinds", "", "comma-separated kind IDs to run (v1/Pod,apps/v1/Deployment); all when empty")
	flag.StringVar(&opts.Namespace, "namespace", "difftest", "the namespace of the namespaced objects")
	flag.IntVar(&opts.Parallel, "parallel", 8, "cases in flight at once")
	top := flag.Int("top", 5, "divergence classes listed per kind")
	examples := flag.Int("examples", 1, "examples printed of each kind's most frequent failing classes")
	flag.Parse()
	if *kube == "" || *hub == "" {
		fmt.Fprintln(os.Stderr, "differential: -kube and -hub are required")
		os.Exit(2)
	}
	if *kinds != "" {
		opts.Kinds = strings.Split(*kinds, ",")
	}
	opts.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	report, err := run(ctx, *kube, *kubeContext, *hub, *hubContext, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "differential:", err)
		os.Exit(1)
	}
	fmt.Print(report.Summary(*top))
	for _, kr := range report.Kinds() {
		for i, c := range kr.Failing() {
			if i == *examples {
				break
			}
			fmt.Printf("\n--- %s: %s (%d)\n%s\n", kr.Kind, c.Name, c.Count, c.Example)
		}
	}
	if len(report.Failing()) > 0 || len(report.UnservedFailing()) > 0 {
		os.Exit(1)
	}
}

func run(ctx context.Context, kubeconfig, kubeContext, hubconfig, hubContext string, opts difftest.Options) (*difftest.Report, error) {
	kube, err := server("kube-apiserver", kubeconfig, kubeContext)
	if err != nil {
		return nil, err
	}
	hub, err := server("hub", hubconfig, hubContext)
	if err != nil {
		return nil, err
	}
	return difftest.Run(ctx, kube, hub, opts)
}

func server(name, kubeconfig, context string) (*difftest.Server, error) {
	config, err := restConfig(kubeconfig, context)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return difftest.NewServer(name, config)
}

func restConfig(kubeconfig, context string) (*rest.Config, error) {
	return clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: kubeconfig},
		&clientcmd.ConfigOverrides{CurrentContext: context}).ClientConfig()
}
