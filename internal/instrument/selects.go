package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// selCase is one non-default case of a select statement.
type selCase struct {
	clause *ast.CommClause
	send   *ast.SendStmt  // send case
	recv   *ast.UnaryExpr // receive case
	lhs    []ast.Expr     // receive case: assigned or declared operands
	tok    token.Token    // receive case: DEFINE or ASSIGN when lhs != nil
	elem   string         // element type
	elemT  types.Type
}

// selectStmt rewrites a select statement into the shape documented on
// rt.Select: channel and send-value expressions are evaluated once, in
// source order, into temporaries; the cases are registered; and a switch
// on the index of the case taken runs the case bodies. A label on the
// select moves onto the switch so break keeps its meaning. When the select
// has no default case the last case becomes the switch's default, so a
// select that is a terminating statement stays one.
func (r *rewriter) selectStmt(s *ast.SelectStmt, label *ast.LabeledStmt) {
	cases, hasDefault, err := r.selectCases(s)
	if err == "" && label != nil && r.hasBranch(label, token.GOTO) {
		if r.hasBranch(label, token.BREAK) {
			err = "its label is the target of both goto and break"
		} else {
			label = nil // the label stays where it is, on the block
		}
	}
	if err != "" {
		r.warnf(s.Pos(), "select left native: %s", err)
		r.walkSelectNative(s)
		return
	}
	start := s.Pos()
	var labelText []part
	if label != nil {
		start = label.Pos()
		labelText = []part{softSpan(r.off(label.Pos()), r.off(label.Colon)+1), text(" ")}
	}
	// The events of a select name the channel of the case they run: by
	// direction, when only one case sends or only one receives.
	var ops []operand
	for _, c := range cases {
		if c.send != nil {
			ops = append(ops, operand{chanOperand, outDir, c.send.Chan})
		} else {
			ops = append(ops, operand{chanOperand, inDir, c.recv.X})
		}
	}
	site := r.site(s.Select, ops...)
	if len(s.Body.List) == 0 {
		parts := append(labelText, text("for { "+r.rt("SelectStart")+"("+site+").Do(false) }"))
		r.edits.add(r.off(start), r.off(s.End()), parts...)
		return
	}

	// Evaluate channels and send values once, in source order; constants
	// need no temporary.
	var tmpNames []string
	var values [][]part
	arg := func(e ast.Expr, conv string) []part {
		if r.isConst(e) {
			return []part{r.softOf(e)}
		}
		n := r.tmp("C")
		tmpNames = append(tmpNames, n)
		if conv != "" {
			values = append(values, []part{text("(" + conv + ")("), r.softOf(e), text(")")})
		} else {
			values = append(values, []part{r.softOf(e)})
		}
		return []part{text(n)}
	}
	sel := r.tmp("Sel")
	var reg []part
	for _, c := range cases {
		if c.send != nil {
			ch := arg(c.send.Chan, "")
			conv := ""
			if vt := r.typeOf(c.send.Value); vt == nil || !types.Identical(vt, c.elemT) || mayBeUntyped(c.send.Value) {
				conv = c.elem
			}
			v := arg(c.send.Value, conv)
			reg = append(reg, text(r.rt("SelectSend["+c.elem+"]")+"("+sel+", "))
			reg = append(reg, ch...)
			reg = append(reg, text(", "))
			reg = append(reg, v...)
			reg = append(reg, text("); "))
		} else {
			ch := arg(c.recv.X, "")
			reg = append(reg, text(r.rt("SelectRecv["+c.elem+"]")+"("+sel+", "))
			reg = append(reg, ch...)
			reg = append(reg, text("); "))
		}
	}
	parts := []part{text("{ ")}
	if len(tmpNames) > 0 {
		parts = append(parts, text(strings.Join(tmpNames, ", ")+" := "))
		for i, v := range values {
			if i > 0 {
				parts = append(parts, text(", "))
			}
			parts = append(parts, v...)
		}
		parts = append(parts, text("; "))
	}
	parts = append(parts, text(sel+" := "+r.rt("SelectStart")+"("+site+"); "))
	parts = append(parts, reg...)
	parts = append(parts, labelText...)
	dflt := "false"
	if hasDefault {
		dflt = "true"
	}
	parts = append(parts, text("switch "+sel+".Do("+dflt+") {"))
	clauses := s.Body.List
	parts = append(parts, span(r.off(s.Body.Lbrace)+1, r.off(clauses[0].Pos())))
	k := 0
	for i, st := range clauses {
		cc := st.(*ast.CommClause)
		end := r.off(s.Body.Rbrace)
		if i+1 < len(clauses) {
			end = r.off(clauses[i+1].Pos())
		}
		if cc.Comm == nil {
			parts = append(parts, text("default:"))
		} else {
			c := cases[k]
			if k == len(cases)-1 && !hasDefault {
				parts = append(parts, text("default:"))
			} else {
				parts = append(parts, text("case "+strconv.Itoa(k)+":"))
			}
			k++
			if len(c.lhs) > 0 {
				parts = append(parts, text(" "))
				for j, l := range c.lhs {
					if j > 0 {
						parts = append(parts, text(", "))
					}
					parts = append(parts, r.softOf(l))
				}
				if len(c.lhs) == 1 {
					parts = append(parts, text(", _"))
				}
				parts = append(parts, text(" "+c.tok.String()+" "+r.rt("SelectValue["+c.elem+"]")+"("+sel+");"))
			}
		}
		parts = append(parts, span(r.off(cc.Colon)+1, end))
	}
	parts = append(parts, text("}}"))
	r.edits.add(r.off(start), r.off(s.End()), parts...)

	for _, c := range cases {
		if c.send != nil {
			r.walk(c.send.Chan)
			r.walk(c.send.Value)
		} else {
			r.walk(c.recv.X)
			if c.tok == token.ASSIGN {
				r.walkList(c.lhs)
			}
		}
	}
	for _, st := range clauses {
		for _, b := range st.(*ast.CommClause).Body {
			r.walk(b)
		}
	}
}

