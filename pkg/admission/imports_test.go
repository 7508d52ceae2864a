package admission

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// controllers is the import path prefix no admission plugin may import.
const controllers = "github.com/canopy-dev/canopy/pkg/controller"

// TestNoControllerImports fails for each Go file under pkg/admission,
// tests included, that imports a package of pkg/controller.
func TestNoControllerImports(t *testing.T) {
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if p == controllers || strings.HasPrefix(p, controllers+"/") {
				t.Errorf("pkg/admission/%s imports %s: admission plugins read the shared informers (pkg/informer), not the controllers' code", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 {
		t.Fatalf("found %d Go files under pkg/admission; is the test running in its own directory?", files)
	}
}
