package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

const (
	// upstreamModule is the module packages are lifted from.
	upstreamModule = "k8s.io/kubernetes"
	// liftedModule is the import path the lifted tree is served under.
	liftedModule = "github.com/canopy-dev/canopy/third_party/kubernetes"
)

// pinned matches the requirement of k8s.io/kubernetes in hack/tools/kube/go.mod.
var pinned = regexp.MustCompile(`(?m)^\s*k8s\.io/kubernetes (v\S+)`)

// pinnedVersion returns the version of k8s.io/kubernetes the go.mod at path
// requires: the one the e2e tests' physical clusters run.
func pinnedVersion(gomod string) (string, error) {
	src, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	m := pinned.FindSubmatch(src)
	if m == nil {
		return "", fmt.Errorf("%s requires no %s", gomod, upstreamModule)
	}
	return string(m[1]), nil
}

// readPackages returns the package paths, relative to the upstream module,
// that the file at path lists one a line; blank lines and lines starting
// with # are left out.
func readPackages(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pkgs []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pkgs = append(pkgs, strings.TrimSuffix(line, "/"))
	}
	return pkgs, s.Err()
}

// sources returns the names of the files of the package in dir that are
// lifted: every .go file but tests, whatever its build constraints, so the
// lifted package builds wherever upstream's does.
func sources(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s has no Go source", dir)
	}
	return names, nil
}

// upstreamImports returns the packages of the upstream module, relative to
// it, that the sources of the package in dir import.
func upstreamImports(dir string) ([]string, error) {
	names, err := sources(dir)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return nil, err
			}
			if rel, ok := strings.CutPrefix(path, upstreamModule+"/"); ok {
				seen[rel] = true
			}
		}
	}
	imports := make([]string, 0, len(seen))
	for p := range seen {
		imports = append(imports, p)
	}
	sort.Strings(imports)
	return imports, nil
}

// closure returns every package of the upstream module in src that the
// packages roots import, directly or not, roots included, sorted.
func closure(src string, roots []string) ([]string, error) {
	seen := map[string]bool{}
	todo := append([]string(nil), roots...)
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		imports, err := upstreamImports(filepath.Join(src, filepath.FromSlash(p)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		todo = append(todo, imports...)
	}
	all := make([]string, 0, len(seen))
	for p := range seen {
		all = append(all, p)
	}
	sort.Strings(all)
	return all, nil
}

// missing returns the packages of the closure of listed that listed leaves
// out: a lifted package would import one that is not lifted.
func missing(src string, listed []string) ([]string, error) {
	all, err := closure(src, listed)
	if err != nil {
		return nil, err
	}
	in := map[string]bool{}
	for _, p := range listed {
		in[p] = true
	}
	var out []string
	for _, p := range all {
		if !in[p] {
			out = append(out, p)
		}
	}
	return out, nil
}

// header is the provenance comment every lifted file starts with.
func header(version, file string) string {
	return fmt.Sprintf("// Lifted by hack/lift-kubernetes.sh from %s@%s %s. DO NOT EDIT.\n\n", upstreamModule, version, file)
}

// liftFile returns upstream's file src, named file in the module, as it is
// lifted: with the provenance header, imports of the upstream module
// rewritten to the lifted tree, and formatted again, since the rewritten
// imports sort differently.
func liftFile(version, file string, src []byte) ([]byte, error) {
	rewritten := bytes.ReplaceAll(src, []byte(`"`+upstreamModule+`/`), []byte(`"`+liftedModule+`/`))
	out := append([]byte(header(version, file)), rewritten...)
	formatted, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return formatted, nil
}

// lift writes the packages, which must be closed under their imports of the
// upstream module, from the module's source in src at version into out,
// under the same paths, with upstream's LICENSE. It writes only into out,
// which must not exist or be empty of lifted code.
func lift(src, version string, packages []string, out string) error {
	if gaps, err := missing(src, packages); err != nil {
		return err
	} else if len(gaps) > 0 {
		return fmt.Errorf("the lifted packages import packages that are not listed; list them too:\n\t%s", strings.Join(gaps, "\n\t"))
	}
	license, err := os.ReadFile(filepath.Join(src, "LICENSE"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "LICENSE"), license, 0o644); err != nil {
		return err
	}
	for _, p := range packages {
		dir := filepath.Join(src, filepath.FromSlash(p))
		names, err := sources(dir)
		if err != nil {
			return err
		}
		dst := filepath.Join(out, filepath.FromSlash(p))
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		for _, name := range names {
			code, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				return err
			}
			lifted, err := liftFile(version, p+"/"+name, code)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dst, name), lifted, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
