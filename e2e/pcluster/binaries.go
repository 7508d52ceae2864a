package pcluster

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Binaries are the absolute paths of the cached binaries clusters run.
type Binaries struct {
	Etcd, KubeApiserver, KubeControllerManager, KubeScheduler string
	Kwok, Kwokctl                                             string
}

var (
	binariesOnce sync.Once
	binaries     Binaries
	binariesErr  error
)

// EnsureBinaries returns the cached binaries, building those that are
// missing first. The build runs at most once per process; the build
// script's own lock makes concurrent processes share one build.
func EnsureBinaries() (Binaries, error) {
	binariesOnce.Do(func() { binaries, binariesErr = build() })
	return binaries, binariesErr
}

func build() (Binaries, error) {
	root, err := repoRoot()
	if err != nil {
		return Binaries{}, err
	}
	var stdout bytes.Buffer
	cmd := exec.Command(filepath.Join(root, "hack", "tools", "build.sh"), "etcd", "kube", "kwok")
	cmd.Dir = root
	cmd.Stdout = &stdout
	// A cold build takes minutes; its progress shows as it goes.
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return Binaries{}, fmt.Errorf("building the physical-cluster binaries with hack/tools/build.sh failed (%v); its output is above", err)
	}
	byName := map[string]string{}
	for _, path := range strings.Fields(stdout.String()) {
		byName[filepath.Base(path)] = path
	}
	b := Binaries{
		Etcd:                  byName["etcd"],
		KubeApiserver:         byName["kube-apiserver"],
		KubeControllerManager: byName["kube-controller-manager"],
		KubeScheduler:         byName["kube-scheduler"],
		Kwok:                  byName["kwok"],
		Kwokctl:               byName["kwokctl"],
	}
	for name, path := range map[string]string{
		"etcd": b.Etcd, "kube-apiserver": b.KubeApiserver, "kube-controller-manager": b.KubeControllerManager,
		"kube-scheduler": b.KubeScheduler, "kwok": b.Kwok, "kwokctl": b.Kwokctl,
	} {
		if path == "" {
			return Binaries{}, fmt.Errorf("hack/tools/build.sh did not print the path of %s; it printed:\n%s", name, stdout.Bytes())
		}
	}
	return b, nil
}

// repoRoot finds the repository from the working directory, which is a
// package directory under go test and the repository root under make.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "hack", "tools", "build.sh")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("hack/tools/build.sh not found above the working directory; run from inside the canopy repository")
		}
		dir = parent
	}
}
