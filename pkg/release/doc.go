// Package release names the container images a build of Canopy is
// published as, so that what hub synctarget create puts in the syncer's
// manifest and what hack/image.sh tags are one name; and says which
// Kubernetes release a build implements, for the hub's /version.
package release
