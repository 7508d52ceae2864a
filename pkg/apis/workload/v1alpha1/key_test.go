package v1alpha1

import "testing"

// TestUsableFrom checks which logical clusters may use a target of
// root:org: its own and those below it, narrowed by the list, and never
// one outside its subtree, whatever the list says.
func TestUsableFrom(t *testing.T) {
	for _, tc := range []struct {
		listed  []string
		cluster string
		want    bool
	}{
		{nil, "root:org", true},
		{nil, "root:org:team", true},
		{nil, "root", false},
		{nil, "root:organic", false},
		{nil, "root:other", false},
		{[]string{"root:org:team"}, "root:org:team", true},
		{[]string{"root:org:team"}, "root:org:team:sub", true},
		{[]string{"root:org:team"}, "root:org", false},
		{[]string{"root:org:team"}, "root:org:teams", false},
		{[]string{"root:org:a", "root:org:b"}, "root:org:b", true},
		{[]string{"root:other"}, "root:other", false},
	} {
		if got := UsableFrom("root:org", tc.listed, tc.cluster); got != tc.want {
			t.Errorf("UsableFrom(root:org, %v, %s) = %v, want %v", tc.listed, tc.cluster, got, tc.want)
		}
	}
}

// TestDownstreamNamespace checks that two targets' copies of one
// namespace, which may share a physical cluster, never share a downstream
// namespace, nor do equal namespaces of two logical clusters; and that
// the legacy name is the one earlier releases made, which syncers adopt.
func TestDownstreamNamespace(t *testing.T) {
	a, b := TargetKey("root", "pc1-a"), TargetKey("root", "pc1-b")
	names := map[string]string{}
	for _, tc := range []struct{ key, cluster, namespace string }{
		{a, "root:a", "ns1"}, {b, "root:a", "ns1"}, {a, "root:b", "ns1"}, {a, "root:a", "ns2"},
	} {
		name := DownstreamNamespace(tc.key, tc.cluster, tc.namespace)
		if other, ok := names[name]; ok {
			t.Errorf("%v and %s share downstream namespace %s", tc, other, name)
		}
		names[name] = tc.key + "/" + tc.cluster + "/" + tc.namespace
		if len(name) > 63 {
			t.Errorf("%s is longer than a namespace name may be", name)
		}
	}
	// The name syncers before the key was in it gave root:a's ns1.
	if got, want := LegacyDownstreamNamespace("root:a", "ns1"), "canopy-b84946513f6b2adc"; got != want {
		t.Errorf("LegacyDownstreamNamespace(root:a, ns1) = %s, want %s, the name earlier releases made", got, want)
	}
	if _, ok := names[LegacyDownstreamNamespace("root:a", "ns1")]; ok {
		t.Error("a new name is the legacy name")
	}
}
