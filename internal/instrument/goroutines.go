package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// goStmt rewrites "go f(a, b)" into
//
//	{ __f, __a := f, a; rt.Go(func() { __f(__a, b) }, site) }
//
// The function value and the arguments are evaluated first, in order, in
// the spawning goroutine, as the go statement does. Static functions,
// function literals and constants need no temporary.
func (r *rewriter) goStmt(s *ast.GoStmt) {
	call := s.Call
	site := r.site(s.Go)
	fun := unparen(call.Fun)

	// go func() { ... }(): the literal is the goroutine's body.
	if lit, ok := fun.(*ast.FuncLit); ok && len(call.Args) == 0 && lit.Type.Params.NumFields() == 0 && (lit.Type.Results == nil || lit.Type.Results.NumFields() == 0) {
		r.replace(s, text(r.rt("Go")+"("), r.spanOf(lit), text(", "+site+")"))
		r.walk(lit)
		return
	}

	// go f(g()) with g returning several values.
	if len(call.Args) == 1 && isTuple(r.typeOf(call.Args[0])) {
		if r.mapCall(call) != nil {
			r.warnf(s.Pos(), "go statement left native: multi-value argument")
			r.walk(call)
			return
		}
		r.goTuple(s, site)
		return
	}

	var (
		fnParts  []part
		args     [][]part
		exprs    []ast.Expr
		ellipsis = call.Ellipsis.IsValid()
		walkFn   func()
	)
	if rw := r.mapCall(call); rw != nil {
		fnParts = []part{text(rw.fn)}
		args, exprs = r.goArgs(rw)
		if rw.site != "" {
			args = append(args, []part{text(rw.site)})
			exprs = append(exprs, nil)
		}
		walkFn = func() { rw.walkArgs(r) }
	} else {
		static := r.isStaticFunc(fun)
		if static {
			fnParts = []part{r.spanOf(call.Fun)}
		}
		sig, _ := coreType(r.typeOf(call.Fun)).(*types.Signature)
		for _, a := range call.Args {
			args = append(args, []part{r.softOf(a)})
			exprs = append(exprs, a)
		}
		walkFn = func() {
			if static {
				r.walkCallee(call.Fun)
			} else {
				r.walk(call.Fun)
			}
			r.walkList(call.Args)
		}
		if !static {
			// The function value is evaluated first.
			args = append([][]part{{r.softOf(call.Fun)}}, args...)
			exprs = append([]ast.Expr{call.Fun}, exprs...)
		}
		if sig == nil && !static {
			r.warnf(s.Pos(), "go statement left native: function of unknown type")
			r.walk(call)
			return
		}
	}

	// Hoist every argument that needs evaluation.
	var tmps []string
	var vals [][]part
	inner := make([]string, len(args))
	for i, a := range args {
		e := exprs[i]
		if e != nil && r.isConst(e) || e == nil && len(a) == 1 && !a[0].isSpan {
			if e == nil {
				inner[i] = a[0].text
				continue
			}
			inner[i] = string(r.src[r.off(e.Pos()):r.off(e.End())])
			if strings.Contains(inner[i], "\n") {
				inner[i] = ""
			} else {
				continue
			}
		}
		n := r.tmp("Arg")
		tmps = append(tmps, n)
		inner[i] = n
		v := a
		if e != nil {
			conv, err := r.untypedConv(e)
			if err != nil {
				r.warnf(s.Pos(), "go statement left native: %v", err)
				r.walk(call)
				return
			}
			if conv != "" {
				v = append(append([]part{text("(" + conv + ")(")}, a...), text(")"))
			}
		}
		vals = append(vals, v)
	}
	var body string
	if fnParts == nil {
		body = inner[0] + "(" + strings.Join(inner[1:], ", ")
	} else {
		body = "(" + strings.Join(inner, ", ")
	}
	if ellipsis {
		body += "..."
	}
	body += ")"

	var parts []part
	if len(tmps) > 0 {
		parts = append(parts, text("{ "+strings.Join(tmps, ", ")+" := "))
		for i, v := range vals {
			if i > 0 {
				parts = append(parts, text(", "))
			}
			parts = append(parts, v...)
		}
		parts = append(parts, text("; "))
	}
	parts = append(parts, text(r.rt("Go")+"(func() { "))
	parts = append(parts, fnParts...)
	parts = append(parts, text(body+" }, "+site+")"))
	if len(tmps) > 0 {
		parts = append(parts, text(" }"))
	}
	r.replace(s, parts...)
	walkFn()
}

// goTuple rewrites go f(g()), where g returns several values:
//
//	{ __f := f; __a1, __a2 := g(); rt.Go(func() { __f(__a1, __a2) }, site) }
func (r *rewriter) goTuple(s *ast.GoStmt, site string) {
	call := s.Call
	tup := r.typeOf(call.Args[0]).(*types.Tuple)
	var parts []part
	parts = append(parts, text("{ "))
	fn := []part{r.spanOf(call.Fun)}
	static := r.isStaticFunc(call.Fun)
	if !static {
		f := r.tmp("Fn")
		parts = append(parts, text(f+" := "), r.softOf(call.Fun), text("; "))
		fn = []part{text(f)}
	}
	var names []string
	for i := 0; i < tup.Len(); i++ {
		names = append(names, r.tmp("Arg"))
	}
	parts = append(parts, text(strings.Join(names, ", ")+" := "), r.softOf(call.Args[0]), text("; "+r.rt("Go")+"(func() { "))
	parts = append(parts, fn...)
	parts = append(parts, text("("+strings.Join(names, ", ")+") }, "+site+") }"))
	r.replace(s, parts...)
	if static {
		r.walkCallee(call.Fun)
	} else {
		r.walk(call.Fun)
	}
	r.walk(call.Args[0])
}

// isStaticFunc reports whether fun denotes a function that needs no
// evaluation: a declared function (possibly instantiated), a builtin or a
// function literal.
func (r *rewriter) isStaticFunc(fun ast.Expr) bool {
	switch f := unparen(fun).(type) {
	case *ast.FuncLit:
		return true
	case *ast.Ident:
		switch obj := r.info.Uses[f].(type) {
		case *types.Builtin:
			return true
		case *types.Func:
			return obj.Type().(*types.Signature).Recv() == nil
		}
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok {
			if _, ok := r.info.Uses[id].(*types.PkgName); ok {
				_, isFunc := r.info.Uses[f.Sel].(*types.Func)
				return isFunc
			}
		}
	case *ast.IndexExpr:
		return r.isStaticFunc(f.X) && r.allConstOrType(f.Index)
	case *ast.IndexListExpr:
		return r.isStaticFunc(f.X)
	}
	return false
}

func (r *rewriter) allConstOrType(e ast.Expr) bool {
	tv, ok := r.info.Types[e]
	return ok && tv.IsType()
}

// untypedConv returns the type to convert e to when it is assigned to a
// temporary: an untyped non-constant expression (a comparison, a shift of
// a constant, a logical operation) takes its type from its context, which
// a temporary would lose. It returns "" when no conversion is needed.
func (r *rewriter) untypedConv(e ast.Expr) (string, error) {
	if !mayBeUntyped(e) || r.isConst(e) {
		return "", nil
	}
	t := r.typeOf(e)
	if t == nil {
		return "", nil
	}
	return r.typeExpr(t, e.Pos())
}

func mayBeUntyped(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return mayBeUntyped(e.X)
	case *ast.UnaryExpr:
		return e.Op == token.NOT || e.Op == token.SUB || e.Op == token.ADD || e.Op == token.XOR
	case *ast.BinaryExpr:
		return true
	}
	return false
}

func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}
