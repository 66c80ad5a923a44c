package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
)

// rangeOver rewrites the operand of a for-range statement over a map or
// a slice, in files of Go 1.23 and later (see rangeMap and rangeSlice),
// and a range over a map in earlier files (see rangeMapIter).
func (r *rewriter) rangeOver(s *ast.RangeStmt) {
	switch {
	case r.rangesMap(s) && !r.rangesOverFuncs():
		r.rangeMapIter(s)
	case r.rangesMap(s):
		site := r.site(s.For, operand{memoryOperand, anyDir, s.X})
		r.edits.add(r.off(s.X.Pos()), r.off(s.X.End()), text(r.rt("RangeMap")+"("), r.spanOf(s.X), text(", "+site+")"))
	case r.rangesSlice(s):
		x := r.spanOf(s.X)
		site := r.site(s.For, rangeElem(s, s.Key))
		if _, ok := coreType(r.typeOf(s.X)).(*types.Pointer); ok {
			r.edits.add(r.off(s.X.Pos()), r.off(s.X.End()), text(r.rt("RangeSlice")+"(("), x, text(")[:], "+site+")"))
			return
		}
		r.edits.add(r.off(s.X.Pos()), r.off(s.X.End()), text(r.rt("RangeSlice")+"("), x, text(", "+site+")"))
	}
}

