package logicalcluster

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, valid := range []string{"root", "root:a", "root:org:team", "root:a-1:b2", "root:" + strings.Repeat("x", 63)} {
		if n, err := Parse(valid); err != nil || string(n) != valid {
			t.Errorf("Parse(%q) = %q, %v; want it accepted", valid, n, err)
		}
	}
	for _, invalid := range []string{"", "a", "rooty", "root:", "root::a", "root:A", "root:a_b", "root:-a", "root:a-", "root:a/b", "org:root", ":root", "root:" + strings.Repeat("x", 64)} {
		if n, err := Parse(invalid); err == nil {
			t.Errorf("Parse(%q) = %q; want an error", invalid, n)
		} else if !strings.Contains(err.Error(), "invalid logical cluster name") {
			t.Errorf("Parse(%q) error %q does not say what is invalid", invalid, err)
		}
	}
}

func TestParentAndBase(t *testing.T) {
	n := Name("root:org:team")
	if p, ok := n.Parent(); !ok || p != "root:org" {
		t.Errorf("Parent of %s = %q, %v", n, p, ok)
	}
	if b := n.Base(); b != "team" {
		t.Errorf("Base of %s = %q", n, b)
	}
	if p, ok := Root.Parent(); ok {
		t.Errorf("root has parent %q", p)
	}
	if c, err := n.Child("x"); err != nil || c != "root:org:team:x" {
		t.Errorf("Child x of %s = %q, %v", n, c, err)
	}
	if c, err := n.Child("X"); err == nil {
		t.Errorf("Child X of %s = %q; want an error", n, c)
	}
	if b := Root.Base(); b != "root" {
		t.Errorf("Base of root = %q", b)
	}
}
