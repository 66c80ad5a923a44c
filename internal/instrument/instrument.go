package instrument

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// DefaultRuntimeImport is the import path of the runtime package that
// instrumented code calls.
const DefaultRuntimeImport = "interleave.dev/rt"

// Options configures a rewrite.
type Options struct {
	// RuntimeImport is the import path of the runtime package
	// (default DefaultRuntimeImport).
	RuntimeImport string

	// Symbolic makes every function of the file report its branch
	// conditions, symbolic writes, local variables and call arguments to
	// strategy mpc, not only fuzz bodies (see symbolic.go). It is meant
	// for the code under test, the main module's.
	Symbolic bool
}

// Warning is a construct left as it was, with its original position.
type Warning struct {
	Pos token.Position
	Msg string
}

// String formats w as "file:line:col: msg".
func (w Warning) String() string { return fmt.Sprintf("%s: %s", w.Pos, w.Msg) }

// rtAlias is the name under which rewritten files import the runtime;
// user code cannot declare identifiers starting with "__rt" by accident.
const rtAlias = "__rt"

// File rewrites one parsed, type-checked file. filename is the original
// path; the output starts with line directives so that compiler errors,
// panics and reports name the original file and line. When the file has
// nothing to rewrite the original source is returned unchanged.
//
// The source text is read from the file named in fset for f (normally
// filename itself) and must match what was parsed.
func File(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string, opts Options) (src []byte, warnings []Warning, err error) {
	src, _, warnings, err = file(fset, f, pkg, info, filename, opts)
	return src, warnings, err
}

// file is File, also reporting whether anything was rewritten.
func file(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string, opts Options) ([]byte, bool, []Warning, error) {
	tf := fset.File(f.Pos())
	if tf == nil {
		return nil, false, nil, fmt.Errorf("instrument %s: file not in the file set", filename)
	}
	orig, err := os.ReadFile(tf.Name())
	if err != nil {
		return nil, false, nil, fmt.Errorf("instrument %s: reading source: %w", filename, err)
	}
	if len(orig) != tf.Size() {
		return nil, false, nil, fmt.Errorf("instrument %s: source of %s changed since it was parsed", filename, tf.Name())
	}
	out, changed, warns, err := rewriteFile(fset, f, orig, pkg, info, filename, opts)
	sortWarnings(warns)
	if err != nil {
		return nil, false, warns, err
	}
	return out, changed, warns, nil
}

// Package rewrites every file of a go/packages package (loaded with at
// least NeedName|NeedFiles|NeedCompiledGoFiles|NeedSyntax|NeedTypes|
// NeedTypesInfo), returning original path -> new source. Files with
// nothing to rewrite are omitted.
func Package(pkg *packages.Package, opts Options) (map[string][]byte, []Warning, error) {
	if pkg.Types == nil || pkg.TypesInfo == nil || pkg.Fset == nil {
		return nil, nil, fmt.Errorf("instrument %s: package loaded without syntax and type information", pkg.PkgPath)
	}
	if len(pkg.Errors) > 0 {
		return nil, nil, fmt.Errorf("instrument %s: package has errors: %v", pkg.PkgPath, pkg.Errors[0])
	}
	out := make(map[string][]byte)
	var warns []Warning
	for _, f := range pkg.Syntax {
		name := pkg.Fset.File(f.Pos()).Name()
		src, changed, ws, err := file(pkg.Fset, f, pkg.Types, pkg.TypesInfo, name, opts)
		warns = append(warns, ws...)
		if err != nil {
			return nil, warns, err
		}
		if changed {
			out[name] = src
		}
	}
	return out, warns, nil
}

