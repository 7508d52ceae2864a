package hub

import (
	utilversion "k8s.io/apimachinery/pkg/util/version"
	apimachineryversion "k8s.io/apimachinery/pkg/version"
	basecompatibility "k8s.io/component-base/compatibility"

	"github.com/canopy-dev/canopy/pkg/release"
)

// minimumEmulationVersion is the oldest emulation version k8s.io/apiserver
// allows (compatibility.minimumKubeEmulationVersion, k8s.io/apiserver
// v0.37.2 pkg/util/compatibility/version.go).
var minimumEmulationVersion = utilversion.MajorMinor(1, 31)

// effectiveVersion is the version the hub serves as: the Kubernetes release
// its libraries implement (release.Kube), also at /version. It replaces
// compatibility.DefaultBuildEffectiveVersion, which reads the version
// Kubernetes stamps with -ldflags and, unstamped, serves
// v0.0.0-master+$Format:%H$, which kubectl version and Helm refuse. The
// emulation version stays the binary's major.minor, as there, so the APIs
// and feature gates are those of the release the libraries were cut for;
// the floors are upstream's: three minor versions back, not below 1.31.
func effectiveVersion() basecompatibility.EffectiveVersion {
	info := release.Kube()
	binary := utilversion.MustParseSemantic(info.GitVersion).WithBuildMetadata("")
	floor := utilversion.MajorMinor(binary.Major(), binary.Minor()).SubtractMinor(3)
	if floor.LessThan(minimumEmulationVersion) {
		floor = minimumEmulationVersion
	}
	return servedVersion{
		MutableEffectiveVersion: basecompatibility.NewEffectiveVersion(binary, false, floor, floor),
		info:                    info,
	}
}

// servedVersion is an effective version whose Info is the hub's own build
// information rather than the unstamped one of k8s.io/component-base.
type servedVersion struct {
	basecompatibility.MutableEffectiveVersion
	info apimachineryversion.Info
}

func (v servedVersion) Info() *apimachineryversion.Info {
	info := v.MutableEffectiveVersion.Info()
	info.GitVersion, info.GitCommit, info.GitTreeState, info.BuildDate = v.info.GitVersion, v.info.GitCommit, v.info.GitTreeState, v.info.BuildDate
	return info
}
