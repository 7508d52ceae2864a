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
	paths, err := buildTools("etcd", "kube", "kwok")
	if err != nil {
		return Binaries{}, err
	}
	byName := map[string]string{}
	for _, path := range paths {
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
			return Binaries{}, fmt.Errorf("hack/tools/build.sh did not print the path of %s; it printed %q", name, paths)
		}
	}
	return b, nil
}

// MetricsServer is metrics-server's cached binary and its manifests
// directory, the kustomization kwokctl applies to register it.
type MetricsServer struct {
	Binary, Manifests string
}

var (
	metricsServerOnce sync.Once
	metricsServer     MetricsServer
	metricsServerErr  error
)

// EnsureMetricsServer returns metrics-server, building it first if it is
// missing. Only clusters that serve metrics.k8s.io need it, so tests that
// don't never pay for its build.
func EnsureMetricsServer() (MetricsServer, error) {
	metricsServerOnce.Do(func() {
		var paths []string
		if paths, metricsServerErr = buildTools("metrics-server"); metricsServerErr != nil {
			return
		}
		if len(paths) != 2 {
			metricsServerErr = fmt.Errorf("hack/tools/build.sh metrics-server printed %q, want the binary's and the manifests' paths", paths)
			return
		}
		metricsServer = MetricsServer{Binary: paths[0], Manifests: paths[1]}
	})
	return metricsServer, metricsServerErr
}

// buildTools runs hack/tools/build.sh for components and returns the paths
// it prints.
func buildTools(components ...string) ([]string, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	var stdout bytes.Buffer
	cmd := exec.Command(filepath.Join(root, "hack", "tools", "build.sh"), components...)
	cmd.Dir = root
	cmd.Stdout = &stdout
	// A cold build takes minutes; its progress shows as it goes.
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("building %s with hack/tools/build.sh failed (%v); its output is above", strings.Join(components, ", "), err)
	}
	return strings.Fields(stdout.String()), nil
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
