package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// methodValue rewrites a method value (mu.Lock not called), a method
// expression ((*sync.Mutex).Lock) or a function value (time.Now not
// called) of a modeled operation into a function literal calling the
// runtime. It reports whether it handled sel.
func (r *rewriter) methodValue(sel *ast.SelectorExpr) bool {
	if id, ok := sel.X.(*ast.Ident); ok {
		if _, ok := r.info.Uses[id].(*types.PkgName); ok {
			r.funcValue(sel, sel.Sel)
			return true
		}
	}
	s := r.info.Selections[sel]
	if s == nil || (s.Kind() != types.MethodVal && s.Kind() != types.MethodExpr) {
		return false
	}
	m, ok := s.Obj().(*types.Func)
	if !ok || m.Pkg() == nil {
		return false
	}
	ent, ok := lookupMethod(m)
	if !ok {
		return false
	}
	if r.instantiated(sel) {
		r.warnf(sel.Pos(), "instantiated method value %s left native", m.FullName())
		return false
	}
	sig, ok := r.typeOf(sel).(*types.Signature)
	if !ok {
		return false
	}
	pos := sel.Pos()
	recvT := s.Recv()
	var recv []part
	if s.Kind() == types.MethodVal {
		var err error
		recv, recvT, err = r.receiver(sel, s, nil)
		if err != nil {
			r.warnf(pos, "method value %s left native: %v", m.FullName(), err)
			return false
		}
	} else if len(s.Index()) != 1 {
		if !r.declaresPromoted(s) {
			r.warnf(pos, "promoted method expression %s left native", m.FullName())
		}
		return false
	}
	targs := ""
	if named, ok := types.Unalias(derefType(recvT)).(*types.Named); ok && named.TypeArgs().Len() > 0 {
		var err error
		if targs, err = r.typeList(named.TypeArgs(), pos); err != nil {
			r.warnf(pos, "method value %s left native: %v", m.FullName(), err)
			return false
		}
	}
	site := ""
	if !ent.noSite {
		site = r.site(pos, r.methodOperands(ent, sel, s)...)
	}
	if s.Kind() == types.MethodExpr {
		// The receiver is the signature's first parameter.
		lit, err := r.funcLit(sig, pos, r.rt(ent.rt+targs), "", site)
		if err != nil {
			r.warnf(pos, "method expression %s left native: %v", m.FullName(), err)
			return false
		}
		r.replace(sel, text(lit))
		return true
	}
	rt, err := r.typeExpr(recvT, pos)
	if err != nil {
		r.warnf(pos, "method value %s left native: %v", m.FullName(), err)
		return false
	}
	ft, err := r.typeExpr(sig, pos)
	if err != nil {
		r.warnf(pos, "method value %s left native: %v", m.FullName(), err)
		return false
	}
	recvName := r.tmp("Recv")
	lit, err := r.funcLit(sig, pos, r.rt(ent.rt+targs), recvName, site)
	if err != nil {
		r.warnf(pos, "method value %s left native: %v", m.FullName(), err)
		return false
	}
	// The receiver is evaluated where the method value is, as Go does.
	parts := []part{text("func(" + recvName + " " + rt + ") " + ft + " { return " + lit + " }(")}
	parts = append(parts, recv...)
	parts = append(parts, text(")"))
	r.replace(sel, parts...)
	r.walk(sel.X)
	return true
}

// funcValue rewrites a modeled package function used as a value.
func (r *rewriter) funcValue(e ast.Expr, id *ast.Ident) {
	fn, ok := r.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg() == r.pkg {
		return
	}
	name, ok := funcTable[fn.Pkg().Path()][fn.Name()]
	if !ok {
		return
	}
	if e == id {
		r.warnf(id.Pos(), "%s.%s used through a dot import is not instrumented", fn.Pkg().Path(), fn.Name())
		return
	}
	if r.instantiated(e) {
		r.warnf(e.Pos(), "instantiated function value %s.%s left native", fn.Pkg().Name(), fn.Name())
		return
	}
	sig, ok := r.typeOf(e).(*types.Signature)
	if !ok {
		return
	}
	targs, err := r.instanceArgs(id, e.Pos())
	if err != nil {
		r.warnf(e.Pos(), "function value %s.%s left native: %v", fn.Pkg().Name(), fn.Name(), err)
		return
	}
	lit, err := r.funcLit(sig, e.Pos(), r.rt(name+targs), "", r.site(e.Pos()))
	if err != nil {
		r.warnf(e.Pos(), "function value %s.%s left native: %v", fn.Pkg().Name(), fn.Name(), err)
		return
	}
	r.replace(e, text(lit))
}

// instantiated reports whether e is the operand of an explicit
// instantiation, which a function literal cannot replace.
func (r *rewriter) instantiated(e ast.Expr) bool {
	switch p := r.parents[e].(type) {
	case *ast.IndexExpr:
		return p.X == e
	case *ast.IndexListExpr:
		return p.X == e
	}
	return false
}

// funcLit returns a function literal of type sig whose body calls fn
// with first (if any), the literal's parameters, and trail (if any).
func (r *rewriter) funcLit(sig *types.Signature, pos token.Pos, fn, first string, trail ...string) (string, error) {
	var params, args []string
	if first != "" {
		args = append(args, first)
	}
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		name := r.tmp("P")
		if sig.Variadic() && i == sig.Params().Len()-1 {
			et, err := r.typeExpr(t.(*types.Slice).Elem(), pos)
			if err != nil {
				return "", err
			}
			params = append(params, name+" ..."+et)
			args = append(args, name+"...")
			continue
		}
		ts, err := r.typeExpr(t, pos)
		if err != nil {
			return "", err
		}
		params = append(params, name+" "+ts)
		args = append(args, name)
	}
	for _, t := range trail {
		if t != "" {
			args = append(args, t)
		}
	}
	var results []string
	for i := 0; i < sig.Results().Len(); i++ {
		ts, err := r.typeExpr(sig.Results().At(i).Type(), pos)
		if err != nil {
			return "", err
		}
		results = append(results, ts)
	}
	res := ""
	switch len(results) {
	case 0:
	case 1:
		res = " " + results[0]
	default:
		res = " (" + strings.Join(results, ", ") + ")"
	}
	call := fmt.Sprintf("%s(%s)", fn, strings.Join(args, ", "))
	if len(results) > 0 {
		call = "return " + call
	}
	return fmt.Sprintf("func(%s)%s { %s }", strings.Join(params, ", "), res, call), nil
}
