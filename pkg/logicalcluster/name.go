package logicalcluster

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Name is a valid logical cluster path such as root or root:org:team.
type Name string

// Root is the logical cluster every other one descends from, and the one a
// request without a /clusters/<name> prefix is for.
const Root Name = "root"

const separator = ":"

// Parse returns s as a Name, or an error saying what is wrong with it.
func Parse(s string) (Name, error) {
	if s == "" {
		return "", fmt.Errorf("invalid logical cluster name %q: must not be empty", s)
	}
	segments := strings.Split(s, separator)
	if segments[0] != string(Root) {
		return "", fmt.Errorf("invalid logical cluster name %q: must be %q or start with %q", s, Root, string(Root)+separator)
	}
	for i, seg := range segments[1:] {
		if errs := validation.IsDNS1123Label(seg); len(errs) > 0 {
			return "", fmt.Errorf("invalid logical cluster name %q: segment %d %q: %s", s, i+2, seg, strings.Join(errs, "; "))
		}
	}
	return Name(s), nil
}

func (n Name) String() string { return string(n) }

// Parent is the logical cluster n is nested in; root has none.
func (n Name) Parent() (Name, bool) {
	i := strings.LastIndex(string(n), separator)
	if i < 0 {
		return "", false
	}
	return n[:i], true
}

// Child is the logical cluster named segment nested in n.
func (n Name) Child(segment string) (Name, error) {
	return Parse(string(n) + separator + segment)
}

// Base is the last segment of n: team for root:org:team.
func (n Name) Base() string {
	return string(n)[strings.LastIndex(string(n), separator)+1:]
}
