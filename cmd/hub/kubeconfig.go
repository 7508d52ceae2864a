package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/pkg/lcctl"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// pluginName is the name the binary answers to as a kubectl plugin: kubectl
// runs kubectl-lc on PATH for `kubectl lc …`.
const pluginName = "kubectl-lc"

// newKubeconfigCommand is `hub kubeconfig`, and with use "kubectl lc" the
// whole of the kubectl plugin.
func newKubeconfigCommand(use string) *cobra.Command {
	var kubeconfig, contextName string
	load := func() (*lcctl.Kubeconfig, error) {
		// The default rules read KUBECONFIG and ~/.kube/config as kubectl
		// does; --kubeconfig wins over both, again as in kubectl.
		rules := clientcmd.NewDefaultClientConfigLoadingRules()
		rules.ExplicitPath = kubeconfig
		return lcctl.Load(rules, contextName)
	}
	printCurrent := func(w io.Writer, n logicalcluster.Name) {
		fmt.Fprintf(w, "Current logical cluster is %s.\n", n)
	}

	cmd := &cobra.Command{
		Use:   use,
		Short: "Move a kubeconfig between logical clusters, create them and show their tree",
		Long: `Move a kubeconfig between the hub's logical clusters, create them and show their tree.

The current logical cluster is the one the current context's server,
https://HOST/clusters/<name>, addresses. Switching writes a context and a
cluster entry named after the logical cluster, with the same base URL, CA and
user, and makes it current.

The same binary run as kubectl-lc is a kubectl plugin: with a symlink
kubectl-lc -> hub on PATH, "kubectl lc use root:org" runs "hub kubeconfig use
root:org". Without a subcommand it prints the current logical cluster.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, err := load()
			if err != nil {
				return err
			}
			printCurrent(cmd.OutOrStdout(), k.Current())
			return nil
		},
		SilenceUsage: true,
	}
	cmd.PersistentFlags().StringVar(&kubeconfig, "kubeconfig", "", "path to the kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)")
	cmd.PersistentFlags().StringVar(&contextName, "context", "", "kubeconfig context to start from (default: the current context)")

	var enter bool
	var timeout time.Duration
	create := &cobra.Command{
		Use:   "create NAME",
		Short: "Create logical cluster NAME in the current one and wait until it is ready",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			k, err := load()
			if err != nil {
				return err
			}
			n, err := k.Create(cmd.Context(), args[0], timeout)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Logical cluster %s is ready.\n", n)
			if !enter {
				return nil
			}
			if _, err := k.Use(cmd.Context(), string(n)); err != nil {
				return err
			}
			printCurrent(cmd.OutOrStdout(), n)
			return nil
		},
	}
	create.Flags().BoolVar(&enter, "enter", false, "switch to the new logical cluster once it is ready")
	create.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "how long to wait for the new logical cluster to be ready")

	useCmd := &cobra.Command{
		Use:   "use PATH|..|-",
		Short: "Switch to another logical cluster",
		Long: `Switch to another logical cluster, once the hub has answered that it serves it.

PATH is absolute when it starts with root (root:org:team), and otherwise
relative to the current logical cluster: "team" is a child, ".." the parent,
"..:b" a sibling. "-" is the logical cluster last switched away from.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			k, err := load()
			if err != nil {
				return err
			}
			n, err := k.Use(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			printCurrent(cmd.OutOrStdout(), n)
			return nil
		},
	}

	current := &cobra.Command{
		Use:   "current",
		Short: "Print the current logical cluster",
		Args:  cobra.NoArgs,
		RunE:  cmd.RunE,
	}

	tree := &cobra.Command{
		Use:   "tree",
		Short: "Print the tree of logical clusters under the current one",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, err := load()
			if err != nil {
				return err
			}
			t, err := k.Tree(cmd.Context())
			if err != nil {
				return err
			}
			_, err = io.WriteString(cmd.OutOrStdout(), t.Format())
			return err
		},
	}

	cmd.AddCommand(create, useCmd, current, tree)
	return cmd
}
