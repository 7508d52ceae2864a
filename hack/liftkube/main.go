package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Paths relative to the root of the repository.
const (
	kubeGoMod    = "hack/tools/kube/go.mod"
	liftedTree   = "third_party/kubernetes"
	packagesFile = "third_party/kubernetes/PACKAGES"
)

func main() {
	printClosure := flag.Bool("closure", false, "print the closure of the packages PACKAGES lists, to paste into it, and lift nothing")
	flag.Parse()
	if err := run(*printClosure); err != nil {
		fmt.Fprintf(os.Stderr, "lift-kubernetes: %v\n", err)
		os.Exit(1)
	}
}

func run(printClosure bool) error {
	version, err := pinnedVersion(kubeGoMod)
	if err != nil {
		return err
	}
	packages, err := readPackages(packagesFile)
	if err != nil {
		return err
	}
	src, err := download(version)
	if err != nil {
		return err
	}
	if printClosure {
		all, err := closure(src, packages)
		if err != nil {
			return err
		}
		fmt.Println(strings.Join(all, "\n"))
		return nil
	}
	// Lift into a directory beside the tree, then swap it in, so a lift that
	// fails halfway leaves the tree as it was.
	tmp, err := os.MkdirTemp(liftedTree, ".lift-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := lift(src, version, packages, tmp); err != nil {
		return err
	}
	// Everything in the tree but PACKAGES is lifted: replace it all, so a
	// package left out of PACKAGES leaves nothing behind.
	old, err := os.ReadDir(liftedTree)
	if err != nil {
		return err
	}
	for _, e := range old {
		if name := e.Name(); name != filepath.Base(packagesFile) && name != filepath.Base(tmp) {
			if err := os.RemoveAll(filepath.Join(liftedTree, name)); err != nil {
				return err
			}
		}
	}
	lifted, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range lifted {
		if err := os.Rename(filepath.Join(tmp, e.Name()), filepath.Join(liftedTree, e.Name())); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "lifted %d packages of k8s.io/kubernetes@%s into %s\n", len(packages), version, liftedTree)
	return nil
}

// download returns the directory of k8s.io/kubernetes at version in the
// module cache, fetching it through the module proxy if it is not there.
func download(version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", upstreamModule+"@"+version)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w", upstreamModule, version, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return "", err
	}
	return mod.Dir, nil
}
