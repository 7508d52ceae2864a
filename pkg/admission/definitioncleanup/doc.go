// Package definitioncleanup is the hub's admission plugin that keeps a
// deleted CustomResourceDefinition's customresourcecleanup finalizer
// until the hub removes it, once the definition's objects are deleted.
//
// Kubernetes lets anyone who may update a definition remove the finalizer
// and leave the objects stored. In the hub that would hide them from
// everything that finds custom resources by their definitions: the
// deletion of their logical cluster would not see them, and a logical
// cluster made again under its name, defining the resource again, would
// serve them. The hub writes the finalizer through its registry, without
// admission, so only requests are refused.
package definitioncleanup
