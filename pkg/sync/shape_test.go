package sync

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the import path of this package's module.
const module = "github.com/canopy-dev/canopy/pkg/sync"

// decisions are the packages of the decisions one sync makes: their
// code is part of the path followed, as this package's is.
var decisions = []string{module + "/spec", module + "/status"}

// crossCutting are the packages under pkg/sync that the path may call
// without following them: each is one small job behind a narrow API
// (doc.go, "Shape"). Any other package of pkg/sync that the path calls
// is a controller's code leaking into it.
var crossCutting = []string{module + "/hubclient", module + "/patch", module + "/report", module + "/telemetry"}

// pathEntries are where one sync starts: the handlers of the informers'
// events, the transform of the hub watch's objects, and the syncs of the
// spec and status controllers' queues.
var pathEntries = []string{
	"qualify",
	"specController.hubHandler", "specController.downHandler", "specController.sync",
	"statusController.hubHandler", "statusController.downHandler", "statusController.sync",
}

// TestSyncPath follows, by the type checker's resolution of each call,
// one sync from the hub watch to the downstream apply and its status
// back, and fails when the path reaches other files than those doc.go
// names, or more than five, or calls into a package of pkg/sync that is
// neither a decision nor cross-cutting. Calls into other packages, and
// through the func fields by which controllers reach each other, end
// the path: a reader needs their contract, not their code.
func TestSyncPath(t *testing.T) {
	fset := token.NewFileSet()
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	decls := map[token.Pos]*ast.FuncDecl{}
	imp := &sourceImporter{fset: fset, info: info, decls: decls, checked: map[string]*types.Package{}}
	pkg, err := imp.check(module, ".")
	if err != nil {
		t.Fatal(err)
	}

	files := map[string]bool{}
	seen := map[*ast.FuncDecl]bool{}
	var follow func(d *ast.FuncDecl)
	follow = func(d *ast.FuncDecl) {
		if seen[d] {
			return
		}
		seen[d] = true
		files[imp.relative(fset.Position(d.Pos()).Filename)] = true
		ast.Inspect(d, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var obj types.Object
			switch fun := ast.Unparen(call.Fun).(type) {
			case *ast.Ident:
				obj = info.Uses[fun]
			case *ast.SelectorExpr:
				if s, ok := info.Selections[fun]; ok {
					obj = s.Obj()
				} else {
					obj = info.Uses[fun.Sel]
				}
			case *ast.IndexExpr:
				if id, ok := fun.X.(*ast.Ident); ok {
					obj = info.Uses[id]
				}
			}
			f, ok := obj.(*types.Func)
			if !ok || f.Pkg() == nil {
				return true
			}
			p := f.Pkg().Path()
			if strings.HasPrefix(p, module+"/") && !slices.Contains(decisions, p) && !slices.Contains(crossCutting, p) {
				t.Errorf("%s calls %s.%s: the path may call into the decisions %v and the cross-cutting %v only",
					fset.Position(call.Pos()), p, f.Name(), decisions, crossCutting)
			}
			if callee, ok := decls[f.Origin().Pos()]; ok {
				follow(callee)
			}
			return true
		})
	}
	for _, entry := range pathEntries {
		d := declOf(pkg, decls, entry)
		if d == nil {
			t.Fatalf("no function or method %s in package sync: update pathEntries and doc.go with the path", entry)
		}
		follow(d)
	}

	reached := sortedKeys(files)
	t.Logf("one sync's path: %v", reached)
	named := namedInDoc(t)
	if !slices.Equal(reached, named) {
		t.Errorf("one sync reaches %v, but doc.go names %v: write the path down as it is", reached, named)
	}
	if len(reached) > 5 {
		t.Errorf("one sync, from the hub watch to the downstream apply and back, reaches %d files, %v; keep it to five: "+
			"move a controller's work into its own file, or a cross-cutting job behind a package of its own", len(reached), reached)
	}
}

