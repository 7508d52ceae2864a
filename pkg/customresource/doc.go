// Package customresource serves the custom resources of each logical
// cluster's CustomResourceDefinitions, at /apis/<group>/<version>/… of
// the groups the hub does not serve itself, with upstream's storage
// (apiextensions-apiserver's customresource.NewStorage) and request
// handlers (k8s.io/apiserver's endpoints/handlers): validation by the
// schema and its CEL rules, pruning, defaulting, the status and scale
// subresources, printer columns, server-side apply and watches, and, for
// several versions, conversion None.
//
// A request is served by the definition of its resource in its own
// logical cluster, read from the definitions' watch cache: a logical
// cluster without one answers 404 saying so, and two logical clusters may
// define the same resource differently. What serves a definition (its
// structural schemas, CEL programs, server-side apply type converter,
// stores and request scopes) depends on its spec and accepted names
// alone, so installations of the same definition share it, held by the
// hash of their content: memory grows with the distinct definitions, not
// with the logical clusters that install them.
//
// Every definition of a group resource, in any logical cluster, shares
// one storage and one watch cache, under Canopy's keys, in which each
// object is stored as written to it: at its definition's storage version,
// pruned by its schema. A read in a logical cluster prunes and defaults
// each object by the schema of its stored version in that logical
// cluster's definition, as upstream's storage decoder does, so that a
// default added to a definition shows on the objects written before it;
// as the cache is shared by definitions whose schemas differ, this is
// done to a copy as the object leaves the cache, and the hub's
// controllers, which read every logical cluster at once, are given the
// objects as stored (BenchmarkListDefaults measures what a read pays). Objects are then converted to the version a client
// asks for, and pruned by its schema, as they are sent. The cache matches field
// selectors against the selectable fields of each object's own logical
// cluster's definition, as they were when the object was written.
//
// Discovery of a logical cluster, /apis aggregated or not, /apis/<group>
// and /apis/<group>/<version>, lists the groups of its established
// definitions after the hub's own, made for each request from the
// definitions' watch cache, so that kubectl and client-go's RESTMapper
// find them by kind and short name there and nowhere else. Its OpenAPI v3
// adds the documents of their group versions, for kubectl explain and
// client-side validation: each merged per request from the documents of
// its definitions, which are made once per distinct definition, and named
// by the hash of their contents, so that equal definitions in different
// logical clusters are one document to clients' caches too. Its OpenAPI
// v2 is the hub's document with its definitions merged in, made once per
// distinct set of definitions and kept in a small cache.
//
// A definition may take any JSON, so every write of an object is refused
// past Limits: how deep its maps and lists nest, and how large it is
// encoded, the hub's --custom-resource-max-depth and
// --custom-resource-max-bytes. Its encoders indent pretty JSON and YAML
// only within a bound (pkg/boundedencoding).
//
// The first list of the definitions of every logical cluster makes the
// storage of each group resource they define, and the hub is ready only
// once their watch caches are (ReadinessCheck), so that the first requests
// after a start are not answered 429.
//
// Custom resources are served in their own logical cluster only, not
// across all of them at /clusters/*.
//
// The hub's controllers reach custom resources through the same stores:
// the namespace and logical-cluster controllers delete them with their
// namespace or logical cluster, and the garbage collector watches each
// group resource while some logical cluster defines it and resolves an
// owner's kind by the definitions of the dependent's logical cluster.
package customresource
