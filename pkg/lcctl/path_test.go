package lcctl

import (
	"testing"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func TestSplitServer(t *testing.T) {
	for _, tc := range []struct{ server, base, name string }{
		{"https://127.0.0.1:6443/clusters/root", "https://127.0.0.1:6443", "root"},
		{"https://127.0.0.1:6443/clusters/root:org:team", "https://127.0.0.1:6443", "root:org:team"},
		{"https://127.0.0.1:6443/clusters/root:a/", "https://127.0.0.1:6443", "root:a"},
		{"https://hub.example.com/canopy/clusters/root:a", "https://hub.example.com/canopy", "root:a"},
		{"https://127.0.0.1:6443", "https://127.0.0.1:6443", "root"},
		{"https://127.0.0.1:6443/", "https://127.0.0.1:6443", "root"},
	} {
		base, name, err := SplitServer(tc.server)
		if err != nil || base != tc.base || string(name) != tc.name {
			t.Errorf("SplitServer(%q) = %q, %q, %v; want %q, %q", tc.server, base, name, err, tc.base, tc.name)
		}
	}
	for _, bad := range []string{
		"127.0.0.1:6443/clusters/root",
		"/clusters/root",
		"https://127.0.0.1:6443/clusters/root:Bad",
		"https://127.0.0.1:6443/clusters/",
		"https://127.0.0.1:6443/clusters/root:a/api",
		"https://127.0.0.1:6443/clusters/root?x=y",
	} {
		if base, name, err := SplitServer(bad); err == nil {
			t.Errorf("SplitServer(%q) = %q, %q; want an error", bad, base, name)
		}
	}
}

func TestServerForRoundTrips(t *testing.T) {
	for _, n := range []logicalcluster.Name{"root", "root:a", "root:org:team"} {
		server := ServerFor("https://hub:6443", n)
		if base, got, err := SplitServer(server); err != nil || base != "https://hub:6443" || got != n {
			t.Errorf("SplitServer(ServerFor(%q)) = %q, %q, %v", n, base, got, err)
		}
	}
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct{ current, arg, want string }{
		{"root:org:team", "root", "root"},
		{"root:org:team", "root:other", "root:other"},
		{"root:org:team", "..", "root:org"},
		{"root:org:team", "..:..", "root"},
		{"root:org:team", "..:b", "root:org:b"},
		{"root:org", "team", "root:org:team"},
		{"root", "org:team", "root:org:team"},
		{"root:a", "root:b:..:c", "root:c"},
	} {
		got, err := Resolve(logicalcluster.Name(tc.current), tc.arg)
		if err != nil || string(got) != tc.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", tc.current, tc.arg, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ current, arg string }{
		{"root", ".."},
		{"root:a", "..:.."},
		{"root", ""},
		{"root", "Team"},
		{"root", "a::b"},
		{"root", "-"},
	} {
		if got, err := Resolve(logicalcluster.Name(tc.current), tc.arg); err == nil {
			t.Errorf("Resolve(%q, %q) = %q; want an error", tc.current, tc.arg, got)
		}
	}
}

func TestFormat(t *testing.T) {
	tree := &Node{Name: "root", Children: []*Node{
		{Name: "a", Phase: "Ready", Children: []*Node{
			{Name: "child", Phase: "Ready"},
			{Name: "new", Phase: "Initializing"},
		}},
		{Name: "b", Phase: "Ready", Children: []*Node{
			{Name: "c", Phase: "Ready", Children: []*Node{{Name: "d", Phase: "Terminating"}}},
		}},
	}}
	want := `root
├── a
│   ├── child
│   └── new (Initializing)
└── b
    └── c
        └── d (Terminating)
`
	if got := tree.Format(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := (&Node{Name: "root:a"}).Format(); got != "root:a\n" {
		t.Errorf("a leaf formats as %q", got)
	}
}
