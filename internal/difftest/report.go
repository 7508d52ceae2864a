package difftest

import (
	"cmp"
	"fmt"
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
	classes    map[string]*Class
}

// Class is one kind of difference, and how often it occurred.
type Class struct {
	Name string
	// Fails is whether it fails a run: neither a message nor deliberate.
	Fails bool
	Count int
	// Example is the first case that showed it: seed, case, request and
	// both answers.
	Example string
}

func newReport(seed int64, unserved []Unserved) *Report {
	return &Report{Seed: seed, Unserved: unserved, kinds: map[string]*KindReport{}}
}

// add records one case of kind k and its differences.
func (r *Report) add(k Kind, diffs []Difference, example string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	kr := r.kinds[k.ID()]
	if kr == nil {
		kr = &KindReport{Kind: k.ID(), classes: map[string]*Class{}}
		r.kinds[k.ID()] = kr
	}
	kr.Cases++
	fails, messages := false, false
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
		c.Count++
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

// Summary is the report as a table of counts per kind, each kind followed
// by its top classes, then the kinds the hub does not serve.
func (r *Report) Summary(top int) string {
	var b strings.Builder
	total, diverging := 0, 0
	fmt.Fprintf(&b, "seed %d\n%-58s %7s %9s %9s %10s\n", r.Seed, "kind", "cases", "diverging", "msg-only", "deliberate")
	for _, kr := range r.Kinds() {
		total += kr.Cases
		diverging += kr.Diverging
		fmt.Fprintf(&b, "%-58s %7d %9d %9d %10d\n", kr.Kind, kr.Cases, kr.Diverging, kr.MessagesOnly, kr.Deliberate)
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
		fmt.Fprintf(&b, "not served by the hub: %s (%s)\n", u.ID(), u.Why)
	}
	return b.String()
}
