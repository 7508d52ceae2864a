package difftest

import (
	_ "embed"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

// Divergence is a difference the project keeps on purpose.
type Divergence struct {
	Kind   string `json:"kind"`
	Aspect Aspect `json:"aspect"`
	Path   string `json:"path"`
	// Only, "hub" or "kube", narrows the entry to the field being at that
	// server alone: what the hub adds, or leaves out, and not a value
	// both give otherwise.
	Only string `json:"only,omitempty"`
	// Codes, in an entry of aspect code, narrows it to the answers where
	// kube-apiserver answers Codes[0] and the hub Codes[1], each a Status
	// with the same message.
	Codes  []int  `json:"codes,omitempty"`
	Reason string `json:"reason"`
}

//go:embed divergences.yaml
var divergencesYAML []byte

// Divergences are the deliberate divergences of divergences.yaml.
var Divergences = func() []Divergence {
	var ds []Divergence
	if err := yaml.UnmarshalStrict(divergencesYAML, &ds); err != nil {
		panic(fmt.Sprintf("divergences.yaml: %v", err))
	}
	return ds
}()

// Covers reports whether the deliberate divergence d covers difference
// diff of kind k: same kind (or any), same aspect, and diff's path d's or
// under it.
func (d Divergence) Covers(k Kind, diff Difference) bool {
	if d.Kind != "*" && d.Kind != k.ID() {
		return false
	}
	// The watch script compares objects too: what an object may hold
	// otherwise, its events may.
	if d.Aspect != diff.Aspect && (d.Aspect != AspectObject || diff.Aspect != AspectWatch) {
		return false
	}
	if d.Only != "" && !strings.HasSuffix(diff.Class, " only at "+d.Only) {
		return false
	}
	if d.Codes != nil && (len(d.Codes) != 2 || [2]int(d.Codes) != diff.Codes || !diff.SameMessage) {
		return false
	}
	return d.Path == "" || diff.Path == d.Path ||
		strings.HasPrefix(diff.Path, d.Path+".") || strings.HasPrefix(diff.Path, d.Path+"[")
}

// deliberate is the deliberate divergence that covers diff, if one does.
func deliberate(k Kind, diff Difference) *Divergence {
	for i := range Divergences {
		if Divergences[i].Covers(k, diff) {
			return &Divergences[i]
		}
	}
	return nil
}

// READMESection is the README's list of deliberate divergences, made from
// divergences.yaml.
func READMESection() string {
	var b strings.Builder
	b.WriteString("| kind | what differs | why |\n|---|---|---|\n")
	for _, d := range Divergences {
		what := string(d.Aspect)
		if d.Path != "" {
			what += " `" + d.Path + "`"
		}
		if d.Only != "" {
			what += " (only at " + d.Only + ")"
		}
		if len(d.Codes) == 2 {
			what += fmt.Sprintf(" (kube %d, hub %d, same message)", d.Codes[0], d.Codes[1])
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", d.Kind, what, d.Reason)
	}
	return b.String()
}
