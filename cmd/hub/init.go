package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/canopy-dev/canopy/pkg/hub"
	"github.com/canopy-dev/canopy/pkg/identity"
)

const identityKeyFileUsage = "file holding the key that seals the hub's identity (its CA and ServiceAccount signing key) in the datastore, " +
	"the same for every replica, as mounted from a Kubernetes Secret; made when missing while the datastore has no identity yet (default <data-dir>/identity.key)"

func newInitCommand() *cobra.Command {
	var dataDir, keyFile string
	var datastore datastoreFlags
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the hub's identity in its datastore, once for all its replicas",
		Long: `Create the hub's identity, the certificate authority and ServiceAccount
signing key every replica on one datastore shares, in the datastore, sealed
with the key in --identity-key-file, which it writes (random, mode 0600) if it
does not exist. Give every replica the same --datastore (or
--datastore-file) and --identity-key-file. A pre-HA hub's CA and ServiceAccount key in
<data-dir>/pki become the identity, so that its kubeconfigs and tokens keep
working.

Running it again changes nothing. It fails if the datastore holds an identity
the key cannot open. The first hub start does the same, so init is needed
only to make the key before the replicas start, or to check it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dsn, err := datastore.datastore(cmd.Flags())
			if err != nil {
				return err
			}
			id, source, err := hub.InitIdentity(cmd.Context(), dataDir, dsn, keyFile)
			if err != nil {
				return err
			}
			verb := map[identity.Source]string{
				identity.Created:  "created",
				identity.Imported: "imported from " + dataDir + "/pki",
				identity.Loaded:   "already there",
			}[source]
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "Hub identity %s: CA fingerprint %s\n", verb, id.Fingerprint())
			return err
		},
	}
	cmd.Flags().StringVar(&dataDir, "data-dir", ".canopy", "the hub's data directory: for the default datastore and key file, and a pre-HA hub's pki to import")
	datastore.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&keyFile, "identity-key-file", "", identityKeyFileUsage)
	return cmd
}