// rangesMap reports whether the range statement s over a map is
// rewritten so that its order is a function of the schedule, and that it
// reports its reads of the map: in files of Go 1.23 and later
//
//	for k, v := range m { body }
//
// becomes
//
//	for k, v := range rt.RangeMap(m, site) { body }
//
// a range over a function, so the statement keeps everything else as it
// was: its variables and their per-iteration semantics, labels, break,
// continue, return and defer in the body. Files of earlier versions,
// which cannot range over a function, get a three-clause loop over
// rt.MapIter instead (rangeMapIter). Maps whose type is a type parameter
// keep the native range, whose order is not controlled.
func (r *rewriter) rangesMap(s *ast.RangeStmt) bool {
	t := r.typeOf(s.X)
	if t == nil {
		return false
	}
	if _, ok := t.(*types.TypeParam); ok {
		return false
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// rangeMapIter rewrites a range over a map, in a file of a Go version
// before 1.23, into a three-clause loop over rt.MapIter, which produces
// the entries rt.RangeMap would, in the same order, and reports the same
// reads:
//
//	for k, v := range m { body }
//
// becomes
//
//	for it, k, v := rt.RangeMapIter(m, site); it.Next(); { k, v = it.Entry(); body }
//
// on the lines of the original. m is evaluated once, by the init
// statement. rt.RangeMapIter returns the zero values of the key and value
// types with the iterator, so the variables are declared without naming
// their types (which the file may not be able to name); they are declared
// by the init statement, so that they are shared by all iterations before
// Go 1.22 and new in each from Go 1.22 on, as a three-clause loop's are,
// exactly as the range's were; the body, a block of its own, may redeclare
// them. A range that assigns, for k, v = range m, declares nothing
// (it, _, _ :=) and assigns its operands, evaluated anew in each
// iteration, at the start of the body in the same way; for k := range m
// assigns it.Key(), for range m nothing. A label on the statement labels
// the loop, so break, continue and goto keep their meaning, as do return
// and defer in the body.
func (r *rewriter) rangeMapIter(s *ast.RangeStmt) {
	it := r.tmp("It")
	site := r.site(s.For, operand{memoryOperand, anyDir, s.X})
	key, val := s.Key, s.Value
	if val != nil && isBlank(val) {
		val = nil
	}
	if val == nil && key != nil && isBlank(key) {
		key = nil
	}
	decl := ", _, _"
	if s.Tok == token.DEFINE {
		decl = ", " + iterVarName(s.Key) + ", " + iterVarName(s.Value)
	}
	head := []part{text("for " + it + decl + " := " + r.rt("RangeMapIter") + "("), r.spanOf(s.X), text(", " + site + "); " + it + ".Next(); {")}
	switch {
	case val != nil:
		head = append(head, text(" "), r.spanOf(key), text(", "), r.spanOf(val), text(" = "+it+".Entry();"))
	case key != nil:
		head = append(head, text(" "), r.spanOf(key), text(" = "+it+".Key();"))
	}
	// The header, up to and including the body's "{", is replaced.
	r.edits.add(r.off(s.Pos()), r.off(s.Body.Lbrace)+1, head...)
}

// iterVarName returns the name an iteration variable declares, "_" for none.
func iterVarName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "_"
}

// rangesSlice reports whether the range statement s over a slice, or a
// pointer to an array, with an iteration value, becomes a range over
// rt.RangeSlice, which reports the read of each element where the
// statement makes it, at the start of each iteration: in files of Go 1.23
// and later, for i, v := range s becomes for i, v := range
// rt.RangeSlice(s, site) (rt.RangeSlice((p)[:], site) for a pointer p to
// an array).
func (r *rewriter) rangesSlice(s *ast.RangeStmt) bool {
	if !readsElems(s) || !r.rangesOverFuncs() {
		return false
	}
	switch t := coreType(r.typeOf(s.X)).(type) {
	case *types.Slice:
		return true
	case *types.Pointer:
		_, isTP := types.Unalias(r.typeOf(s.X)).(*types.TypeParam)
		arr, isArr := t.Elem().Underlying().(*types.Array)
		return isArr && arr.Len() > 0 && !isTP
	}
	return false
}

// readsElems reports whether a range statement over a slice or a pointer
// to an array reads the elements: it has an iteration value, not the
// blank identifier (for i, _ := range s reads none, as the compiler
// makes it).
func readsElems(s *ast.RangeStmt) bool {
	if s.Value == nil {
		return false
	}
	id, ok := s.Value.(*ast.Ident)
	return !ok || id.Name != "_"
}

// rangesOverFuncs reports whether the file can range over functions.
func (r *rewriter) rangesOverFuncs() bool {
	v := r.fileVersion()
	return v != "" && version.Compare(v, "go1.23") >= 0
}

// rangeOperand collects the accesses of evaluating the operand of a range
// statement. As the language says, with at most one iteration variable
// and an array, or a pointer to one, whose length is constant, the
// operand is not evaluated at all: for i := range a.arr reads nothing. A
// map's contents are read when the range starts (in rt.RangeMap when the
// statement ranges over it).
func (c *collector) rangeOperand(s *ast.RangeStmt) {
	switch t := coreType(c.r.typeOf(s.X)).(type) {
	case *types.Array:
		if s.Value == nil && !c.r.hasEffects(s.X) {
			return
		}
	case *types.Pointer:
		if _, isArr := t.Elem().Underlying().(*types.Array); isArr && s.Value == nil && !c.r.hasEffects(s.X) {
			return
		}
	case *types.Map:
		c.read(s.X)
		if !c.r.rangesMap(s) {
			c.add(readAccess, s.X, true)
		}
		return
	}
	c.read(s.X)
}

// instrumentRangeElems reports, at the start of each iteration, what a
// range statement that is not rewritten (see rangeOver) reads to produce
// it: the element of a slice or of a pointed-to array that its value
// variable gets, the contents of a map. It does so only where the operand
// is a local variable that nothing else can change during the statement
// (not shared, not assigned in the body), so that the variable still
// holds what the statement ranges over; the element's index is the key
// variable, which is declared for it when the statement has the blank
// identifier there.
func (r *rewriter) instrumentRangeElems(s *ast.RangeStmt) {
	id, ok := unparen(s.X).(*ast.Ident)
	if !ok {
		return
	}
	v, ok := r.info.Uses[id].(*types.Var)
	if !ok || v.Parent() == r.pkg.Scope() || r.shared[v] || r.assignsIn(s.Body, v) {
		return
	}
	switch t := coreType(v.Type()).(type) {
	case *types.Map:
		if r.rangesMap(s) {
			return
		}
		r.edits.insert(r.off(s.Body.Lbrace)+1, " "+r.rt("Read")+"("+id.Name+", "+r.site(s.For, operand{memoryOperand, anyDir, id})+");")
		return
	case *types.Slice:
	case *types.Pointer:
		if arr, isArr := t.Elem().Underlying().(*types.Array); !isArr || arr.Len() == 0 {
			return
		}
	default:
		return
	}
	if !readsElems(s) || r.rangesSlice(s) {
		return
	}
	key, ok := s.Key.(*ast.Ident)
	if !ok {
		return
	}
	name := key.Name
	switch {
	case s.Tok == token.DEFINE && name == "_":
		name = r.tmp("K")
		r.edits.add(r.off(key.Pos()), r.off(key.End()), text(name))
	case s.Tok == token.DEFINE:
	default:
		kv, ok := r.info.Uses[key].(*types.Var)
		if !ok || name == "_" || kv.Parent() == r.pkg.Scope() || r.shared[kv] {
			return
		}
	}
	r.edits.insert(r.off(s.Body.Lbrace)+1, " "+r.rt("Read")+"(&"+id.Name+"["+name+"], "+r.site(s.For, rangeElem(s, key))+");")
}

// rangeElem is the operand of what each iteration of the range statement
// s over a slice or an array reads: s.X[k] for its key variable k, s.X
// when it has none.
func rangeElem(s *ast.RangeStmt, key ast.Expr) operand {
	x := unparen(s.X)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = u.X // range &arr: arr[i]
	}
	if k, ok := key.(*ast.Ident); ok && k.Name != "_" {
		return operand{memoryOperand, anyDir, &ast.IndexExpr{X: x, Index: k}}
	}
	return operand{memoryOperand, anyDir, x}
}

// assignsIn reports whether n assigns to variable v, in whole or in part.
func (r *rewriter) assignsIn(n ast.Node, v *types.Var) bool {
	found := false
	assigned := func(l ast.Expr) {
		if r.rootVar(l) == v {
			found = true
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				assigned(l)
			}
		case *ast.IncDecStmt:
			assigned(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				if n.Key != nil {
					assigned(n.Key)
				}
				if n.Value != nil {
					assigned(n.Value)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				assigned(n.X)
			}
		}
		return !found
	})
	return found
}
