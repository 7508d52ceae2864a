package lcctl

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// SplitServer splits a kubeconfig server URL into the hub's base URL and
// the logical cluster the URL addresses. A URL without a /clusters/<name>
// suffix addresses root, since the hub serves unprefixed paths there.
func SplitServer(server string) (string, logicalcluster.Name, error) {
	u, err := url.Parse(server)
	if err != nil {
		return "", "", fmt.Errorf("server %q: %w", server, err)
	}
	if u.Scheme == "" || u.Host == "" {
		return "", "", fmt.Errorf("server %q is not an absolute URL", server)
	}
	// A query or fragment would end up in the middle of every URL built
	// from the base, so such a server cannot be one of the hub's.
	if u.RawQuery != "" || u.Fragment != "" {
		return "", "", fmt.Errorf("server %q has a query or fragment", server)
	}
	i := strings.LastIndex(u.Path, logicalcluster.PathPrefix)
	if i < 0 {
		u.Path, u.RawPath = strings.TrimSuffix(u.Path, "/"), ""
		return u.String(), logicalcluster.Root, nil
	}
	name, err := logicalcluster.Parse(strings.TrimSuffix(u.Path[i+len(logicalcluster.PathPrefix):], "/"))
	if err != nil {
		return "", "", fmt.Errorf("server %q: %w", server, err)
	}
	u.Path, u.RawPath = u.Path[:i], ""
	return u.String(), name, nil
}

// ServerFor is the server URL of logical cluster n on the hub at base.
func ServerFor(base string, n logicalcluster.Name) string {
	return base + logicalcluster.PathPrefix + string(n)
}

// Resolve returns the logical cluster arg names, seen from current. arg is
// absolute when its first segment is root (root:org:team), and otherwise
// relative to current: each segment enters a child, and ".." goes to the
// parent, so ".." is the parent, "team" a child and "..:b" a sibling.
func Resolve(current logicalcluster.Name, arg string) (logicalcluster.Name, error) {
	segments := strings.Split(arg, ":")
	n := current
	if segments[0] == string(logicalcluster.Root) {
		n, segments = logicalcluster.Root, segments[1:]
	}
	for _, s := range segments {
		if s == ".." {
			parent, ok := n.Parent()
			if !ok {
				return "", fmt.Errorf("%q from %s: %s has no parent", arg, current, n)
			}
			n = parent
			continue
		}
		child, err := n.Child(s)
		if err != nil {
			return "", fmt.Errorf("%q from %s: %w", arg, current, err)
		}
		n = child
	}
	return n, nil
}
