package hub

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the package may be, from
// its func line to its closing brace: about a screen, past which
// assembling the hub becomes hard to follow again.
const maxFuncLines = 80

// TestFunctionLength keeps the hub's assembly in small functions: each
// step of configuration, API installation and controller installation
// has its own.
func TestFunctionLength(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			checked++
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if lines := end.Line - start.Line + 1; lines > maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines long, more than %d: split it", name, start.Line, funcName(fn), lines, maxFuncLines)
			}
		}
	}
	if checked == 0 {
		t.Fatal("found no functions to check in the package's files")
	}
}

// funcName is fn's name, with its receiver's type for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}
