package release

import (
	"fmt"
	"runtime/debug"
	"strings"

	utilversion "k8s.io/apimachinery/pkg/util/version"
	apimachineryversion "k8s.io/apimachinery/pkg/version"
	baseversion "k8s.io/component-base/version"
)

// kubeModules are the libraries whose version says which Kubernetes
// release a build implements, k8s.io/apiserver v0.37.2 being Kubernetes
// v1.37.2: the hub's API server library first, then one this package
// links itself, for a binary without the former.
var kubeModules = []string{"k8s.io/apiserver", "k8s.io/component-base"}

// Kube is what the hub reports at /version: the Kubernetes version its
// libraries implement, with the build metadata "+canopy" and this build's
// version, and the commit it was built from. kubectl version and Helm's
// kubeVersion constraints read gitVersion, which Kubernetes stamps with
// -ldflags; Canopy reads it from the build information instead, which go
// build, go install …@version and go run all record, so that no way of
// building leaves the placeholder v0.0.0-master.
func Kube() apimachineryversion.Info {
	info, _ := debug.ReadBuildInfo()
	return kubeFrom(info)
}

// kubeFrom is Kube for the build information info, which may be nil.
func kubeFrom(info *debug.BuildInfo) apimachineryversion.Info {
	v := kubeVersion(info)
	out := baseversion.Get()
	out.Major = fmt.Sprint(v.Major())
	out.Minor = fmt.Sprint(v.Minor())
	out.GitVersion = "v" + v.String() + "+canopy"
	out.GitCommit, out.GitTreeState = "", ""
	if info == nil {
		return out
	}
	if build := buildMetadata(info.Main.Version); build != "" {
		out.GitVersion += "." + build
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			out.GitCommit = s.Value
		case "vcs.modified":
			out.GitTreeState = map[string]string{"true": "dirty", "false": "clean"}[s.Value]
		case "vcs.time":
			out.BuildDate = s.Value
		}
	}
	return out
}

// kubeVersion is the Kubernetes version of the first of kubeModules the
// build links: v0.X.Y is v1.X.Y, pre-releases kept. A build without that
// information (none should be) gets the release the libraries were cut
// for, at patch 0.
func kubeVersion(info *debug.BuildInfo) *utilversion.Version {
	if info != nil {
		for _, module := range kubeModules {
			for _, dep := range info.Deps {
				if v, err := utilversion.ParseSemantic(dep.Version); dep.Path == module && err == nil && v.Major() == 0 {
					return v.WithMajor(1).WithBuildMetadata("")
				}
			}
		}
	}
	return utilversion.MustParseSemantic(baseversion.DefaultKubeBinaryVersion + ".0")
}

// buildMetadata is a main module version as semver build metadata:
// dot-separated identifiers of letters, digits and hyphens. A pseudo-version
// v0.0.0-20260101000000-0123456789ab+dirty becomes
// v0.0.0-20260101000000-0123456789ab.dirty; (devel), what go run
// records, gives nothing.
func buildMetadata(mainVersion string) string {
	if mainVersion == "" || mainVersion == "(devel)" {
		return ""
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			return r
		default:
			return '.'
		}
	}, mainVersion)
}
