package release

import (
	"runtime/debug"
	"strings"
)

// Registry is where Canopy's images are pushed, one repository per
// command under cmd/.
const Registry = "ghcr.io/canopy-dev"

// Image is the reference of command's image (syncer, hub) for a build
// whose main module has version.
func Image(command, version string) string {
	return Registry + "/" + command + ":" + Tag(version)
}

// Tag is version when it is a release's, vX.Y.Z, and latest for any other
// build: one from a work tree has a pseudo-version, a pre-release, a
// +dirty suffix or no version at all, and no image is tagged with it.
func Tag(version string) string {
	if strings.HasPrefix(version, "v") && !strings.ContainsAny(version, "-+") {
		return version
	}
	return "latest"
}

// Version is the version of this binary's main module, "" when it has no
// build information.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		return info.Main.Version
	}
	return ""
}
