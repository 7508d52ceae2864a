// Package batch serves the batch/v1 resources every logical cluster has:
// jobs and cronjobs, with their status subresources. No controller runs
// them at the hub: they are stored, defaulted, validated and warned of by
// upstream's own strategies (package upstream runs the lifted code of
// third_party/kubernetes), including the selector a Job gets from its UID.
//
// As in package core, the v1 Go types are registered as the internal
// version too.
package batch
