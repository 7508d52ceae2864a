// Package crd runs the lifecycle of CustomResourceDefinitions in every
// logical cluster: it grants them their names and establishes them, as
// upstream's naming and establishing controllers do, with the same
// conditions and reasons; and once one is deleted, it deletes its objects
// before letting it go, as upstream's finalizer does.
//
// Names are unique per API group within one logical cluster only, so a
// definition competes with the others of its group there and nowhere
// else: the same kind in two logical clusters is accepted in both.
// Established turns True in the same write as NamesAccepted: the hub is
// one process, so there are no other API servers to wait for, as upstream
// waits.
//
// One controller of each serves every logical cluster. Names are decided
// per group of a logical cluster, so that no two decisions about the same
// names run at once. A logical cluster without definitions costs nothing.
package crd
