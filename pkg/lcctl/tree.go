package lcctl

import (
	"strings"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
)

// Node is a logical cluster in a printed tree.
type Node struct {
	// Name is what the line shows: the full name at the top, and the last
	// segment below it, since the tree itself shows the rest.
	Name string
	// Phase is shown after the name unless it is Ready, the phase nearly
	// every line would repeat.
	Phase    tenancyv1alpha1.LogicalClusterPhase
	Children []*Node
}

// Format draws the tree under n in ASCII-art lines, as tree(1) does.
func (n *Node) Format() string {
	var b strings.Builder
	b.WriteString(n.label() + "\n")
	n.formatChildren(&b, "")
	return b.String()
}

func (n *Node) formatChildren(b *strings.Builder, indent string) {
	for i, c := range n.Children {
		branch, next := "├── ", "│   "
		if i == len(n.Children)-1 {
			branch, next = "└── ", "    "
		}
		b.WriteString(indent + branch + c.label() + "\n")
		c.formatChildren(b, indent+next)
	}
}

func (n *Node) label() string {
	if n.Phase == "" || n.Phase == tenancyv1alpha1.LogicalClusterReady {
		return n.Name
	}
	return n.Name + " (" + string(n.Phase) + ")"
}