// selectCases analyzes the cases of s; err says why s cannot be rewritten.
func (r *rewriter) selectCases(s *ast.SelectStmt) (cases []selCase, hasDefault bool, err string) {
	for _, st := range s.Body.List {
		cc := st.(*ast.CommClause)
		var c selCase
		c.clause = cc
		var chExpr ast.Expr
		switch comm := cc.Comm.(type) {
		case nil:
			hasDefault = true
			continue
		case *ast.SendStmt:
			c.send = comm
			chExpr = comm.Chan
		case *ast.ExprStmt:
			u, ok := unparen(comm.X).(*ast.UnaryExpr)
			if !ok || u.Op != token.ARROW {
				return nil, false, "unexpected case form"
			}
			c.recv = u
			chExpr = u.X
		case *ast.AssignStmt:
			u, ok := unparen(comm.Rhs[0]).(*ast.UnaryExpr)
			if !ok || u.Op != token.ARROW || len(comm.Rhs) != 1 || len(comm.Lhs) > 2 {
				return nil, false, "unexpected case form"
			}
			c.recv = u
			c.lhs = comm.Lhs
			c.tok = comm.Tok
			chExpr = u.X
		default:
			return nil, false, "unexpected case form"
		}
		ch := chanElem(r.typeOf(chExpr))
		if ch == nil {
			return nil, false, "channel of unknown type"
		}
		elem, e := r.typeExpr(ch.Elem(), s.Pos())
		if e != nil {
			return nil, false, e.Error()
		}
		c.elem, c.elemT = elem, ch.Elem()
		cases = append(cases, c)
	}
	return cases, hasDefault, ""
}

// walkSelectNative walks a select left as it is: its receives stay
// receives, their operands and the bodies are still rewritten.
func (r *rewriter) walkSelectNative(s *ast.SelectStmt) {
	for _, st := range s.Body.List {
		cc := st.(*ast.CommClause)
		switch comm := cc.Comm.(type) {
		case *ast.SendStmt:
			r.walk(comm.Chan)
			r.walk(comm.Value)
		case *ast.ExprStmt:
			if u, ok := unparen(comm.X).(*ast.UnaryExpr); ok {
				r.walk(u.X)
			}
		case *ast.AssignStmt:
			r.walkList(comm.Lhs)
			if u, ok := unparen(comm.Rhs[0]).(*ast.UnaryExpr); ok {
				r.walk(u.X)
			}
		}
		for _, b := range cc.Body {
			r.walk(b)
		}
	}
}

// hasBranch reports whether some branch statement of kind tok targets
// label.
func (r *rewriter) hasBranch(label *ast.LabeledStmt, tok token.Token) bool {
	obj := r.info.Defs[label.Label]
	found := false
	ast.Inspect(r.file, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == tok && b.Label != nil && r.info.Uses[b.Label] == obj {
			found = true
		}
		return !found
	})
	return found
}
