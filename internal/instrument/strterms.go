package instrument

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Strings and []byte in terms (strategy mpc).
//
// Yi and Huang's path conditions (section 4.2) are over the program's
// inputs; a fuzz body's string or []byte argument is an input as its
// length and as each byte a term reads (see rt.Branch). Besides len(s)
// and s[i] (branches.go), a term may hold:
//
//   - s == "lit" and s != "lit", s a string strLeaf names (or string(b),
//     b a []byte whose bytes are only read): the length and the bytes of
//     the constant, "(&& (== s n) (== (@? s 0 v0) c0) ... (== (@? s n-1
//     vK) cn-1))", "(== s 0)" for "", negated by "!" for !=, vals[J]
//     being rt.At(s, i). A comparison never panics: its byte reads are
//     "@?", not branches of their own.
//   - b[i], b a []byte whose bytes are only read (bytesReadOnly): as
//     s[i] of a string. The runtime takes the byte the program read
//     instead of the input's, and says the search is not complete, when
//     the two differ (something wrote b after all: a callee or an alias
//     the check does not see).

// isString reports whether t is a string type.
func isString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// byteInput reports whether the bytes of x, a string or []byte, may be
// terms: x is a string, or a []byte variable whose bytes are only read.
func (r *rewriter) byteInput(x ast.Expr) bool {
	t := r.typeOf(x)
	if isString(t) {
		return true
	}
	if !isStringLike(t) {
		return false
	}
	id, ok := unparen(x).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := r.info.Uses[id].(*types.Var)
	return ok && r.bytesReadOnly(v)
}

// strEqTerm returns the term of e, x == "lit" or x != "lit" (either
// operand the constant), when x is a string that strLeaf names or the
// conversion to string of such a []byte.
func (t *symTerm) strEqTerm(e *ast.BinaryExpr) (string, bool) {
	r := t.fz.r
	x, c := e.X, e.Y
	if tv, ok := r.info.Types[x]; ok && tv.Value != nil {
		x, c = c, x
	}
	tv, ok := r.info.Types[c]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	sym, ok := t.equalsConst(x, constant.StringVal(tv.Value))
	if !ok {
		return "", false
	}
	if e.Op == token.NEQ {
		sym = "(! " + sym + ")"
	}
	return sym, true
}

// equalsConst returns the term of x == lit, x a string (see strEqTerm).
func (t *symTerm) equalsConst(x ast.Expr, lit string) (string, bool) {
	r := t.fz.r
	x = unparen(x)
	if call, ok := x.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := r.info.Types[call.Fun]; ok && tv.IsType() && isString(tv.Type) && !isString(r.typeOf(call.Args[0])) {
			x = unparen(call.Args[0]) // string(b)
		}
	}
	if !r.byteInput(x) {
		return "", false
	}
	s, ok := t.strLeaf(x)
	if !ok || strings.HasPrefix(s, "v") {
		return "", false
	}
	parts := []string{"(== " + s + " " + strconv.Itoa(len(lit)) + ")"}
	src := r.source(x)
	for i := 0; i < len(lit); i++ {
		n := strconv.Itoa(i)
		v := t.slot("v", "at? "+src+" "+n, r.rt("At")+"("+src+", "+n+")")
		parts = append(parts, "(== (@? "+s+" "+n+" "+v+") "+strconv.Itoa(int(lit[i]))+")")
	}
	if len(parts) == 1 {
		return parts[0], true
	}
	return "(&& " + strings.Join(parts, " ") + ")", true
}

// bytesReadOnly reports whether the bytes of v, a []byte variable, are
// only read in the file (where v is in scope): every use of v is an
// operand of len or cap, a comparison with nil, an index read (not
// assigned, incremented nor addressed), a range expression, a conversion
// to string, an argument of a call of a function of the package (whose
// own uses of its parameter are its own), of a fmt print function, of a
// testing.TB log or error method, or of one of bytes' functions that
// only read. A slice of v, an assignment or a send of it, any other call
// may write or alias the bytes.
func (r *rewriter) bytesReadOnly(v *types.Var) bool {
	if ro, ok := r.readOnly[v]; ok {
		return ro
	}
	ro := true
	ast.Inspect(r.file, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && ro && r.info.Uses[id] == v {
			ro = r.readsBytes(id)
		}
		return ro
	})
	if r.readOnly == nil {
		r.readOnly = make(map[*types.Var]bool)
	}
	r.readOnly[v] = ro
	return ro
}

