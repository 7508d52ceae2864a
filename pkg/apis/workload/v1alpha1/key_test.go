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
