// Package registry turns a genericregistry.Store into one served in every
// logical cluster, over the hub's SQL storage.
//
// Keys carry the logical cluster right after the resource, as
// pkg/sqlstorage lays them out:
//
//	/registry/<resource>/<cluster>/[<namespace>/]<name>         core group
//	/registry/<group>/<resource>/<cluster>/[<namespace>/]<name> other groups
//
// so one logical cluster's objects of a resource are one key prefix. A
// request's key takes the cluster from its context. The watch cache keys
// objects without a request, so every stored object also carries its
// cluster in the logicalcluster.Annotation, which the store sets on every
// create and update whatever the client sent. The annotation is the hub's
// bookkeeping, no client's field: an update is made from the stored object
// without it, and no managedFields entry owns it (bookkeeping.go), so that
// the field manager records what it records in kube-apiserver.
//
// Each resource has one watch cache for all logical clusters: a logical
// cluster costs nothing until it has objects, and a list or watch in one
// logical cluster is a prefix of the shared cache. Custom resources too:
// the unstructured storage of a group resource serves every definition of
// it, in any logical cluster, whose stores upstream completes and Adopt
// gives Canopy's keys.
//
// A resource's Fields are what field selectors may name, in lists and
// watches alike: the store, the SQL storage and the watch cache all read
// an object's fields through them. They are Kubernetes' for the kind,
// copied as data since the hub may not import k8s.io/kubernetes, each with
// a comment naming the upstream files and version they come from.
//
// A request's mistakes that upstream's storage reports as its own, with a
// 500, reach the client as the 4xx they are: a resourceVersion that is no
// number or is set on create, and a malformed patch.
package registry
