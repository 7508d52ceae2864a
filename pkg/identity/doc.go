// Package identity is the hub's identity: what every replica of one hub,
// on one database, must share so that a client cannot tell them apart.
// It is the certificate authority that signs every serving, admin, user
// and syncer certificate, and the key that signs ServiceAccount tokens. A
// kubeconfig written by one replica, a token issued by another and a
// syncer certificate signed by a third are then good at all of them.
//
// # Where it lives, and why
//
// The identity is one record in the database the replicas share, at
// /canopy/identity, outside /registry where every resource's objects are,
// so no API serves, lists or watches it (Store). Its private keys are
// sealed with AES-256-GCM under a Key that every replica is given as a
// file (ReadKeyFile), as from a mounted Kubernetes Secret. Keeping it in the database rather
// than in files copied to every replica means:
//
//   - nothing to copy between machines: a replica needs only its DSN and
//     the key;
//   - a backup of the database carries the identity with the data it
//     belongs to, and a restore brings both back together;
//   - the first replica creates it with the store's create-if-absent, a
//     conditional insert the database decides, so two replicas starting
//     at once on an empty database can never make two CAs for it: one
//     insert wins, and the other replica loads the winner's identity.
//
// The database alone is not enough to impersonate the hub: the private
// keys in it are sealed, and the key file never goes into it. The CA
// certificate is public and stays readable, so a replica given the wrong
// key can say which identity the database holds (its CA's SHA-256
// Fingerprint) without being able to use it.
//
// # Upgrades
//
// A hub from before replicas shared a database kept its CA and
// ServiceAccount key as files under <data-dir>/pki. Ensure, finding no
// identity in the database, takes those (ReadDir) instead of making new
// ones, so kubeconfigs and tokens issued before the upgrade keep working.
//
// Each replica writes the identity back into its own <data-dir>/pki
// (WriteDir), where the CLI commands that sign certificates on the hub's
// machine (hub kubeconfig, hub synctarget create) read it, and issues its
// own serving certificate from the CA, valid for its own names.
package identity
