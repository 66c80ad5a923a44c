package instrument

import (
	"go/ast"
	"go/token"
	"go/version"
)

// send rewrites "c <- v" into rt.Send[T](c, v, site).
func (r *rewriter) send(s *ast.SendStmt) {
	ch := chanElem(r.typeOf(s.Chan))
	if ch == nil {
		r.warnf(s.Pos(), "send on a channel of unknown type left native")
		r.walk(s.Chan)
		r.walk(s.Value)
		return
	}
	elem, err := r.typeExpr(ch.Elem(), s.Pos())
	if err != nil {
		r.warnf(s.Pos(), "send left native: %v", err)
		r.walk(s.Chan)
		r.walk(s.Value)
		return
	}
	r.replace(s, text(r.rt("Send["+elem+"]")+"("), r.spanOf(s.Chan), text(", "), r.spanOf(s.Value), text(", "+r.site(s.Arrow, operand{chanOperand, anyDir, s.Chan})+")"))
	r.walk(s.Chan)
	r.walk(s.Value)
}

// recv rewrites the receive expression "<-c" into rt.Recv[T](c, site), or
// rt.Recv2[T] when its value is assigned with an ok flag.
func (r *rewriter) recv(u *ast.UnaryExpr) {
	ch := chanElem(r.typeOf(u.X))
	if ch == nil {
		r.warnf(u.Pos(), "receive from a channel of unknown type left native")
		r.walk(u.X)
		return
	}
	elem, err := r.typeExpr(ch.Elem(), u.Pos())
	if err != nil {
		r.warnf(u.Pos(), "receive left native: %v", err)
		r.walk(u.X)
		return
	}
	fn := "Recv"
	if r.recv2[u] {
		fn = "Recv2"
	}
	r.replace(u, text(r.rt(fn+"["+elem+"]")+"("), r.spanOf(u.X), text(", "+r.site(u.OpPos, operand{chanOperand, anyDir, u.X})+")"))
	r.walk(u.X)
}

// rangeChan rewrites "for k := range c { body }" into
//
//	for __c := c; ; { k, __ok := rt.Recv2[T](__c, site); if !__ok { break }; { body } }
//
// A label on the loop stays on it, so break and continue keep their
// meaning; the body gets its own block so it may redeclare k.
func (r *rewriter) rangeChan(s *ast.RangeStmt) {
	ch := chanElem(r.typeOf(s.X))
	elem, err := r.typeExpr(ch.Elem(), s.Pos())
	if err != nil {
		r.warnf(s.Pos(), "range over channel left native: %v", err)
		r.walk(s.X)
		r.walk(s.Body)
		return
	}
	c, ok := r.tmp("Ch"), r.tmp("Ok")
	ranged := operand{chanOperand, anyDir, s.X}
	recv := r.rt("Recv2["+elem+"]") + "(" + c + ", " + r.site(s.For, ranged) + ")"
	head := []part{text("for " + c + " := "), r.spanOf(s.X), text("; ; { ")}
	switch {
	case s.Key == nil || isBlank(s.Key):
		head = append(head, text("_, "+ok+" := "+recv+"; if !"+ok+" { break }; {"))
	case s.Tok == token.DEFINE && r.perLoopVars():
		// Before Go 1.22 the variable is shared by all iterations. The
		// element type is named only in the init, before the variable
		// (which may shadow it, as in "for T := range c" over a chan T)
		// is in scope; the loop calls the instantiated receive through f.
		f := r.tmp("Recv")
		head = []part{text("for " + f + ", " + c + ", "), r.spanOf(s.Key), text(" := " + r.rt("Recv2["+elem+"]") + ", "), r.spanOf(s.X), text(", *new(" + elem + "); ; { var " + ok + " bool; "),
			text(s.Key.(*ast.Ident).Name), text(", " + ok + " = " + f + "(" + c + ", " + r.site(s.For, ranged) + "); if !" + ok + " { break }; {")}
	case s.Tok == token.DEFINE:
		head = append(head, r.spanOf(s.Key), text(", "+ok+" := "+recv+"; if !"+ok+" { break }; {"))
	default:
		v := r.tmp("V")
		head = append(head, text(v+", "+ok+" := "+recv+"; if !"+ok+" { break }; "), r.spanOf(s.Key), text(" = "+v+"; {"))
	}
	lbrace := r.off(s.Body.Lbrace)
	// The header, up to and including the body's "{", is replaced.
	r.edits.add(r.off(s.Pos()), lbrace+1, head...)
	r.edits.add(r.off(s.Body.Rbrace), r.off(s.Body.Rbrace)+1, text("}}"))
	if s.Key != nil && s.Tok != token.DEFINE {
		r.walk(s.Key)
	}
	r.walk(s.X)
	r.walk(s.Body)
}

// perLoopVars reports whether the file's language version predates
// per-iteration loop variables (Go 1.22).
func (r *rewriter) perLoopVars() bool {
	v := r.fileVersion()
	return v != "" && version.Compare(v, "go1.22") < 0
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}
