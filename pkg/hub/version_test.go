package hub

import (
	"strings"
	"testing"

	baseversion "k8s.io/component-base/version"
)

// The hub's effective version is valid for the apiserver, emulates the
// release its feature gates were cut for, and reports the hub's version.
func TestEffectiveVersion(t *testing.T) {
	v := effectiveVersion()
	if errs := v.Validate(); len(errs) > 0 {
		t.Errorf("effective version %s: %v", v, errs)
	}
	if got := v.EmulationVersion().String(); got != baseversion.DefaultKubeBinaryVersion {
		t.Errorf("emulation version %s, want %s", got, baseversion.DefaultKubeBinaryVersion)
	}
	info := v.Info()
	if info.Major != "1" || !strings.HasPrefix(info.GitVersion, "v1."+info.Minor+".") || !strings.Contains(info.GitVersion, "+canopy") {
		t.Errorf("/version would say major %q, minor %q, gitVersion %q", info.Major, info.Minor, info.GitVersion)
	}
	if info.EmulationMinor != info.Minor {
		t.Errorf("/version would say emulation minor %q, minor %q", info.EmulationMinor, info.Minor)
	}
}
