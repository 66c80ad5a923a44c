package driver

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

// standIn is a trivial instrumenter for the driver's tests, until the real
// one lands: it imports the runtime and registers the file's position, so
// that the build must resolve interleave.dev/rt through the injected
// module, and keeps positions with line directives.
func standIn(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string) ([]byte, []Warning, error) {
	astutil.AddNamedImport(fset, f, "interleave_rt", RuntimeImport)
	f.Decls = append(f.Decls, &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names: []*ast.Ident{ast.NewIdent("_")},
		Values: []ast.Expr{&ast.CallExpr{
			Fun:  &ast.SelectorExpr{X: ast.NewIdent("interleave_rt"), Sel: ast.NewIdent("RegisterFile")},
			Args: []ast.Expr{&ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(filename)}, &ast.BasicLit{Kind: token.STRING, Value: `""`}},
		}},
	}}})
	var buf bytes.Buffer
	cfg := printer.Config{Mode: printer.SourcePos | printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&buf, fset, f); err != nil {
		return nil, nil, err
	}
	var warns []Warning
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Unsupported" {
			warns = append(warns, Warning{Pos: fset.Position(fd.Pos()), Msg: "stand-in warning"})
		}
	}
	return buf.Bytes(), warns, nil
}
