// Package clusterquota enforces the leases of capacity that logical
// clusters give their children (tenancy.canopy.dev ClusterQuotas) at
// admission, for every create and update of every logical cluster.
//
// # The account
//
// ClusterQuota "team" in root:org is the lease of root:org:team's subtree.
// Its status is an account: used, what the subtree's objects use outside
// the leases the child gave out, and leasedOut, the sum of those leases.
// used + leasedOut never exceeds hard. A use is charged to one lease per
// resource only: the nearest one, from the object's logical cluster up,
// that limits the resource. A lease given to a child is charged, whole,
// to the nearest lease above the child's parent as leased out, the moment
// it is given. So a child's children's leases plus its own use can never
// exceed what it holds, and a charge never walks further than one lease:
// what the leases above hold of the subtree was settled when the leases
// below were given.
//
// # Why it cannot overshoot, across hub replicas
//
// A charge is one conditional write of the lease object itself, through
// the store below the registry (storage.Interface.GuaranteedUpdate): the
// account is read, checked and written back only over the version it was
// read at. Every replica writes to the same database, whose writes are
// serialized on one revision counter (pkg/sqlstorage), so two charges to
// one lease, from any replicas, are applied one after the other, the
// second one recomputed over the first's result. A charge that does not
// fit is refused before anything is written, with a 403 that says which
// lease, what was asked, and what is left.
//
// # Finding the leases, and the window that remains
//
// Every create looks for the leases above its logical cluster, one per
// level of the tree, lease or not, so the lookup must cost no database
// read where there is none: most logical clusters have no lease above
// them. A lease the shared informer holds is found there, the
// conditional write reading it afresh anyway (and a lease deleted since
// failing it, which has the lookup done again from the database). Where
// the informer holds none, the database is asked, as kube-apiserver's
// ResourceQuota admission does (k8s.io/apiserver's resourcequota
// quotaAccessor, which since v0.37 asks only until its informer has
// synced, and trusts it alone after): the answer, lease or none, is
// remembered for 30 seconds in a bounded LRU, and the creates that ask
// at once share one read (lookup.go). Asking after the sync too costs a
// read per level every 30 seconds, and binds at once a lease given
// through another replica to a logical cluster that has not asked in
// that time, as a script giving a lease and then creating does. So a logical cluster under no lease pays one read
// per level every 30 seconds, not one per create (e2e
// TestClusterQuotaLookupCost: 300 creates two levels down, no read).
// bench/clusterquota's BenchmarkClusterQuotaNoLease compares it with
// main's hub, which has no leases, no lease anywhere, 32 clients, medians
// of interleaved rounds on a shared 2-core machine, five runs: 0.99,
// 0.73, 1.07, 0.76 and 1.09 of main's creates/s (1091 against 1100 at
// load 20; 365 against 499 at load 21 to 42, single rounds swinging from
// 189 to 834 on both; 760 against 708 at load 21 to 34; 1032 against
// 1364 at load 9 with an e2e run alongside; 2504 against 2291 at load
// 3.5, the quietest), and 1.05, 1.07, 1.00, 1.06 and 1.04 times main's
// hub CPU per create (480 against 455 µs, 550/515, 525/525, 455/430,
// 380/365).
//
// The window that remains, as in kube: the informer cannot tell "there is
// no lease" from "this replica has not seen it yet". A lease given
// through another replica binds on this one once this one's informer
// holds it, which is the store's watch delay (tens of milliseconds with
// PostgreSQL's notifications, up to the one-second safety poll without
// them), or at once if this replica has not asked about it in the last
// 30 seconds. A create admitted on this replica inside that window is not
// charged; the recount counts it in the lease's use once it is stored,
// as it counts what the subtree held before the lease, so the lease
// refuses more until its use is back under its limits, but it may stand
// over them by what was admitted in the window. Once a replica's
// informer holds a lease, every charge to it is exact, across replicas.
// Closing the window entirely would cost every create something: a read
// (of the lease, or of the database's revision to wait for the informer
// to reach), or a condition in the store's write of every object. A
// lease is rare and given once; a create is neither.
//
// The plugin is the last of the admission chain, so a write another
// plugin refuses charges nothing. A write that uses several leases (a
// Deployment whose CPUs one lease limits and whose replicas another does)
// is charged to each in turn, and what was charged is taken back if a
// later lease refuses.
//
// Changes to one lease made at once on one replica share one conditional
// write (combine.go), each checked in turn against what those before it
// left, as the store's group commit shares one transaction: without it,
// concurrent creates under one lease each retried their own write until
// they won one, one per commit. bench/clusterquota measures the create
// path under one lease, with 32 clients, on a loaded 2-core machine: in
// session 9 (load 8 to 14), 0.48 to 0.67 of the creates/s without a
// lease, and 880 to 1000 µs of hub CPU per create against 530 to 560; in
// session 10 (load 20 to 42, medians of 5 interleaved rounds), 0.21 to
// 0.36, and 1420 to 1620 µs against 570, the rate under the lease falling
// round after round as the logical cluster held more ConfigMaps (206 to
// 56 creates/s over 1,000 to 10,000; with rounds of 300, the first
// under the lease ran as fast as without, 439 against 407, and the later
// ones 0.44 to 0.18). The recount, which counts every object of the
// subtree every 50ms while creates go on, is the likely cost; it was not
// profiled. Counting objects that all use the same with one
// multiplication (pkg/controller/clusterquota's countAlike) gave 0.42 and
// 1230 µs against 570 in one run at load 40, not compared side by side
// with the build before it; the rate under the lease still fell, from
// 253 to 96 creates/s, as the subtree filled. Before the recount the ratio was 0.83;
// before combining, 37 creates/s.
//
// This is the reservation scheme of kube's ResourceQuota admission, with
// the account in the object's status. It was preferred to counter rows
// updated in the write's own transaction because it needs no change to the
// store's write path, which every write of the hub takes.
//
// # Giving back
//
// Each charge also records, in the lease, a pending charge naming the
// write (the object's uid and the generation the write makes); a write
// admitted again after a conflict replaces its own pending charge rather
// than being charged twice. What a lease no longer holds (an object
// deleted, a workload scaled down, through its scale subresource too, a
// lease shrunk or deleted, a write never stored) is given back by the
// recount (pkg/controller/clusterquota), which counts what the objects
// that exist use and keeps the pending charges whose writes it has not
// seen stored; its package says why that never lets a lease hold more
// than its limits. The one credit kept here (credits.go) is for a create
// the store then refuses (a name that exists): it is taken back, with its
// pending charge, at once, so that a refused create does not hold room
// until the recount's pending charge expires.
//
// # What it does not do yet
//
// The objects of custom resources are charged but never recounted, the
// built-in informers not holding them: their counts are admission's, and
// a deleted custom object's count is not given back. A lease counts what
// its subtree holds from the recount after its creation, including what
// was there before it.
package clusterquota