// readsBytes reports whether the use id of a []byte variable only reads
// its bytes (see bytesReadOnly).
func (r *rewriter) readsBytes(id *ast.Ident) bool {
	e, p := r.unparenParent(id)
	switch p := p.(type) {
	case *ast.IndexExpr:
		if p.X != e {
			return false
		}
		x, pp := r.unparenParent(p)
		switch pp := pp.(type) {
		case *ast.AssignStmt:
			for _, l := range pp.Lhs {
				if l == x {
					return false
				}
			}
		case *ast.IncDecStmt:
			return false
		case *ast.UnaryExpr:
			return pp.Op != token.AND
		case *ast.RangeStmt:
			return pp.Key != x && pp.Value != x
		}
		return true
	case *ast.RangeStmt:
		return p.X == e
	case *ast.BinaryExpr:
		other := p.X
		if other == e {
			other = p.Y
		}
		return (p.Op == token.EQL || p.Op == token.NEQ) && r.info.Types[other].IsNil()
	case *ast.CallExpr:
		if p.Fun == e || p.Ellipsis.IsValid() {
			return false
		}
		if tv, ok := r.info.Types[p.Fun]; ok && tv.IsType() {
			return isString(tv.Type)
		}
		if id, ok := unparen(p.Fun).(*ast.Ident); ok {
			if b, ok := r.info.Uses[id].(*types.Builtin); ok {
				return b.Name() == "len" || b.Name() == "cap"
			}
		}
		if f, _ := r.packageCallee(p); f != nil {
			return true
		}
		return readerCall(r.callee(p))
	}
	return false
}

// unparenParent returns the outermost of the parentheses around e (e
// itself when there are none) and its parent.
func (r *rewriter) unparenParent(e ast.Expr) (ast.Expr, ast.Node) {
	p := r.parents[e]
	for {
		pe, ok := p.(*ast.ParenExpr)
		if !ok {
			return e, p
		}
		e, p = pe, r.parents[pe]
	}
}

// callee returns the function or method call calls statically, if any.
func (r *rewriter) callee(call *ast.CallExpr) *types.Func {
	switch fun := unparen(call.Fun).(type) {
	case *ast.Ident:
		f, _ := r.info.Uses[fun].(*types.Func)
		return f
	case *ast.SelectorExpr:
		f, _ := r.info.Uses[fun.Sel].(*types.Func)
		return f
	}
	return nil
}

// readerCall reports whether f reads the bytes of a []byte argument
// without writing them or keeping them: a fmt print function, a log or
// error method of testing's T, B, F or TB, or a function of bytes that
// compares or searches.
func readerCall(f *types.Func) bool {
	if f == nil || f.Pkg() == nil {
		return false
	}
	name := f.Name()
	switch f.Pkg().Path() {
	case "fmt":
		return strings.HasPrefix(name, "Print") || strings.HasPrefix(name, "Sprint") ||
			strings.HasPrefix(name, "Fprint") || name == "Errorf"
	case "testing":
		switch name {
		case "Log", "Logf", "Error", "Errorf", "Fatal", "Fatalf", "Skip", "Skipf":
			return f.Type().(*types.Signature).Recv() != nil
		}
	case "bytes":
		switch name {
		case "Equal", "Compare", "HasPrefix", "HasSuffix", "Contains", "ContainsAny", "ContainsRune",
			"Count", "Index", "IndexByte", "IndexAny", "IndexRune", "LastIndex", "LastIndexByte", "EqualFold":
			return f.Type().(*types.Signature).Recv() == nil
		}
	}
	return false
}
