package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// callRW describes the rewrite of one call into a call of the runtime.
type callRW struct {
	call     *ast.CallExpr
	fn       string   // function, with explicit type arguments
	recv     []part   // receiver argument, or nil
	recvExpr ast.Expr // expression inside recv, walked for nested rewrites
	lead     string   // argument after recv, before the call's own (a site)
	keep     bool     // keep the call's arguments with their formatting
	args     [][]part // replacement arguments when !keep
	argExprs []ast.Expr
	site     string // trailing site argument, or ""
	pre      string // text before the call (a conversion)
	post     string // text after the call
}

func (rw *callRW) walkArgs(r *rewriter) {
	if rw.recvExpr != nil {
		r.walk(rw.recvExpr)
	}
	if rw.keep {
		r.walkList(rw.call.Args)
	} else {
		r.walkList(rw.argExprs)
	}
}

// renderCall returns the parts of the runtime call described by rw,
// keeping the original formatting of the arguments when it can.
func (r *rewriter) renderCall(rw *callRW) []part {
	parts := []part{text(rw.pre + rw.fn + "(")}
	n := 0
	add := func(ps ...part) {
		if n > 0 {
			parts = append(parts, text(", "))
		}
		parts = append(parts, ps...)
		n++
	}
	if rw.recv != nil {
		add(rw.recv...)
	}
	if rw.lead != "" {
		add(text(rw.lead))
	}
	var tail []part
	if rw.keep && len(rw.call.Args) > 0 {
		last := r.off(rw.call.Args[len(rw.call.Args)-1].End())
		add(span(r.off(rw.call.Lparen)+1, last))
		tail = []part{span(last, r.off(rw.call.Rparen))}
	} else if !rw.keep {
		for _, a := range rw.args {
			add(a...)
		}
	}
	if rw.site != "" {
		add(text(rw.site))
	}
	parts = append(parts, tail...)
	parts = append(parts, text(")"+rw.post))
	return parts
}

// goArgs returns the arguments of the runtime call as a list, for a go
// statement that must evaluate them before starting the goroutine.
// konst[i] is true for arguments that need no evaluation.
func (r *rewriter) goArgs(rw *callRW) (args [][]part, exprs []ast.Expr) {
	if rw.recv != nil {
		args = append(args, rw.recv)
		exprs = append(exprs, nil)
	}
	if rw.lead != "" {
		args = append(args, []part{text(rw.lead)})
		exprs = append(exprs, nil)
	}
	if rw.keep {
		for _, a := range rw.call.Args {
			args = append(args, []part{r.softOf(a)})
			exprs = append(exprs, a)
		}
	} else {
		for i, a := range rw.args {
			args = append(args, a)
			exprs = append(exprs, rw.argExprs[i])
		}
	}
	return args, exprs
}

// mapCall returns the runtime rewrite of call, or nil if call is not an
// operation the runtime models.
func (r *rewriter) mapCall(call *ast.CallExpr) *callRW {
	rw := r.mapCall1(call)
	if rw != nil && len(call.Args) == 1 && isTuple(r.typeOf(call.Args[0])) && (rw.recv != nil || rw.site != "" || rw.lead != "") {
		// f(g()) with g returning several values cannot take more arguments.
		r.warnf(call.Pos(), "call with a multi-value argument left native")
		return nil
	}
	return rw
}

func isTuple(t types.Type) bool {
	_, ok := t.(*types.Tuple)
	return ok
}

func (r *rewriter) mapCall1(call *ast.CallExpr) *callRW {
	fun := unparen(call.Fun)
	// Builtins.
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := r.info.Uses[id].(*types.Builtin); ok {
			return r.mapBuiltin(call, b.Name())
		}
	}
	// Strip an explicit instantiation.
	base := fun
	switch f := fun.(type) {
	case *ast.IndexExpr:
		base = unparen(f.X)
	case *ast.IndexListExpr:
		base = unparen(f.X)
	}
	switch f := base.(type) {
	case *ast.Ident:
		if fn, ok := r.info.Uses[f].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg() != r.pkg {
			if _, mapped := funcTable[fn.Pkg().Path()][fn.Name()]; mapped {
				r.warnf(call.Pos(), "%s.%s called through a dot import is not instrumented", fn.Pkg().Path(), fn.Name())
			}
		}
		return nil
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok {
			if _, ok := r.info.Uses[id].(*types.PkgName); ok {
				fn, ok := r.info.Uses[f.Sel].(*types.Func)
				if !ok {
					return nil
				}
				return r.mapFunc(call, f, fn)
			}
		}
		sel := r.info.Selections[f]
		if sel == nil || sel.Kind() != types.MethodVal {
			return nil
		}
		return r.mapMethod(call, f, sel)
	}
	return nil
}

