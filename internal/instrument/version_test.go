package instrument

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOldLanguageVersion rewrites a file of a go1.16 module, which may not
// call generic functions: the output upgrades the file to go1.21 with a
// //go:build line and must build in such a module.
func TestOldLanguageVersion(t *testing.T) {
	src := `// +build !windows

package old

func Pipe(c chan int) int {
	go func() { c <- 1 }()
	for v := range c {
		return v
	}
	return 0
}
`
	dir := t.TempDir()
	path := filepath.Join(dir, "old.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{GoVersion: "go1.16"}
	pkg, err := conf.Check("example.com/old", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	out, warns, err := File(fset, f, pkg, info, path, Options{})
	if err != nil || len(warns) > 0 {
		t.Fatalf("err %v, warnings %v", err, warns)
	}
	if !strings.HasPrefix(string(out), "//go:build !windows && go1.21\n\n//line ") {
		t.Errorf("no go1.21 upgrade in the header:\n%s", out)
	}
	if testing.Short() {
		return
	}
	mod := tempModule(t)
	gomod := filepath.Join(mod, "go.mod")
	b, _ := os.ReadFile(gomod)
	if err := os.WriteFile(gomod, []byte(strings.Replace(string(b), "go 1.26", "go 1.16", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "old.go"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	if o, err := goCmd(t, mod, "vet", "."); err != nil {
		t.Fatalf("vet: %v\n%s\n%s", err, o, out)
	}
}
