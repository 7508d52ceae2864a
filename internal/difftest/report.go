package difftest

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Report is what a run found: per kind, how many cases it ran and how they
// diverged, grouped in classes; and the kinds the hub does not serve.
type Report struct {
	Seed     int64
	Unserved []Unserved

	mu    sync.Mutex
	kinds map[string]*KindReport
}

// KindReport is one kind's part of a report.
type KindReport struct {
	Kind string
	// Cases counts every comparison: the base object, the generated
	// cases, the table and the watch script.
	Cases int
	// Diverging counts the cases with a difference that fails the run:
	// not a message, not a deliberate divergence.
	Diverging int
	// MessagesOnly counts the cases whose only differences are messages.
	MessagesOnly int
	// Deliberate counts the differences divergences.yaml covers.
	Deliberate int
	// Codes counts kube-apiserver's answers to the generated cases by
	// status code: how many were accepted, refused, in conflict.
	Codes   map[int]int
	classes map[string]*Class
}

// Class is one kind of difference, and how often it occurred.
type Class struct {
	Name string
	// Fails is whether it fails a run: neither a message nor deliberate.
	Fails bool
	// Count is how many cases showed it.
	Count int
	// Example is the first case that showed it: seed, case, request and
	// both answers.
	Example string
}

func newReport(seed int64, unserved []Unserved) *Report {
	return &Report{Seed: seed, Unserved: unserved, kinds: map[string]*KindReport{}}
}

// kind is k's report, made on first use; r.mu is held.
func (r *Report) kind(k Kind) *KindReport {
	kr := r.kinds[k.ID()]
	if kr == nil {
		kr = &KindReport{Kind: k.ID(), Codes: map[int]int{}, classes: map[string]*Class{}}
		r.kinds[k.ID()] = kr
	}
	return kr
}

// answered counts kube-apiserver's code for a case of kind k.
func (r *Report) answered(k Kind, code int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kind(k).Codes[code]++
}

// add records one case of kind k and its differences.
func (r *Report) add(k Kind, diffs []Difference, example string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	kr := r.kind(k)
	kr.Cases++
	fails, messages := false, false
	seen := map[string]bool{}
	for _, d := range diffs {
		if deliberate(k, d) != nil {
			kr.Deliberate++
			continue
		}
		f := d.Aspect != AspectMessage
		fails = fails || f
		messages = messages || !f
		c := kr.classes[d.Class]
		if c == nil {
			c = &Class{Name: d.Class, Fails: f, Example: example}
			kr.classes[d.Class] = c
		}
		if !seen[d.Class] {
			seen[d.Class] = true
			c.Count++
		}
	}
	switch {
	case fails:
		kr.Diverging++
	case messages:
		kr.MessagesOnly++
	}
}

// Kinds are the kinds' reports, by kind ID.
func (r *Report) Kinds() []*KindReport {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*KindReport, 0, len(r.kinds))
	for _, kr := range r.kinds {
		out = append(out, kr)
	}
	slices.SortFunc(out, func(a, b *KindReport) int { return strings.Compare(a.Kind, b.Kind) })
	return out
}

// Classes are kr's classes, the most frequent first.
func (kr *KindReport) Classes() []*Class {
	out := make([]*Class, 0, len(kr.classes))
	for _, c := range kr.classes {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *Class) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Name, b.Name))
	})
	return out
}

// Failing are the classes of kr that fail the run, the most frequent
// first.
func (kr *KindReport) Failing() []*Class {
	var out []*Class
	for _, c := range kr.Classes() {
		if c.Fails {
			out = append(out, c)
		}
	}
	return out
}

// Failing are the classes that fail the run, of every kind, the most
// frequent of each kind first.
func (r *Report) Failing() []*Class {
	var out []*Class
	for _, kr := range r.Kinds() {
		out = append(out, kr.Failing()...)
	}
	return out
}

// UnservedFailing are the kinds kube-apiserver serves and the hub does
// not, but those divergences.yaml lists as not served on purpose.
func (r *Report) UnservedFailing() []Unserved {
	var out []Unserved
	for _, u := range r.Unserved {
		if deliberate(u.Kind, Difference{Aspect: AspectServed}) == nil {
			out = append(out, u)
		}
	}
	return out
}

// Summary is the report as a table of counts per kind, each kind followed
// by its top classes, then the kinds the hub does not serve.
func (r *Report) Summary(top int) string {
	var b strings.Builder
	total, diverging := 0, 0
	fmt.Fprintf(&b, "seed %d\n%-66s %7s %9s %9s %10s\n", r.Seed, "kind", "cases", "diverging", "msg-only", "deliberate")
	for _, kr := range r.Kinds() {
		total += kr.Cases
		diverging += kr.Diverging
		fmt.Fprintf(&b, "%-66s %7d %9d %9d %10d\n", kr.Kind, kr.Cases, kr.Diverging, kr.MessagesOnly, kr.Deliberate)
		var codes []string
		for _, code := range slices.Sorted(maps.Keys(kr.Codes)) {
			codes = append(codes, fmt.Sprintf("%d×%d", code, kr.Codes[code]))
		}
		fmt.Fprintf(&b, "    kube-apiserver answered %s\n", strings.Join(codes, " "))
		for i, c := range kr.Classes() {
			if i == top {
				fmt.Fprintf(&b, "    … %d classes more\n", len(kr.classes)-top)
				break
			}
			fmt.Fprintf(&b, "    %6d  %s\n", c.Count, c.Name)
		}
	}
	fmt.Fprintf(&b, "%d cases in %d kinds, %d diverging\n", total, len(r.Kinds()), diverging)
	for _, u := range r.Unserved {
		on := ""
		if deliberate(u.Kind, Difference{Aspect: AspectServed}) != nil {
			on = ", on purpose"
		}
		fmt.Fprintf(&b, "not served by the hub: %s (%s%s)\n", u.ID(), u.Why, on)
	}
	return b.String()
}
