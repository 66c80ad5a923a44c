package instrument

import (
	"go/ast"
	"go/types"
	"go/version"
)

// rangeMap makes the order of a for-range statement over a map a function
// of the schedule: in files of Go 1.23 and later it rewrites
//
//	for k, v := range m { body }
//
// into
//
//	for k, v := range rt.RangeMap(m, site) { body }
//
// a range over a function, so the statement keeps everything else as it
// was: its variables and their per-iteration semantics, labels, break,
// continue, return and defer in the body. Files of earlier versions
// cannot range over a function and keep the native range (its order is
// not controlled there). Maps whose type is a type parameter are left
// alone too.
func (r *rewriter) rangeMap(s *ast.RangeStmt) {
	t := r.typeOf(s.X)
	if t == nil {
		return
	}
	if _, ok := t.(*types.TypeParam); ok {
		return
	}
	if _, ok := t.Underlying().(*types.Map); !ok {
		return
	}
	if v := r.fileVersion(); v == "" || version.Compare(v, "go1.23") < 0 {
		return
	}
	r.edits.add(r.off(s.X.Pos()), r.off(s.X.End()), text(r.rt("RangeMap")+"("), r.spanOf(s.X), text(", "+r.site(s.For)+")"))
}
