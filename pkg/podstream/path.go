package podstream

import (
	"fmt"
	"slices"
	"strings"
)

// Subresources are the pod subresources this package carries.
var Subresources = []string{"exec", "attach", "portforward"}

// Request names what the hub asks a syncer for: the subresource of a pod
// in a namespace of a logical cluster, as the hub names them.
type Request struct {
	Cluster, Namespace, Name, Subresource string
}

// Path is the path of r at the syncer's end of the tunnel.
func (r Request) Path() string {
	return "/podstream/" + r.Cluster + "/" + r.Namespace + "/" + r.Name + "/" + r.Subresource
}

// ParsePath is the Request that path, a Request's Path, names.
func ParsePath(path string) (Request, error) {
	rest, ok := strings.CutPrefix(path, "/podstream/")
	parts := strings.Split(rest, "/")
	if !ok || len(parts) != 4 || parts[0] == "" || parts[1] == "" || parts[2] == "" || !slices.Contains(Subresources, parts[3]) {
		return Request{}, fmt.Errorf("path %q names no pod subresource: want /podstream/<cluster>/<namespace>/<pod>/<%s>", path, strings.Join(Subresources, "|"))
	}
	return Request{Cluster: parts[0], Namespace: parts[1], Name: parts[2], Subresource: parts[3]}, nil
}
