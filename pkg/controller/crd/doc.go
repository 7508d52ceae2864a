// Package crd grants CustomResourceDefinitions their names and
// establishes them, in every logical cluster: upstream's naming and
// establishing controllers in one, with the same conditions and reasons.
//
// Names are unique per API group within one logical cluster only, so a
// definition competes with the others of its group there and nowhere
// else: the same kind in two logical clusters is accepted in both.
// Established turns True in the same write as NamesAccepted: the hub is
// one process, so there are no other API servers to wait for, as upstream
// waits.
//
// One controller serves every logical cluster, working per group of a
// logical cluster, so that no two decisions about the same names run at
// once; a logical cluster without definitions costs nothing.
package crd
