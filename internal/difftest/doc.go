// Package difftest is a differential harness: it sends the same requests
// to a logical cluster of a hub and to a real kube-apiserver, and reports
// every way their answers differ. Kubernetes is the oracle; a logical
// cluster should be indistinguishable from it for every built-in kind both
// serve.
//
// It is shaped as four parts, each usable alone:
//
//   - Discover reads both servers' discovery and returns the built-in kinds
//     both serve, at kube-apiserver's preferred version, and those only
//     kube-apiserver serves, so that a kind the hub lacks is reported and
//     not skipped in silence.
//   - The generator turns (seed, kind, index) into a Case, always the same
//     one: an operation (create, update, JSON patch, merge patch, strategic
//     merge patch, server-side apply with or without force) and a body. Its
//     objects start from a valid object of the kind (basis.yaml) and are
//     mutated by randfill over the kind's typed k8s.io/api struct, with
//     bounds and a vocabulary of plausible and implausible values, or by a
//     targeted mutation that sets one field path, found by reflection over
//     the type, to an invalid value: empty, too long, a bad DNS name, a
//     negative number, an unknown enum value, a duplicate list key.
//   - The normalizer takes out of an answer what legitimately differs
//     between two servers (uids, resourceVersions, timestamps, generated
//     names, allocated addresses), and the comparator lists the rest as
//     Differences: status code and reason, each cause's field and type,
//     messages (reported apart: they do not fail a run), and the field
//     paths where the returned objects differ.
//   - Run drives the cases of every kind in parallel against both servers
//     and folds the differences into a Report: counts per kind, and per kind
//     the classes of divergence with how often each occurred and the first
//     example of each, with its seed, case, request and both answers.
//
// Cases are cheap on purpose, so that hundreds per kind fit in a test: each
// kind has one real object, its base object, made by server-side apply; every case
// is then one dry-run request against it (or a dry-run create), which runs
// admission, defaulting and validation as a real write does but stores
// nothing, so cases neither depend on each other nor leave anything behind.
// What dry-run cannot show is done for real once per kind: the scripted
// writes whose watch events are compared, and the Table of a list.
//
// Differences the project keeps on purpose are data, in divergences.yaml:
// each names the kind, the field path or answer that differs, and why. The
// comparator drops the differences they cover and the README lists them,
// generated from the same file (TestREADMEListsDivergences keeps the two
// equal). A difference that is a bug belongs in an issue, not in that file.
package difftest