func (r *rewriter) mapBuiltin(call *ast.CallExpr, name string) *callRW {
	switch name {
	case "close":
		if len(call.Args) != 1 {
			return nil
		}
		ch := chanElem(r.typeOf(call.Args[0]))
		if ch == nil {
			return nil
		}
		elem, err := r.typeExpr(ch.Elem(), call.Pos())
		if err != nil {
			r.warnf(call.Pos(), "close left native: %v", err)
			return nil
		}
		return &callRW{call: call, fn: r.rt("Close[" + elem + "]"), keep: true, site: r.site(call.Pos(), operand{chanOperand, anyDir, call.Args[0]})}
	case "len":
		if len(call.Args) != 1 || chanElem(r.typeOf(call.Args[0])) == nil {
			return nil
		}
		return &callRW{call: call, fn: r.rt("Len"), keep: true, site: r.site(call.Pos(), operand{chanOperand, anyDir, call.Args[0]})}
	case "make":
		return r.mapMakeChan(call)
	}
	return nil
}

func (r *rewriter) mapMakeChan(call *ast.CallExpr) *callRW {
	if len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return nil
	}
	t := r.typeOf(call.Args[0])
	ch := chanElem(t)
	if ch == nil {
		return nil
	}
	elem, err := r.typeExpr(ch.Elem(), call.Pos())
	if err != nil {
		r.warnf(call.Pos(), "make of channel left native: %v", err)
		return nil
	}
	rw := &callRW{call: call, fn: r.rt("MakeChan[" + elem + "]")}
	if len(call.Args) > 1 {
		n := call.Args[1]
		size := []part{r.spanOf(n)}
		if nt, ok := r.typeOf(n).Underlying().(*types.Basic); ok && nt.Kind() != types.Int && nt.Info()&types.IsUntyped == 0 {
			size = []part{text("int("), r.spanOf(n), text(")")}
		}
		rw.args = [][]part{size}
		rw.argExprs = []ast.Expr{n}
	} else {
		rw.args = [][]part{{text("0")}}
		rw.argExprs = []ast.Expr{nil}
	}
	rw.site = r.site(call.Pos(), operand{chanOperand, anyDir, r.assignedTo(call)})
	// make(C) for a named or directional channel type: convert the result.
	if u, ok := types.Unalias(t).(*types.Chan); !ok || u.Dir() != types.SendRecv {
		rw.pre = "("
		rw.post = ")"
		rw.pre = "(" + string(r.src[r.off(call.Args[0].Pos()):r.off(call.Args[0].End())]) + ")("
		if strings.Contains(rw.pre, "\n") {
			r.warnf(call.Pos(), "make of channel left native: multi-line type")
			return nil
		}
	}
	return rw
}

func (r *rewriter) mapFunc(call *ast.CallExpr, sel *ast.SelectorExpr, fn *types.Func) *callRW {
	if rw := r.mapExitFunc(call, sel, fn); rw != nil {
		return rw
	}
	if rw := r.mapGoleak(call, sel, fn); rw != nil {
		return rw
	}
	if rw := r.mapDeterminism(call, sel, fn); rw != nil {
		return rw
	}
	name, ok := funcTable[fn.Pkg().Path()][fn.Name()]
	if !ok {
		return nil
	}
	if call.Ellipsis.IsValid() {
		r.warnf(call.Pos(), "%s.%s with ... left native", fn.Pkg().Name(), fn.Name())
		return nil
	}
	targs, err := r.instanceArgs(sel.Sel, call.Pos())
	if err != nil {
		r.warnf(call.Pos(), "%s.%s left native: %v", fn.Pkg().Name(), fn.Name(), err)
		return nil
	}
	var ops []operand
	if fn.Pkg().Path() == "sync/atomic" && len(call.Args) > 0 {
		ops = append(ops, operand{memoryOperand, anyDir, call.Args[0]}) // &x: x
	}
	return &callRW{call: call, fn: r.rt(name + targs), keep: true, site: r.site(call.Pos(), ops...)}
}