// rewriter holds the state of the rewrite of one file.
type rewriter struct {
	fset     *token.FileSet
	file     *ast.File
	tf       *token.File
	src      []byte
	pkg      *types.Package
	info     *types.Info
	filename string
	opts     Options

	edits     editSet
	sites     []int    // line, col pairs
	siteNames []string // the operands of each site (operandEntry)
	sitesVar  string
	warnings  []Warning
	ntmp      int

	imports  *importSet
	recv2    map[*ast.UnaryExpr]bool // receives in comma-ok form
	shared   map[types.Object]bool   // local variables that may be shared
	parents  map[ast.Node]ast.Node
	fuzzLits []*ast.FuncLit      // fuzz bodies wrapped in rt.FuzzBody
	readOnly map[*types.Var]bool // []byte variables whose bytes are only read (bytesReadOnly)
	// locksThreads: the file refers to runtime.LockOSThread.
	locksThreads bool
	// promoted declares the modeled methods promoted through embedded
	// fields on the structs that embed them (embedded.go).
	promoted string
}

func rewriteFile(fset *token.FileSet, f *ast.File, src []byte, pkg *types.Package, info *types.Info, filename string, opts Options) ([]byte, bool, []Warning, error) {
	if opts.RuntimeImport == "" {
		opts.RuntimeImport = DefaultRuntimeImport
	}
	r := &rewriter{
		fset: fset, file: f, tf: fset.File(f.Pos()), src: src, pkg: pkg, info: info,
		filename: filename, opts: opts,
		recv2: make(map[*ast.UnaryExpr]bool),
	}
	h := fnv.New32a()
	h.Write([]byte(filepath.Base(filename)))
	r.sitesVar = fmt.Sprintf("__rtSites_%08x", h.Sum32())
	if reason := r.unsupportedFile(); reason != "" {
		r.warnf(f.Package, "file left as it is: %s", reason)
		return src, false, r.warnings, nil
	}
	r.imports = newImportSet(r)
	r.parents = parentMap(f)
	r.shared = r.sharedLocals()

	r.walk(f)
	r.pipes()
	r.testFuncs()
	r.memory()
	r.branches()
	r.breakpoints()
	r.promoted = r.promotedModels()

	r.locksThreads = r.refersToLockOSThread()
	if len(r.edits.edits) == 0 && !r.locksThreads && r.promoted == "" {
		return src, false, r.warnings, nil
	}
	out, err := r.finish()
	if err != nil {
		return nil, false, r.warnings, fmt.Errorf("instrument %s: %w", filename, err)
	}
	return out, true, r.warnings, nil
}

// refersToLockOSThread reports whether the file refers to
// runtime.LockOSThread. Such a file registers, as the program starts,
// that controlled goroutines must not run on coroutines
// (rt.LocksThreads): a goroutine may end with its thread locked, which a
// coroutine cannot.
func (r *rewriter) refersToLockOSThread() bool {
	found := false
	ast.Inspect(r.file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "LockOSThread" {
			if fn, ok := r.info.Uses[id].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "runtime" {
				found = true
			}
		}
		return !found
	})
	return found
}

// unsupportedFile returns why the whole file is left alone, or "".
func (r *rewriter) unsupportedFile() string {
	for _, imp := range r.file.Imports {
		if imp.Path.Value == `"C"` {
			return "cgo files are not instrumented"
		}
	}
	for _, cg := range r.file.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//line ") || strings.HasPrefix(c.Text, "/*line ") {
				return "the file has its own line directives"
			}
		}
	}
	if r.tf.Size() != len(r.src) {
		return "source does not match the parsed file"
	}
	return ""
}

