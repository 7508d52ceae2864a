package release

import "testing"

func TestImage(t *testing.T) {
	for version, want := range map[string]string{
		"v1.2.3":                             "ghcr.io/canopy-dev/syncer:v1.2.3",
		"v1.2.3-rc.1":                        "ghcr.io/canopy-dev/syncer:latest",
		"v1.2.3+dirty":                       "ghcr.io/canopy-dev/syncer:latest",
		"v0.0.0-20260101000000-0123456789ab": "ghcr.io/canopy-dev/syncer:latest",
		"(devel)":                            "ghcr.io/canopy-dev/syncer:latest",
		"":                                   "ghcr.io/canopy-dev/syncer:latest",
	} {
		if got := Image("syncer", version); got != want {
			t.Errorf("Image(syncer, %q) = %s, want %s", version, got, want)
		}
	}
}
