package instrument

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// Switch statements (strategy mpc).
//
// A switch statement with a tag compares the tag with each case
// expression in order, top to bottom and left to right, until one is
// equal: the chain of branches tag == e1, tag == e2, ... that an if-else
// chain would make, each a branch of the thread's path (Yi and Huang,
// section 4.1, definition 4.1: a path is each thread's executed branch
// outcomes). When the
// tag is pure (no calls, receives or function literals; evaluating it
// again gives the same value, as no case expression has a scheduling
// point), of integer, boolean or string type, every case expression is
// a constant, and tag == e is a term for each, the switch is rewritten
// into a switch without a tag whose cases are those comparisons:
//
//	switch cmd { case "get", "ping": ... case "incr": ... default: ... }
//
// becomes
//
//	switch { case rt.Branch(cmd == ("get"), ...), rt.Branch(cmd == ("ping"), ...): ...
//	case rt.Branch(cmd == ("incr"), ...): ... default: ... }
//
// which evaluates the same comparisons in the same order and reports
// each. Its init statement, fallthrough, break and default keep their
// meaning. The tag's reads of shared memory are reported before the
// switch, once, as before; so is its bounds check when it indexes a
// string or []byte: the first case's term has it ("@"), the others read
// the byte without it ("@?"). A switch that cannot be rewritten so, but
// whose tag or cases depend on something tracked, gets rt.Untracked in
// front of it.

// switchCases rewrites switch statement s (see above), or marks it
// untracked.
func (fz *fuzzBody) switchCases(s *ast.SwitchStmt) {
	r := fz.r
	if s.Tag == nil {
		// Each case is a condition, as an if statement's.
		for _, cl := range s.Body.List {
			for _, e := range cl.(*ast.CaseClause).List {
				fz.branch(s, e)
			}
		}
		return
	}
	exprs, ok := fz.caseExprs(s)
	if !ok || fz.rewritten(s.Tag) {
		fz.untrackedSwitch(s)
		return
	}
	var uses []*localVar
	for i, e := range exprs {
		t, _, ok := fz.caseTerm(s, e, i == 0, true)
		if !ok {
			fz.untrackedSwitch(s)
			return
		}
		uses = append(uses, t.uses...)
	}
	emit := func() {
		if fz.rewritten(s.Tag) {
			fz.untrackedSwitch(s)
			return
		}
		type wrap struct {
			e   ast.Expr
			t   *symTerm
			sym string
		}
		wraps := make([]wrap, len(exprs))
		for i, e := range exprs {
			t, sym, ok := fz.caseTerm(s, e, i == 0, false)
			if !ok {
				fz.untrackedSwitch(s)
				return
			}
			wraps[i] = wrap{e: e, t: t, sym: sym}
		}
		tag := r.source(s.Tag)
		if _, ok := s.Tag.(*ast.BinaryExpr); ok {
			tag = "(" + tag + ")" // a || b == (true) is a || (b == true)
		}
		r.edits.add(r.off(s.Tag.Pos()), r.off(s.Tag.End()))
		for _, w := range wraps {
			r.edits.wrap(r.off(w.e.Pos()), r.off(w.e.End()),
				r.rt("Branch")+"("+tag+" == (", "), "+r.site(w.e.Pos())+", "+quote(w.sym)+w.t.leafList()+")")
			w.t.wrapCalls()
		}
	}
	if fz.st == nil {
		emit()
		return
	}
	fz.st.plan(&symTerm{uses: uses}, emit)
}

// rewritten reports whether an edit changes e's text (an edit around it
// does not).
func (fz *fuzzBody) rewritten(e ast.Expr) bool {
	r := fz.r
	start, end := r.off(e.Pos()), r.off(e.End())
	for _, ed := range r.edits.edits {
		inside := ed.start == ed.end && start < ed.start && ed.start < end
		overlaps := ed.start < ed.end && ed.start < end && start < ed.end
		around := ed.start <= start && end <= ed.end && ed.end-ed.start > end-start
		if inside || overlaps && !around {
			return true
		}
	}
	return false
}

// caseExprs returns the case expressions of s in the order Go evaluates
// them, when s's tag is pure, of integer, boolean or string type, and
// they are constants, at least one.
func (fz *fuzzBody) caseExprs(s *ast.SwitchStmt) ([]ast.Expr, bool) {
	r := fz.r
	if !fz.pure(s.Tag) {
		return nil, false
	}
	if t := r.typeOf(s.Tag); t == nil || intOrBool(t) == nil && !isString(t) {
		return nil, false
	}
	if tv, ok := r.info.Types[s.Tag]; !ok || tv.Value != nil {
		return nil, false // a constant tag: nothing to explore
	}
	var exprs []ast.Expr
	for _, cl := range s.Body.List {
		for _, e := range cl.(*ast.CaseClause).List {
			if tv, ok := r.info.Types[e]; !ok || tv.Value == nil {
				return nil, false
			}
			exprs = append(exprs, e)
		}
	}
	return exprs, len(exprs) > 0
}

// caseTerm returns the term of tag == e, e a case expression of switch
// s; first tells that e is the first one Go evaluates.
func (fz *fuzzBody) caseTerm(s *ast.SwitchStmt, e ast.Expr, first, dry bool) (*symTerm, string, bool) {
	r := fz.r
	t := fz.newTerm()
	t.dry = dry
	t.noBounds = !first
	t.reported(s.Tag)
	var sym string
	tv := r.info.Types[e]
	if isString(r.typeOf(s.Tag)) {
		var ok bool
		if sym, ok = t.equalsConst(s.Tag, constant.StringVal(tv.Value)); !ok {
			return nil, "", false
		}
	} else {
		x, ok := t.term(s.Tag, false)
		if !ok {
			return nil, "", false
		}
		c, ok := constTerm(types.TypeAndValue{Type: r.typeOf(s.Tag), Value: tv.Value})
		if !ok {
			return nil, "", false
		}
		sym = "(== " + x + " " + c + ")"
	}
	if !t.symbolic || !t.fits() || t.read && s.Init != nil {
		// A read of the tag is reported before the init statement, which
		// may change the memory before the tag reads it.
		return nil, "", false
	}
	return t, sym, true
}

// untrackedSwitch puts rt.Untracked in front of switch s when its tag or
// its case expressions depend on something tracked.
func (fz *fuzzBody) untrackedSwitch(s *ast.SwitchStmt) {
	if s.Tag != nil && fz.tracks(s.Tag) {
		fz.untracked(s, s.Tag.Pos())
		return
	}
	for _, cl := range s.Body.List {
		for _, e := range cl.(*ast.CaseClause).List {
			if fz.tracks(e) {
				fz.untracked(s, e.Pos())
				return
			}
		}
	}
}
