package release

import (
	"runtime/debug"
	"testing"

	utilversion "k8s.io/apimachinery/pkg/util/version"
)

func TestKube(t *testing.T) {
	apiserver := func(v string) []*debug.Module {
		return []*debug.Module{{Path: "k8s.io/api", Version: "v0.36.0"}, {Path: "k8s.io/apiserver", Version: v}}
	}
	for _, c := range []struct {
		name                    string
		info                    *debug.BuildInfo
		gitVersion, minor       string
		commit, tree, buildDate string
	}{
		{
			name: "go build in a modified work tree",
			info: &debug.BuildInfo{
				Main: debug.Module{Version: "v0.0.0-20261125175100-d2afbc9abcde+dirty"},
				Deps: apiserver("v0.37.2"),
				Settings: []debug.BuildSetting{
					{Key: "vcs.revision", Value: "d2afbc9abcdef0123456789abcdef0123456789a"},
					{Key: "vcs.modified", Value: "true"},
					{Key: "vcs.time", Value: "2026-11-25T17:51:00Z"},
				},
			},
			gitVersion: "v1.37.2+canopy.v0.0.0-20261125175100-d2afbc9abcde.dirty", minor: "37",
			commit: "d2afbc9abcdef0123456789abcdef0123456789a", tree: "dirty", buildDate: "2026-11-25T17:51:00Z",
		},
		{
			name:       "go install of a release",
			info:       &debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}, Deps: apiserver("v0.37.2")},
			gitVersion: "v1.37.2+canopy.v0.4.0", minor: "37", buildDate: "1970-01-01T00:00:00Z",
		},
		{
			name:       "go run",
			info:       &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Deps: apiserver("v0.38.0-rc.1")},
			gitVersion: "v1.38.0-rc.1+canopy", minor: "38", buildDate: "1970-01-01T00:00:00Z",
		},
		{
			name:       "a binary without k8s.io/apiserver",
			info:       &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Deps: []*debug.Module{{Path: "k8s.io/component-base", Version: "v0.37.1"}}},
			gitVersion: "v1.37.1+canopy", minor: "37", buildDate: "1970-01-01T00:00:00Z",
		},
		{
			name:       "no build information",
			gitVersion: "v1.37.0+canopy", minor: "37", buildDate: "1970-01-01T00:00:00Z",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := kubeFrom(c.info)
			if got.GitVersion != c.gitVersion || got.Major != "1" || got.Minor != c.minor {
				t.Errorf("version %s (major %q, minor %q), want %s (1, %s)", got.GitVersion, got.Major, got.Minor, c.gitVersion, c.minor)
			}
			if got.GitCommit != c.commit || got.GitTreeState != c.tree || got.BuildDate != c.buildDate {
				t.Errorf("commit %q, tree %q, date %q; want %q, %q, %q", got.GitCommit, got.GitTreeState, got.BuildDate, c.commit, c.tree, c.buildDate)
			}
			if _, err := utilversion.ParseSemantic(got.GitVersion); err != nil {
				t.Errorf("gitVersion %s is not semantic: %v", got.GitVersion, err)
			}
		})
	}
}