// TestControllersOwnTheirQueues fails when the Syncer holds a work
// queue, or a controller's methods spread over more than one file, or a
// controller holds no queue of its own: each controller is one type in
// one file, with its queue, as kcp's syncer's were.
func TestControllersOwnTheirQueues(t *testing.T) {
	fset := token.NewFileSet()
	files, err := parseDir(fset, ".")
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]map[string]bool{}
	queued := map[string]bool{}
	controllers := 0
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					continue
				}
				recv := receiverName(d.Recv.List[0].Type)
				if methods[recv] == nil {
					methods[recv] = map[string]bool{}
				}
				methods[recv][filepath.Base(fset.Position(d.Pos()).Filename)] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					if strings.HasSuffix(ts.Name.Name, "Controller") {
						controllers++
					}
					for _, field := range st.Fields.List {
						if isWorkQueue(field.Type) {
							queued[ts.Name.Name] = true
						}
					}
				}
			}
		}
	}
	if controllers < 7 {
		t.Fatalf("found %d controller types in package sync; is the test running in its own directory?", controllers)
	}
	if queued["Syncer"] {
		t.Error("Syncer holds a work queue: the controllers own their queues, and the Syncer only assembles them")
	}
	for recv, files := range methods {
		if !strings.HasSuffix(recv, "Controller") {
			continue
		}
		if len(files) > 1 {
			t.Errorf("the methods of %s are in %v: keep a controller in one file", recv, sortedKeys(files))
		}
		if !queued[recv] {
			t.Errorf("%s holds no work queue of its own", recv)
		}
	}
}

// parseDir parses the Go files of directory dir, without its tests.
func parseDir(fset *token.FileSet, dir string) ([]*ast.File, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func receiverName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverName(e.X)
	case *ast.IndexExpr:
		return receiverName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// isWorkQueue tells whether e is a type of client-go's workqueue.
func isWorkQueue(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok && id.Name == "workqueue" {
				found = true
			}
		}
		return !found
	})
	return found
}

// declOf is the declaration of name, "f" or "T.m", in pkg.
func declOf(pkg *types.Package, decls map[token.Pos]*ast.FuncDecl, name string) *ast.FuncDecl {
	typ, method, isMethod := strings.Cut(name, ".")
	obj := pkg.Scope().Lookup(typ)
	if isMethod {
		tn, ok := obj.(*types.TypeName)
		if !ok {
			return nil
		}
		m, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, method)
		obj = m
	}
	if obj == nil {
		return nil
	}
	return decls[obj.Pos()]
}

// namedInDoc are the files that doc.go names as one sync's path, in its
// paragraph starting "Shape".
func namedInDoc(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, paragraph := range strings.Split(f.Doc.Text(), "\n\n") {
		if strings.HasPrefix(paragraph, "Shape") {
			_, path, _ := strings.Cut(paragraph, "one sync's path:")
			path, _, _ = strings.Cut(path, ".\n")
			names := regexp.MustCompile(`[a-z/]+\.go`).FindAllString(path, -1)
			slices.Sort(names)
			return names
		}
	}
	t.Fatal(`doc.go has no paragraph starting "Shape" naming one sync's path`)
	return nil
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// sourceImporter type-checks package sync and its decision packages from
// source, recording every call's callee, and gives every other import as
// an empty package: a call into one resolves to nothing, which ends the
// path there, and checking needs no compiled dependency.
type sourceImporter struct {
	fset    *token.FileSet
	info    *types.Info
	decls   map[token.Pos]*ast.FuncDecl
	checked map[string]*types.Package
}

func (i *sourceImporter) Import(p string) (*types.Package, error) {
	if pkg, ok := i.checked[p]; ok {
		return pkg, nil
	}
	if slices.Contains(decisions, p) {
		return i.check(p, strings.TrimPrefix(p, module+"/"))
	}
	if !strings.Contains(p, ".") {
		// The standard library, which has what the checker needs to
		// know to go on past it.
		return importer.Default().Import(p)
	}
	name := path.Base(p)
	if regexp.MustCompile(`^v[0-9]+$`).MatchString(name) {
		name = path.Base(path.Dir(p))
	}
	pkg := types.NewPackage(p, name)
	pkg.MarkComplete()
	i.checked[p] = pkg
	return pkg, nil
}

// check type-checks the package p in directory dir, without its tests.
func (i *sourceImporter) check(p, dir string) (*types.Package, error) {
	files, err := parseDir(i.fset, dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				i.decls[fd.Name.Pos()] = fd
			}
		}
	}
	// Errors are expected: the other packages are empty.
	conf := types.Config{Importer: i, Error: func(error) {}}
	pkg, _ := conf.Check(p, i.fset, files, i.info)
	i.checked[p] = pkg
	return pkg, nil
}

// relative is file's path relative to package sync's directory.
func (i *sourceImporter) relative(file string) string {
	abs, _ := filepath.Abs(".")
	rel, err := filepath.Rel(abs, file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(rel)
}
