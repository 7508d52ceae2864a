package registry

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// provenance is a comment naming what was taken from k8s.io/kubernetes, at
// which version, and the files it comes from (up to the next blank
// comment line or declaration).
var (
	provenance   = regexp.MustCompile(`k8s\.io/kubernetes@(v[0-9][^\s;,]*)((?:[^\n]*\n//)*[^\n]*)`)
	upstreamFile = regexp.MustCompile(`pkg/[a-z0-9_/]+\.go`)
	pinned       = regexp.MustCompile(`(?m)^\s*k8s\.io/kubernetes (v\S+)`)
)

// TestProvenance checks that what the registry took from k8s.io/kubernetes
// names the version hack/tools/kube pins, which the physical clusters of
// the e2e tests run, and, where that module is in the module cache, files
// that exist there: moving the pin means reading the upstream files again.
func TestProvenance(t *testing.T) {
	gomod, err := os.ReadFile(filepath.Join("..", "..", "hack", "tools", "kube", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := pinned.FindSubmatch(gomod)
	if m == nil {
		t.Fatal("hack/tools/kube/go.mod requires no k8s.io/kubernetes")
	}
	version := string(m[1])
	var upstream string
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		upstream = filepath.Join(strings.TrimSpace(string(out)), "k8s.io", "kubernetes@"+version)
	}
	if _, err := os.Stat(upstream); err != nil {
		t.Logf("k8s.io/kubernetes@%s is not in the module cache; checking versions only", version)
		upstream = ""
	}
	markers := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, marker := range provenance.FindAllSubmatch(src, -1) {
			markers++
			if string(marker[1]) != version {
				t.Errorf("%s: taken from k8s.io/kubernetes@%s, but hack/tools/kube pins %s", path, marker[1], version)
			}
			files := upstreamFile.FindAll(marker[2], -1)
			if len(files) == 0 {
				t.Errorf("%s: %q names no upstream file", path, marker[0])
			}
			for _, f := range files {
				if _, err := os.Stat(filepath.Join(upstream, string(f))); upstream != "" && err != nil {
					t.Errorf("%s: upstream file %s: %v", path, f, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if markers == 0 {
		t.Error("no code names what it took from k8s.io/kubernetes")
	}
	t.Logf("%d provenance comments checked against k8s.io/kubernetes@%s", markers, version)
}
