package instrument

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"
)

// testingMethods maps methods of testing.T, testing.B and testing.TB to
// the runtime functions replacing them. tOnly marks methods only
// *testing.T has with that signature.
var testingMethods = map[string]struct {
	rt    string
	tOnly bool
}{
	"Error": {rt: "TError"}, "Errorf": {rt: "TErrorf"},
	"Fatal": {rt: "TFatal"}, "Fatalf": {rt: "TFatalf"},
	"Fail": {rt: "TFail"}, "FailNow": {rt: "TFailNow"}, "Failed": {rt: "TFailed"},
	"Log": {rt: "TLog"}, "Logf": {rt: "TLogf"},
	"Skip": {rt: "TSkip"}, "Skipf": {rt: "TSkipf"}, "SkipNow": {rt: "TSkipNow"},
	"Cleanup": {rt: "TCleanup"}, "Context": {rt: "TContext"},
	"Run": {rt: "TRun", tOnly: true}, "Parallel": {rt: "TParallel", tOnly: true},
}

// testingType returns "T", "B" or "TB" if t is *testing.T, *testing.B,
// testing.T, testing.B or testing.TB, and "" otherwise.
func testingType(t types.Type) string {
	named, ok := types.Unalias(derefType(t)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "testing" {
		return ""
	}
	switch n := named.Obj().Name(); n {
	case "T", "B":
		return n
	case "TB":
		if _, isPtr := types.Unalias(t).(*types.Pointer); !isPtr {
			return n
		}
	}
	return ""
}

// mapTestingMethod rewrites t.Error(args) into rt.TError(t, args) and the
// like, for receivers of type *testing.T, *testing.B, testing.TB or a
// struct embedding one of them.
func (r *rewriter) mapTestingMethod(call *ast.CallExpr, f *ast.SelectorExpr, sel *types.Selection, m *types.Func) *callRW {
	if m.Name() == "Fuzz" {
		return r.mapFuzz(call, f, sel)
	}
	ent, ok := testingMethods[m.Name()]
	if !ok {
		return nil
	}
	stop := func(t types.Type) bool { return testingType(t) != "" }
	recv, recvT, err := r.receiver(f, sel, stop)
	if err != nil {
		return nil
	}
	if ent.tOnly && testingType(recvT) != "T" {
		return nil
	}
	rw := &callRW{call: call, fn: r.rt(ent.rt), recv: recv, recvExpr: f.X, keep: true}
	if ent.tOnly {
		// Run and Parallel are synchronization: a subtest is a
		// goroutine its parent waits for.
		rw.site = r.site(call.Pos())
	}
	return rw
}

// ifaceTestingMethods are the methods of testing.T that helper libraries
// call through an interface of their own (testify's assert.TestingT, a
// mock clock's TestingT that registers cleanups): the runtime function
// replacing each, and the kind of its parameters.
var ifaceTestingMethods = map[string]struct {
	rt     string
	params string // "": none, "args": ...any, "format": string, ...any, "func": func()
}{
	"Error": {"IError", "args"}, "Errorf": {"IErrorf", "format"},
	"Fatal": {"IFatal", "args"}, "Fatalf": {"IFatalf", "format"},
	"Fail": {"IFail", ""}, "FailNow": {"IFailNow", ""},
	"Log": {"ILog", "args"}, "Logf": {"ILogf", "format"},
	"Cleanup": {"ICleanup", "func"},
}

// mapTestingIface rewrites t.Errorf(format, args) into rt.IErrorf(t,
// format, args) and the like where t is an interface value whose method
// has the signature of testing.T's: a helper library's TestingT, which
// may hold the test's *testing.T (rt/testinghelper.go).
func (r *rewriter) mapTestingIface(call *ast.CallExpr, f *ast.SelectorExpr, sel *types.Selection, m *types.Func) *callRW {
	ent, ok := ifaceTestingMethods[m.Name()]
	if !ok || sel.Kind() != types.MethodVal || len(sel.Index()) != 1 {
		return nil
	}
	recvT := r.typeOf(f.X)
	if recvT == nil || !types.IsInterface(recvT) || testingType(recvT) != "" {
		return nil
	}
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Results().Len() != 0 || !testingParams(sig, ent.params) {
		return nil
	}
	return &callRW{call: call, fn: r.rt(ent.rt), recv: []part{r.spanOf(f.X)}, recvExpr: f.X, keep: true}
}

// testingParams reports whether sig's parameters are those of a testing.T
// method of the kind params names.
func testingParams(sig *types.Signature, params string) bool {
	ps := sig.Params()
	isAnySlice := func(t types.Type) bool {
		s, ok := t.(*types.Slice)
		if !ok {
			return false
		}
		i, ok := s.Elem().Underlying().(*types.Interface)
		return ok && i.Empty()
	}
	isString := func(t types.Type) bool {
		b, ok := t.(*types.Basic)
		return ok && b.Kind() == types.String
	}
	switch params {
	case "":
		return ps.Len() == 0
	case "args":
		return ps.Len() == 1 && sig.Variadic() && isAnySlice(ps.At(0).Type())
	case "format":
		return ps.Len() == 2 && sig.Variadic() && isString(ps.At(0).Type()) && isAnySlice(ps.At(1).Type())
	case "func":
		if ps.Len() != 1 {
			return false
		}
		f, ok := types.Unalias(ps.At(0).Type()).(*types.Signature)
		return ok && f.Params().Len() == 0 && f.Results().Len() == 0
	}
	return false
}

// mapFuzz makes every call of a fuzz body, f.Fuzz(ff) with f a
// *testing.F, an exploration: a function literal's body is wrapped,
//
//	f.Fuzz(func(t *testing.T, n int) { rt.FuzzBody(t, func(t *testing.T) { body }, &n) })
//
// (its lines kept, and its frames the ones testing attributes logs to);
// any other ff is passed to rt.FFuzz(f, ff), which wraps it by reflection.
func (r *rewriter) mapFuzz(call *ast.CallExpr, f *ast.SelectorExpr, sel *types.Selection) *callRW {
	isF := func(t types.Type) bool {
		named, ok := types.Unalias(derefType(t)).(*types.Named)
		return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "testing" && named.Obj().Name() == "F"
	}
	recv, _, err := r.receiver(f, sel, isF)
	if err != nil || len(call.Args) != 1 {
		return nil
	}
	if lit, ok := call.Args[0].(*ast.FuncLit); ok && r.wrapFuzzBody(lit) {
		return nil
	}
	return &callRW{call: call, fn: r.rt("FFuzz"), recv: recv, recvExpr: f.X, keep: true}
}

// wrapFuzzBody wraps the body of a fuzz function literal in rt.FuzzBody,
// naming its unnamed or blank parameters, and reports whether it did.
func (r *rewriter) wrapFuzzBody(lit *ast.FuncLit) bool {
	ps := lit.Type.Params.List
	if len(ps) == 0 || lit.Type.Results != nil && len(lit.Type.Results.List) > 0 {
		return false
	}
	if pt := r.typeOf(ps[0].Type); pt == nil || testingType(pt) != "T" {
		return false
	}
	typ, err := r.typeExpr(r.typeOf(ps[0].Type), lit.Body.Lbrace)
	if err != nil {
		return false
	}
	var names []string // parameter names, the *testing.T first
	k := 0
	for _, p := range ps {
		if len(p.Names) == 0 {
			name := fmt.Sprintf("__rtIn%d", k)
			r.edits.insert(r.off(p.Type.Pos()), name+" ")
			names = append(names, name)
			k++
			continue
		}
		for _, n := range p.Names {
			name := n.Name
			if name == "_" {
				name = fmt.Sprintf("__rtIn%d", k)
				r.edits.add(r.off(n.Pos()), r.off(n.End()), text(name))
			}
			names = append(names, name)
			k++
		}
	}
	inner := names[0]
	if strings.HasPrefix(inner, "__rtIn") {
		inner = "_"
	}
	ptrs := ""
	for _, n := range names[1:] {
		ptrs += ", &" + n
	}
	r.edits.insert(r.off(lit.Body.Lbrace)+1, " "+r.rt("FuzzBody")+"("+names[0]+", func("+inner+" "+typ+") {")
	r.edits.insert(r.off(lit.Body.Rbrace), "}"+ptrs+")")
	r.fuzzLits = append(r.fuzzLits, lit)
	return true
}

// isTestName reports whether name is the name of a test function.
func isTestName(name string) bool {
	if !strings.HasPrefix(name, "Test") {
		return false
	}
	if len(name) == 4 {
		return true
	}
	c, _ := utf8.DecodeRuneInString(name[4:])
	return !unicode.IsLower(c)
}

// testFuncs wraps the body of every top-level TestXxx(t *testing.T)
// function of a _test.go file:
//
//	func TestXxx(t *testing.T) { rt.Test(t, func(t *testing.T) { body }) }
//
// The body keeps its lines.
func (r *rewriter) testFuncs() {
	if !strings.HasSuffix(r.filename, "_test.go") {
		return
	}
	for _, d := range r.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || fd.Type.TypeParams != nil || !isTestName(fd.Name.Name) {
			continue
		}
		ps := fd.Type.Params.List
		if len(ps) != 1 || len(ps[0].Names) > 1 || (fd.Type.Results != nil && len(fd.Type.Results.List) > 0) {
			continue
		}
		pt := r.typeOf(ps[0].Type)
		if pt == nil || testingType(pt) != "T" {
			continue
		}
		if _, isPtr := types.Unalias(pt).(*types.Pointer); !isPtr {
			continue
		}
		typ, err := r.typeExpr(pt, fd.Body.Lbrace)
		if err != nil {
			r.warnf(fd.Pos(), "test %s not wrapped: %v", fd.Name.Name, err)
			continue
		}
		name, inner := "__rtT", "_"
		switch {
		case len(ps[0].Names) == 0:
			r.edits.insert(r.off(ps[0].Type.Pos()), name+" ")
		case ps[0].Names[0].Name == "_":
			r.edits.add(r.off(ps[0].Names[0].Pos()), r.off(ps[0].Names[0].End()), text(name))
		default:
			name = ps[0].Names[0].Name
			inner = name
		}
		r.edits.insert(r.off(fd.Body.Lbrace)+1, " "+r.rt("Test")+"("+name+", func("+inner+" "+typ+") {")
		r.edits.insert(r.off(fd.Body.Rbrace), "})")
	}
}
