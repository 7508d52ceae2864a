package sync

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/canopy-dev/canopy/pkg/sync/spec"
)

// origin is where a synced object lives at the hub.
type origin struct {
	cluster, namespace, name string
}

func (o origin) String() string { return o.cluster + "/" + o.namespace + "/" + o.name }

// originOf is where downstream object obj comes from, if the syncer made
// it.
func originOf(obj *unstructured.Unstructured) (origin, bool) {
	cluster, namespace, name, ok := spec.Origin(obj)
	return origin{cluster, namespace, name}, ok
}