// finish renders the edits, adds imports and the site registration, and
// checks that the result parses.
func (r *rewriter) finish() ([]byte, error) {
	// The runtime import, and imports of packages named by generated code,
	// go on the line of the package clause.
	r.edits.insert(r.off(r.file.Name.End()), r.imports.decls())
	trailer := fmt.Sprintf("\nvar %s = %s.RegisterFile(%s, %s%s)\n", r.sitesVar, rtAlias, quote(r.filename), quote(r.nameTable()), r.siteList())
	trailer += r.promoted
	if r.locksThreads {
		trailer += fmt.Sprintf("\nvar _ = %s.LocksThreads()\n", rtAlias)
	}
	header, err := r.languageHeader()
	if err != nil {
		return nil, err
	}
	out, err := render(r.src, r.filename, &r.edits, trailer, header)
	if err != nil {
		return nil, err
	}
	// Imports whose every use was rewritten away become blank imports.
	unused, err := unusedImports(out, r)
	if err != nil {
		return nil, err
	}
	if len(unused) > 0 {
		for _, spec := range unused {
			if spec.Name != nil {
				r.edits.add(r.off(spec.Name.Pos()), r.off(spec.Name.End()), text("_"))
			} else {
				r.edits.insert(r.off(spec.Path.Pos()), "_ ")
			}
		}
		out, err = render(r.src, r.filename, &r.edits, trailer, header)
		if err != nil {
			return nil, err
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), r.filename, out, parser.SkipObjectResolution); err != nil {
		return nil, fmt.Errorf("internal error: rewritten source does not parse: %w", err)
	}
	return out, nil
}

// unusedImports returns the original import specs whose name no longer
// appears as a qualifier in out.
func unusedImports(out []byte, r *rewriter) ([]*ast.ImportSpec, error) {
	nf, err := parser.ParseFile(token.NewFileSet(), r.filename, out, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("internal error: rewritten source does not parse: %w", err)
	}
	used := make(map[string]bool)
	ast.Inspect(nf, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	var unused []*ast.ImportSpec
	for _, spec := range r.file.Imports {
		name := importName(r.info, spec)
		if name == "" || name == "_" || name == "." {
			continue
		}
		if !used[name] {
			unused = append(unused, spec)
		}
	}
	return unused, nil
}

// importName returns the name under which spec's package is visible in
// the file, "_" or "." for blank and dot imports, "" if unknown.
func importName(info *types.Info, spec *ast.ImportSpec) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	if pn, ok := info.Implicits[spec].(*types.PkgName); ok {
		return pn.Name()
	}
	return ""
}

// off returns the file offset of pos.
func (r *rewriter) off(pos token.Pos) int { return r.tf.Offset(pos) }

// position returns the original position of pos.
func (r *rewriter) position(pos token.Pos) token.Position {
	p := r.fset.PositionFor(pos, false)
	p.Filename = r.filename
	return p
}

// tmp returns a fresh temporary name.
func (r *rewriter) tmp(kind string) string {
	r.ntmp++
	return fmt.Sprintf("__rt%s%d", kind, r.ntmp)
}

// rt returns the qualified name of a runtime function.
func (r *rewriter) rt(name string) string { return rtAlias + "." + name }

func (r *rewriter) warnf(pos token.Pos, format string, args ...any) {
	r.warnings = append(r.warnings, Warning{Pos: r.position(pos), Msg: fmt.Sprintf(format, args...)})
}

// spanOf returns the span of original text covered by n.
func (r *rewriter) spanOf(n ast.Node) part { return span(r.off(n.Pos()), r.off(n.End())) }

// softOf returns the soft span of n: text that moves, copied without a
// line directive when nothing inside it is rewritten.
func (r *rewriter) softOf(n ast.Node) part { return softSpan(r.off(n.Pos()), r.off(n.End())) }

// replace records an edit replacing node n.
func (r *rewriter) replace(n ast.Node, parts ...part) {
	r.edits.add(r.off(n.Pos()), r.off(n.End()), parts...)
}

// typeOf returns the type of e, or nil.
func (r *rewriter) typeOf(e ast.Expr) types.Type { return r.info.TypeOf(e) }

// isConst reports whether e is a constant (or nil) expression, which can
// be evaluated any number of times and anywhere.
func (r *rewriter) isConst(e ast.Expr) bool {
	tv, ok := r.info.Types[e]
	return ok && (tv.Value != nil || tv.IsNil())
}

// parentMap maps each node of f to its parent.
func parentMap(f *ast.File) map[ast.Node]ast.Node {
	m := make(map[ast.Node]ast.Node)
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			m[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return m
}

// sortWarnings orders warnings by position.
func sortWarnings(ws []Warning) {
	sort.SliceStable(ws, func(i, j int) bool {
		a, b := ws[i].Pos, ws[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}