// instanceArgs returns "[T1, T2]" for a generic function instantiated at
// id, or "".
func (r *rewriter) instanceArgs(id *ast.Ident, pos token.Pos) (string, error) {
	inst, ok := r.info.Instances[id]
	if !ok || inst.TypeArgs.Len() == 0 {
		return "", nil
	}
	return r.typeList(inst.TypeArgs, pos)
}

func (r *rewriter) typeList(tl *types.TypeList, pos token.Pos) (string, error) {
	var names []string
	for i := 0; i < tl.Len(); i++ {
		s, err := r.typeExpr(tl.At(i), pos)
		if err != nil {
			return "", err
		}
		names = append(names, s)
	}
	return "[" + strings.Join(names, ", ") + "]", nil
}

func (r *rewriter) mapMethod(call *ast.CallExpr, f *ast.SelectorExpr, sel *types.Selection) *callRW {
	m, ok := sel.Obj().(*types.Func)
	if !ok || m.Pkg() == nil {
		return nil
	}
	if m.Pkg().Path() == "testing" {
		return r.mapTestingMethod(call, f, sel, m)
	}
	if m.Pkg().Path() == "log" {
		return r.mapLoggerMethod(call, f, sel, m)
	}
	if rw := r.mapTestingIface(call, f, sel, m); rw != nil {
		return rw
	}
	if rw := r.mapDeadline(call, f, sel, m); rw != nil {
		return rw
	}
	ent, ok := lookupMethod(m)
	if !ok {
		return nil
	}
	if call.Ellipsis.IsValid() {
		r.warnf(call.Pos(), "%s with ... left native", m.FullName())
		return nil
	}
	recv, recvT, err := r.receiver(f, sel, nil)
	if err != nil {
		r.warnf(call.Pos(), "call of %s left native: %v", m.FullName(), err)
		return nil
	}
	if ent.value {
		recv = valueReceiver(recv)
	}
	targs := ""
	if named, ok := types.Unalias(derefType(recvT)).(*types.Named); ok && named.TypeArgs().Len() > 0 {
		targs, err = r.typeList(named.TypeArgs(), call.Pos())
		if err != nil {
			r.warnf(call.Pos(), "call of %s left native: %v", m.FullName(), err)
			return nil
		}
	}
	rw := &callRW{call: call, fn: r.rt(ent.rt + targs), recv: recv, recvExpr: f.X, keep: true}
	if !ent.noSite {
		rw.site = r.site(call.Pos(), r.methodOperands(ent, f, sel)...)
	}
	return rw
}

// receiver returns the parts of the receiver argument of the method
// selected by f: f.X followed by the embedded fields the selection goes
// through, with & added when the method needs a pointer. stop, if not nil,
// ends the walk early at a type it accepts. recvT is the receiver type.
func (r *rewriter) receiver(f *ast.SelectorExpr, sel *types.Selection, stop func(types.Type) bool) ([]part, types.Type, error) {
	path := sel.Index()
	t := r.typeOf(f.X)
	var fields strings.Builder
	for _, i := range path[:len(path)-1] {
		if stop != nil && stop(t) {
			break
		}
		st, ok := derefType(t).Underlying().(*types.Struct)
		if !ok {
			return nil, nil, fmt.Errorf("embedded path through non-struct %s", t)
		}
		fld := st.Field(i)
		if !fld.Exported() && fld.Pkg() != r.pkg {
			return nil, nil, fmt.Errorf("promoted through unexported field %s", fld.Name())
		}
		fields.WriteString("." + fld.Name())
		t = fld.Type()
	}
	if stop != nil && !stop(t) {
		return nil, nil, fmt.Errorf("receiver type %s not modeled", t)
	}
	x := r.spanOf(f.X)
	suffix := text(fields.String())
	_, isPtr := types.Unalias(t).(*types.Pointer)
	_, isIface := t.Underlying().(*types.Interface)
	if isPtr || isIface {
		return []part{x, suffix}, t, nil
	}
	return []part{text("&"), x, suffix}, types.NewPointer(t), nil
}

// valueReceiver turns the receiver argument receiver returned into the
// receiver's value: its address taken back, or a pointer dereferenced.
func valueReceiver(recv []part) []part {
	if len(recv) == 3 {
		return recv[1:] // &x.f: x.f
	}
	return append(append([]part{text("(*")}, recv...), text(")"))
}

// derefType returns the element type of a pointer type, or t.
func derefType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
