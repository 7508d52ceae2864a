package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// builtTool returns the paths of the cached binaries (and directories) of
// a component of hack/tools/build.sh by their names, building them first
// when missing: a cold build takes minutes, a warm one nothing.
func builtTool(t *testing.T, component string) map[string]string {
	t.Helper()
	var stdout bytes.Buffer
	// Tests run in their package's directory, e2e.
	cmd := exec.Command(filepath.Join("..", "hack", "tools", "build.sh"), component)
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hack/tools/build.sh %s: %v; its output is above", component, err)
	}
	paths := map[string]string{}
	for _, path := range strings.Fields(stdout.String()) {
		paths[filepath.Base(path)] = path
	}
	return paths
}
