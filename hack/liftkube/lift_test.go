package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository root, relative to this package.
const root = "../.."

var (
	// provenance matches the header of a lifted file.
	provenance = regexp.MustCompile(`^// Lifted by hack/lift-kubernetes\.sh from k8s\.io/kubernetes@(v\S+) (\S+)\. DO NOT EDIT\.\n`)
	// stagingPin matches the main module's requirement of k8s.io/api.
	stagingPin = regexp.MustCompile(`(?m)^\s*k8s\.io/api (v\S+)`)
)

// TestLift lifts PACKAGES again, from the module cache, into a temporary
// directory and fails if third_party/kubernetes differs from it in any
// file: the lifted tree is upstream's at the pinned version, never edited
// by hand, and moving the pin without lifting again does not go unseen.
func TestLift(t *testing.T) {
	version, err := pinnedVersion(filepath.Join(root, kubeGoMod))
	if err != nil {
		t.Fatal(err)
	}
	src := moduleCacheDir(t, version)
	packages, err := readPackages(filepath.Join(root, packagesFile))
	if err != nil {
		t.Fatal(err)
	}
	want := t.TempDir()
	if err := lift(src, version, packages, want); err != nil {
		t.Fatal(err)
	}
	got := filepath.Join(root, liftedTree)
	wantFiles, gotFiles := files(t, want), files(t, got)
	for name := range gotFiles {
		if _, ok := wantFiles[name]; !ok {
			t.Errorf("%s/%s is not what the lift makes: remove it, or list its package in PACKAGES and run hack/lift-kubernetes.sh", liftedTree, name)
		}
	}
	for name, content := range wantFiles {
		have, ok := gotFiles[name]
		switch {
		case !ok:
			t.Errorf("%s/%s is missing: run hack/lift-kubernetes.sh", liftedTree, name)
		case !bytes.Equal(have, content):
			t.Errorf("%s/%s differs from k8s.io/kubernetes@%s's, lifted: run hack/lift-kubernetes.sh, and change upstream's code only by lifting it", liftedTree, name, version)
		}
	}
	t.Logf("%d packages, %d files of k8s.io/kubernetes@%s checked", len(packages), len(wantFiles), version)
}

// TestVersions checks, without the module cache, that every lifted file
// names the version hack/tools/kube pins, and that the main module's
// k8s.io staging modules are of the same minor: the lifted code is built
// against them.
func TestVersions(t *testing.T) {
	version, err := pinnedVersion(filepath.Join(root, kubeGoMod))
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := stagingPin.FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod requires no k8s.io/api")
	}
	// Kubernetes v1.N.x goes with staging modules v0.N.y.
	if kube, staging := minor(version), minor(string(m[1])); kube == "" || kube != staging {
		t.Errorf("hack/tools/kube pins k8s.io/kubernetes@%s, but go.mod requires k8s.io/api %s: move both to the same minor", version, m[1])
	}
	lifted := 0
	for name, content := range files(t, filepath.Join(root, liftedTree)) {
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		lifted++
		h := provenance.FindSubmatch(content)
		switch {
		case h == nil:
			t.Errorf("%s/%s has no provenance header", liftedTree, name)
		case string(h[1]) != version:
			t.Errorf("%s/%s is lifted from k8s.io/kubernetes@%s, but hack/tools/kube pins %s: run hack/lift-kubernetes.sh", liftedTree, name, h[1], version)
		case string(h[2]) != name:
			t.Errorf("%s/%s names upstream file %s", liftedTree, name, h[2])
		}
	}
	if lifted == 0 {
		t.Errorf("%s holds no lifted file", liftedTree)
	}
}

// minor returns the minor of a Kubernetes version v1.N.x or of a staging
// module version v0.N.y, or "" for anything else.
func minor(v string) string {
	parts := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 3)
	if len(parts) < 2 {
		return ""
	}
	return parts[1]
}

// moduleCacheDir returns the directory of k8s.io/kubernetes@version in the
// module cache, skipping the test when it is not there: CI builds
// hack/tools/kube, which puts it there, before running the tests.
func moduleCacheDir(t *testing.T, version string) string {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "k8s.io", "kubernetes@"+version)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("k8s.io/kubernetes@%s is not in the module cache (go mod download k8s.io/kubernetes@%s, or hack/tools/build.sh kube, puts it there): %v", version, version, err)
	}
	return dir
}

// files returns the files under dir but PACKAGES, which is all the lift
// writes, by their slash-separated paths relative to dir.
func files(t *testing.T, dir string) map[string][]byte {
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == filepath.Base(packagesFile) {
			return nil
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out[rel] = content
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNextMinor runs hack/next-minor.sh and checks that it still finds the
// places a move to the next Kubernetes minor changes: the pins, the lifted
// tree, and the provenance comments the registry keeps.
func TestNextMinor(t *testing.T) {
	cmd := exec.Command("bash", "hack/next-minor.sh")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hack/next-minor.sh: %v\n%s", err, out)
	}
	for _, want := range []string{"hack/tools/kube/go.mod", "go.mod:", "k8s.io/api v0.", "third_party/kubernetes", " files of ", "pkg/registry/core/fields.go"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("hack/next-minor.sh does not name %q:\n%s", want, out)
		}
	}
}
