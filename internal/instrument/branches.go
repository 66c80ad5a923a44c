package instrument

import (
	"go/ast"
	"go/build"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Branches of fuzz bodies (strategy mpc, see rt.Branch).
//
// In a fuzz body wrapped by wrapFuzzBody, and in the function literals
// inside it, the condition c of an if statement and of a for statement
// becomes
//
//	rt.Branch(c, site, "(< i0 m0:i64)", nil, &x)
//
// when c is bool, is made only of integer and boolean constants, inputs,
// shared memory reads and local variables combined by + - * unary - !
// comparisons && || and integer conversions (and the lengths, bytes and
// comparisons with constants of strings, strterms.go), and mentions an
// input or a read of shared memory; so do the cases of a switch
// statement (switches.go). Anything else (calls, division, shifts,
// bitwise operators, string orderings, floats, maps, variable
// indexes...) leaves the condition as it is.
//
// An input is a parameter of the fuzz body, after the *testing.T, of
// integer or boolean type, that the body never assigns nor takes the
// address of: "i" K, K its index after the *testing.T. A memory read is a
// location of integer or boolean type whose read the memory
// instrumentation reports (rt.Read) every time c is evaluated, right
// before: "m" J ":" TY, with the location's address as ptrs[J]. The
// address is evaluated again in Branch's arguments, after c: it must have
// no side effects (variables, field selections, indirections, constant
// indexes), and in a right operand of && or ||, which c may not have
// evaluated, it must not be able to panic either (no indirection of a
// pointer that may be nil, no slice index). Any other local variable of
// the body of integer or boolean type is a concrete value: "v" J, with
// int64(v), or rt.B(v) for a boolean, as vals[J]. J counts the values and
// the pointers separately, in the order of their first appearance; vals
// is a []int64 literal, nil when empty, and pointers are boxed but not
// values, which would cost an allocation at every evaluation. A condition
// needing more than 16 values is left as it is. A read of shared memory
// that is not a leaf (not reported, or read twice in c with a scheduling
// point between the reads) makes c not symbolic.
//
// A statement of a statement list in a fuzz body that writes shared memory
// x of integer or boolean type, x = e, x op= e (op + - *), x++ and x--,
// is followed on its line by rt.SymWrite(&x, site, sym, vals, ptrs...), sym
// the term of the value written, when e is symbolic as above.
//
// What the terms cannot express is marked, so that mpc does not claim
// every path covered: a condition left as it is that depends on something
// tracked gets rt.Untracked(site) in front of its statement, and an
// integer division by a non-constant y gets rt.Branch(y != 0, ...) in
// front of its statement when y is symbolic, or rt.Untracked when it is
// not but depends on something tracked (see branch and divisions).

// branches instruments the branches and writes of every fuzz body, or,
// with Options.Symbolic, of every function of the file (see symbolic).
func (r *rewriter) branches() {
	if r.opts.Symbolic {
		r.symbolic()
		return
	}
	for _, lit := range r.fuzzLits {
		fz := &fuzzBody{r: r, lit: lit, inputs: r.fuzzInputs(lit)}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			fz.visit(n)
			return true
		})
	}
}

// visit rewrites the condition of n, an if or for statement, and the
// writes of the statements of n, a statement list.
func (fz *fuzzBody) visit(n ast.Node) {
	var list []ast.Stmt
	switch n := n.(type) {
	case *ast.IfStmt:
		fz.branch(n, n.Cond)
	case *ast.ForStmt:
		if n.Cond != nil {
			fz.branch(n, n.Cond)
		}
	case *ast.SwitchStmt:
		fz.switchCases(n)
	case *ast.BlockStmt:
		list = n.List
	case *ast.CaseClause:
		list = n.Body
	case *ast.CommClause:
		list = n.Body
	}
	for _, s := range list {
		fz.divisions(s)
		fz.symWrite(unlabel(s))
	}
}

// unlabel returns the statement s labels, if s is a labeled statement.
func unlabel(s ast.Stmt) ast.Stmt {
	for {
		l, ok := s.(*ast.LabeledStmt)
		if !ok {
			return s
		}
		s = l.Stmt
	}
}

// fuzzBody is a fuzz body function literal.
type fuzzBody struct {
	r      *rewriter
	lit    *ast.FuncLit
	inputs map[*types.Var]int // input parameter -> K

	// With Options.Symbolic: the state of the file, and the function
	// (*ast.FuncDecl or *ast.FuncLit) being rewritten, whose tracked
	// local variables are "l" leaves; lit is nil.
	st       *symState
	fn       ast.Node
	inputsOf *ast.FuncLit // the fuzz body whose inputs are inputs
	hook     bool         // a term of the function uses a local or a call's result: it calls rt.SymEnter
	frame    bool         // its return statements report their terms (rt.SymRet)
}

// fuzzInputs returns the parameters of fuzz body lit that are inputs of
// integer, boolean, string or []byte type the body never changes, with
// their index after the *testing.T.
func (r *rewriter) fuzzInputs(lit *ast.FuncLit) map[*types.Var]int {
	inputs := make(map[*types.Var]int)
	k := 0
	for _, p := range lit.Type.Params.List {
		if len(p.Names) == 0 {
			k++
			continue
		}
		for _, n := range p.Names {
			if v, ok := r.info.Defs[n].(*types.Var); ok && k > 0 && n.Name != "_" && (intOrBool(v.Type()) != nil || isStringLike(v.Type())) {
				inputs[v] = k - 1
			}
			k++
		}
	}
	changed := func(e ast.Expr) {
		if id, ok := unparen(e).(*ast.Ident); ok {
			if v, ok := r.info.Uses[id].(*types.Var); ok {
				delete(inputs, v)
			}
		}
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				changed(l) // a := redeclaring l uses it
			}
		case *ast.IncDecStmt:
			changed(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				changed(n.Key)
				changed(n.Value)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				changed(n.X)
			}
		case *ast.SelectorExpr:
			if sel := r.info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal && takesAddress(r, sel, n.X) {
				changed(n.X)
			}
		}
		return true
	})
	return inputs
}

// branch rewrites the condition cond of s, an if or for statement, into
// rt.Branch(cond, site, sym, vals, ptrs...) when it is symbolic, or, when
// it is not but depends on something tracked, puts rt.Untracked before s.
func (fz *fuzzBody) branch(s ast.Stmt, cond ast.Expr) {
	r := fz.r
	emit := func(t *symTerm, sym string) {
		r.edits.wrap(r.off(cond.Pos()), r.off(cond.End()),
			r.rt("Branch")+"(", ", "+r.site(cond.Pos())+", "+quote(sym)+t.leafList()+")")
		t.wrapCalls()
	}
	if fz.st == nil {
		if t, sym, ok := fz.branchTerm(cond, false); ok {
			emit(t, sym)
		} else if fz.tracks(cond) {
			fz.untracked(s, cond.Pos())
		}
		return
	}
	if t, _, ok := fz.branchTerm(cond, true); ok {
		fz.st.plan(t, func() {
			if t, sym, ok := fz.branchTerm(cond, false); ok {
				emit(t, sym)
			}
		})
	} else if fz.tracks(cond) {
		fz.untracked(s, cond.Pos())
	}
}

// tracks reports whether e depends on something the rewrite tracks, or
// may: an input, a tracked local variable, a read of shared memory, or
// the result of a call (but of a builtin function or a conversion).
func (fz *fuzzBody) tracks(e ast.Expr) bool {
	r := fz.r
	c := &collector{r: r, start: e.Pos(), seen: make(map[string]int), dry: true}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			found = true // called, or passed to a call
		case *ast.CallExpr:
			if tv, ok := r.info.Types[n.Fun]; ok && tv.IsType() {
				break
			}
			if id, ok := unparen(n.Fun).(*ast.Ident); ok {
				if _, ok := r.info.Uses[id].(*types.Builtin); ok {
					break
				}
			}
			found = true
		case *ast.Ident:
			if v, ok := r.info.Uses[n].(*types.Var); ok {
				if _, ok := fz.inputs[v]; ok {
					found = true
				}
				if fz.st != nil {
					if lv := fz.st.vars[v]; lv != nil && lv.symbolic && (lv.captured || lv.fz == fz) {
						found = true
					}
				}
			}
			if c.sharedLoc(n) {
				found = true
			}
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
			if c.sharedLoc(n.(ast.Expr)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// untracked puts rt.Untracked(site of pos) in front of statement s, or
// in front of the first if statement of the chain whose else s is, and
// of its labels.
func (fz *fuzzBody) untracked(s ast.Stmt, pos token.Pos) {
	r := fz.r
	for {
		p := r.parents[s]
		if l, ok := p.(*ast.LabeledStmt); ok {
			s = l
			continue
		}
		if i, ok := p.(*ast.IfStmt); ok && i.Else == s {
			s = i
			continue
		}
		break
	}
	switch p := r.parents[s].(type) {
	case *ast.BlockStmt, *ast.CaseClause:
	case *ast.CommClause:
		if p.Comm == s {
			return
		}
	default:
		return
	}
	r.edits.insert(r.off(s.Pos()), r.rt("Untracked")+"("+r.site(pos)+"); ")
}

// divisions checks the divisors of the integer divisions and remainders
// that s, a statement of a statement list, evaluates: a divisor that is
// symbolic gets rt.Branch(y != 0, ...) in front of s, after the reports
// of its reads; one that is not but depends on something tracked, and
// one in the header of an if, for, switch or select statement, or in a
// right operand of && or ||, which s may not evaluate, rt.Untracked.
func (fz *fuzzBody) divisions(s ast.Stmt) {
	inner := unlabel(s)
	var header []ast.Node
	switch n := inner.(type) {
	case *ast.IfStmt:
		// The conditions are Untracked when they are not rewritten (branch).
		for x := n; x != nil; {
			if x.Init != nil {
				header = append(header, x.Init)
			}
			x, _ = x.Else.(*ast.IfStmt)
		}
	case *ast.ForStmt:
		header = append(header, n.Init, n.Post)
	case *ast.SwitchStmt:
		header = append(header, n.Init, n.Tag)
		for _, cl := range n.Body.List {
			for _, e := range cl.(*ast.CaseClause).List {
				header = append(header, e)
			}
		}
	case *ast.TypeSwitchStmt:
		header = append(header, n.Init, n.Assign)
	case *ast.RangeStmt:
		header = append(header, n.Key, n.Value, n.X)
	case *ast.SelectStmt:
		for _, cl := range n.Body.List {
			header = append(header, cl.(*ast.CommClause).Comm)
		}
	case *ast.BlockStmt, *ast.BranchStmt, *ast.EmptyStmt, *ast.CaseClause, *ast.CommClause:
	default:
		fz.divisionsIn(s, inner, false)
	}
	for _, h := range header {
		if h != nil {
			fz.divisionsIn(s, h, true)
		}
	}
}

// source returns the original text of e.
func (r *rewriter) source(e ast.Expr) string {
	return string(r.src[r.off(e.Pos()):r.off(e.End())])
}

// divisionsIn checks the divisions of n, part of s; header tells that n
// is not evaluated right after the reports in front of s.
func (fz *fuzzBody) divisionsIn(s ast.Stmt, n ast.Node, header bool) {
	r := fz.r
	var walk func(n ast.Node, cond bool)
	walk = func(n ast.Node, cond bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false // its statements are checked by themselves
			case *ast.BinaryExpr:
				if m.Op == token.LAND || m.Op == token.LOR {
					walk(m.X, cond)
					walk(m.Y, true)
					return false
				}
				if (m.Op == token.QUO || m.Op == token.REM) && isInteger(r.typeOf(m)) {
					fz.division(s, m.Y, m.OpPos, cond)
				}
			case *ast.AssignStmt:
				if (m.Tok == token.QUO_ASSIGN || m.Tok == token.REM_ASSIGN) && len(m.Lhs) == 1 && len(m.Rhs) == 1 &&
					isInteger(r.typeOf(m.Lhs[0])) {
					fz.division(s, m.Rhs[0], m.TokPos, cond)
				}
			}
			return true
		})
	}
	walk(n, header)
}

// division checks divisor y of a division at pos in statement s (see
// divisions); late tells that y is not evaluated right after the reports
// in front of s.
func (fz *fuzzBody) division(s ast.Stmt, y ast.Expr, pos token.Pos, late bool) {
	r := fz.r
	if tv, ok := r.info.Types[y]; ok && tv.Value != nil {
		return
	}
	if !late {
		emit := func(t *symTerm, sym string) {
			r.edits.insert(r.off(s.Pos()), r.rt("Branch")+"("+r.source(y)+" != 0, "+r.site(pos)+", "+quote(sym)+t.leafList()+"); ")
		}
		t, _, ok := fz.divisorTerm(s, y, true)
		switch {
		case ok && t.symbolic && fz.st == nil:
			if t, sym, ok := fz.divisorTerm(s, y, false); ok {
				emit(t, sym)
			}
			return
		case ok && t.symbolic:
			fz.st.plan(t, func() {
				if t, sym, ok := fz.divisorTerm(s, y, false); ok {
					emit(t, sym)
				}
			})
			return
		case ok:
			return // constants and values that are not tracked
		}
	}
	if fz.tracks(y) {
		fz.untracked(s, pos)
	}
}

// divisorTerm returns the term of y != 0, y a divisor in statement s, if
// y is a term.
func (fz *fuzzBody) divisorTerm(s ast.Stmt, y ast.Expr, dry bool) (*symTerm, string, bool) {
	r := fz.r
	inner := unlabel(s)
	c := &collector{r: r, start: s.Pos(), seen: make(map[string]int), dry: true}
	c.stmt(inner)
	accs := c.accs
	if c.calls > 0 {
		accs, _ = c.late(inner) // the reads reported before s
	}
	t := fz.newTerm()
	t.dry = dry
	t.group(accs)
	sym, ok := t.term(y, false)
	if !ok || !t.fits() {
		return nil, "", false
	}
	if c.calls > 0 {
		for _, lv := range t.uses {
			if lv.captured {
				return nil, "", false // a call of s may change it before the division
			}
		}
	}
	return t, "(!= " + sym + " 0)", true
}

// branchTerm returns the term of the condition cond, if it is symbolic.
func (fz *fuzzBody) branchTerm(cond ast.Expr, dry bool) (*symTerm, string, bool) {
	r := fz.r
	if !r.isBool(cond) {
		return nil, "", false
	}
	t := fz.newTerm()
	t.dry = dry
	t.results = fz.st != nil
	// The reads the memory instrumentation reports for cond: those of
	// cond itself, before the statement or by a function literal in front
	// of it (instrumentStmt, instrumentCond), and those of the right
	// operands of && and || on the top-level chain, in front of each
	// (instrumentShortCircuit). Each group is reported at once.
	t.reported(cond)
	var chain func(e ast.Expr)
	chain = func(e ast.Expr) {
		b, ok := unparen(e).(*ast.BinaryExpr)
		if !ok || b.Op != token.LAND && b.Op != token.LOR {
			return
		}
		chain(b.X)
		if r.isBool(b.Y) {
			t.reported(b.Y)
		}
		chain(b.Y)
	}
	chain(cond)
	sym, ok := t.term(cond, false)
	if !ok || !t.symbolic || !t.fits() {
		return nil, "", false
	}
	return t, sym, true
}

// symWrite follows a statement writing shared memory with a symbolic
// value by rt.SymWrite.
func (fz *fuzzBody) symWrite(s ast.Stmt) {
	r := fz.r
	emit := func(t *symTerm, addr, sym string) {
		r.edits.insert(r.off(s.End()), "; "+r.rt("SymWrite")+"("+addr+", "+r.site(s.Pos())+", "+quote(sym)+t.leafList()+")")
	}
	if fz.st == nil {
		if t, addr, sym, ok := fz.symWriteTerm(s, false); ok {
			emit(t, addr, sym)
		}
		return
	}
	if t, _, _, ok := fz.symWriteTerm(s, true); ok {
		fz.st.plan(t, func() {
			if t, addr, sym, ok := fz.symWriteTerm(s, false); ok {
				emit(t, addr, sym)
			}
		})
	}
}

// symWriteTerm returns the address that s writes and the term of the
// value written, if s writes shared memory a symbolic value.
func (fz *fuzzBody) symWriteTerm(s ast.Stmt, dry bool) (t *symTerm, addr, sym string, ok bool) {
	r := fz.r
	var x, e ast.Expr
	op := ""
	switch s := s.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return
		}
		x, e = s.Lhs[0], s.Rhs[0]
		switch s.Tok {
		case token.ASSIGN:
		case token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN:
			op = strings.TrimSuffix(s.Tok.String(), "=")
		default:
			return
		}
	case *ast.IncDecStmt:
		x = s.X
		op = "+"
		if s.Tok == token.DEC {
			op = "-"
		}
	default:
		return
	}
	x = unparen(x)
	if intOrBool(r.typeOf(x)) == nil {
		return
	}
	c := &collector{r: r, start: s.Pos(), seen: make(map[string]int), dry: true}
	c.stmt(s)
	if c.calls > 0 {
		return // reported late; calls are not symbolic anyway
	}
	addr, why := c.addr(x, false)
	if why != "" || !fz.addrOK(x, true) {
		return
	}
	written := false
	for _, a := range c.accs {
		if a.addr == addr && !a.byValue && a.kind != readAccess {
			written = true
		}
	}
	if !written {
		return
	}
	t = fz.newTerm()
	t.dry = dry
	t.group(c.accs)
	if op == "" {
		if sym, ok = t.term(e, false); !ok || !t.symbolic {
			return nil, "", "", false
		}
	} else {
		old, ok := t.leaf(x, false)
		if !ok || !strings.HasPrefix(old, "m") {
			return nil, "", "", false
		}
		y := "1"
		if e != nil {
			if y, ok = t.term(e, false); !ok {
				return nil, "", "", false
			}
		}
		sym = "(" + op + " " + old + " " + y + ")"
	}
	if !t.fits() {
		return nil, "", "", false
	}
	return t, addr, sym, true
}

// A symTerm builds the term of one condition or written value.
type symTerm struct {
	fz       *fuzzBody
	reads    map[string]int // address of a reported read -> number of groups reporting it
	vals     []string       // the int64 values of "v" and "l" leaves
	ptrs     []string       // the pointers of "m" and "a" leaves
	slots    map[string]int // kind and leaf expression -> J
	symbolic bool           // the term has an input or a memory read
	dry      bool           // only the term's shape matters: no sites are registered
	noBounds bool           // byte reads are "@?": their bounds were checked before (a switch's tag)
	uses     []*localVar    // the tracked variables the term mentions

	// With Options.Symbolic: results tells that the term may use the
	// results of calls, evaluated where the term is (see callLeaf),
	// calls are those it uses, and read that it has a leaf read from
	// shared memory, which a call may change before it is evaluated.
	results bool
	calls   []*ast.CallExpr
	read    bool
}

// maxVals is the most values a term may pass: beyond, the condition or
// statement is left as it is.
const maxVals = 16

func (fz *fuzzBody) newTerm() *symTerm {
	return &symTerm{fz: fz, reads: make(map[string]int), slots: make(map[string]int)}
}

// fits reports whether t's values are few enough to be passed, and
// whether its leaves can be evaluated where it is: a read of shared memory
// cannot when the term uses a call's result (the call may have changed
// the memory since the read was reported).
func (t *symTerm) fits() bool { return len(t.vals) <= maxVals && !(t.read && len(t.calls) > 0) }

// wrapCalls wraps the calls whose results t uses (see callLeaf).
func (t *symTerm) wrapCalls() {
	for _, c := range t.calls {
		t.fz.st.wrapCall(c)
	}
}

// reported records the reads the memory instrumentation reports, in one
// group, for evaluating e.
func (t *symTerm) reported(e ast.Expr) {
	c := &collector{r: t.fz.r, start: e.Pos(), seen: make(map[string]int), dry: true}
	c.read(e)
	t.group(c.accs)
}

// group records accs, reported together, as reads.
func (t *symTerm) group(accs []access) {
	seen := make(map[string]bool)
	for _, a := range accs {
		if a.kind == writeAccess || a.byValue || seen[a.addr] {
			continue
		}
		seen[a.addr] = true
		t.reads[a.addr]++
	}
}

// leafList returns the arguments after the term: the values, as a
// []int64 literal or nil, then the pointers.
func (t *symTerm) leafList() string {
	s := ", nil"
	if len(t.vals) > 0 {
		s = ", []int64{" + strings.Join(t.vals, ", ") + "}"
	}
	if len(t.ptrs) > 0 {
		s += ", " + strings.Join(t.ptrs, ", ")
	}
	return s
}

// slot returns the leaf of kind "m" or "a", a pointer, or "v", a value,
// for expr, whose argument is arg.
func (t *symTerm) slot(kind, expr, arg string) string {
	j, ok := t.slots[kind+expr]
	if !ok {
		list := &t.ptrs
		if kind == "v" || kind == "l" {
			list = &t.vals
		}
		j = len(*list)
		t.slots[kind+expr] = j
		*list = append(*list, arg)
	}
	return kind + strconv.Itoa(j)
}

// value returns the int64 value of variable name, of integer or boolean
// type typ, or its length, of a string or []byte type.
func (t *symTerm) value(name string, typ types.Type) string {
	r := t.fz.r
	if isStringLike(typ) {
		return "int64(len(" + name + "))"
	}
	b := intOrBool(typ)
	if b != nil && b.Info()&types.IsBoolean != 0 {
		if !types.Identical(typ, types.Typ[types.Bool]) {
			name = "bool(" + name + ")"
		}
		return r.rt("B") + "(" + name + ")"
	}
	return "int64(" + name + ")"
}

// term returns the term of e, or false when e is not symbolic.
// conditional tells that e is inside a right operand of && or ||.
func (t *symTerm) term(e ast.Expr, conditional bool) (string, bool) {
	r := t.fz.r
	if tv, ok := r.info.Types[e]; ok && tv.Value != nil {
		return constTerm(tv)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return t.term(e.X, conditional)
	case *ast.IndexExpr:
		if y, ok := t.byteTerm(e, conditional); ok {
			return y, true
		}
		return t.leaf(e, conditional)
	case *ast.Ident, *ast.SelectorExpr, *ast.StarExpr:
		return t.leaf(e, conditional)
	case *ast.UnaryExpr:
		x, ok := t.term(e.X, conditional)
		if !ok {
			return "", false
		}
		switch {
		case e.Op == token.ADD && isInteger(r.typeOf(e)):
			return x, true
		case e.Op == token.SUB && isInteger(r.typeOf(e)):
			return "(neg " + x + ")", true
		case e.Op == token.NOT:
			return "(! " + x + ")", true
		}
	case *ast.BinaryExpr:
		if (e.Op == token.EQL || e.Op == token.NEQ) && isString(r.typeOf(e.X)) {
			return t.strEqTerm(e)
		}
		switch e.Op {
		case token.ADD, token.SUB, token.MUL:
			if !isInteger(r.typeOf(e)) {
				return "", false
			}
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			if intOrBool(r.typeOf(e.X)) == nil || intOrBool(r.typeOf(e.Y)) == nil {
				return "", false
			}
		case token.LAND, token.LOR:
		default:
			return "", false
		}
		x, ok := t.term(e.X, conditional)
		if !ok {
			return "", false
		}
		y, ok := t.term(e.Y, conditional || e.Op == token.LAND || e.Op == token.LOR)
		if !ok {
			return "", false
		}
		return "(" + e.Op.String() + " " + x + " " + y + ")", true
	case *ast.CallExpr:
		if tv, ok := r.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 &&
			isInteger(tv.Type) && isInteger(r.typeOf(e.Args[0])) {
			return t.term(e.Args[0], conditional)
		}
		if id, ok := unparen(e.Fun).(*ast.Ident); ok && len(e.Args) == 1 {
			if b, ok := r.info.Uses[id].(*types.Builtin); ok && b.Name() == "len" && isStringLike(r.typeOf(e.Args[0])) {
				return t.strLeaf(e.Args[0])
			}
		}
		if t.results && !conditional {
			return t.callLeaf(e)
		}
	}
	return "", false
}

// isStringLike reports whether t is a string or []byte type.
func isStringLike(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// strLeaf returns the leaf of e, a string or []byte, which stands for its
// length: a fuzz body's input ("i" K), a tracked parameter ("l" J, its
// value the length), a captured tracked parameter ("a" J ":s", ":y"), or
// the length of a local variable that is not tracked ("v" J).
func (t *symTerm) strLeaf(e ast.Expr) (string, bool) {
	r := t.fz.r
	id, ok := unparen(e).(*ast.Ident)
	if !ok {
		return "", false
	}
	v, ok := r.info.Uses[id].(*types.Var)
	if !ok || !isStringLike(v.Type()) {
		return "", false
	}
	if k, ok := t.fz.inputs[v]; ok {
		t.symbolic = true
		return "i" + strconv.Itoa(k), true
	}
	if t.fz.st != nil {
		if lv := t.fz.st.vars[v]; lv != nil {
			return t.localLeaf(id, v)
		}
	}
	if v.IsField() || v.Parent() == nil || v.Parent() == r.pkg.Scope() || r.shared[v] {
		return "", false
	}
	return t.slot("v", "len "+id.Name, "int64(len("+id.Name+"))"), true
}

// byteTerm returns the term of e, x[i], when x is a string that strLeaf
// names, or a []byte whose bytes are only read (bytesReadOnly): "(@ x i
// vJ)", "(@? x i vJ)" with noBounds, where vals[J] is rt.At(x, i), the
// byte or -1 (i is evaluated again there: it must call nothing).
func (t *symTerm) byteTerm(e *ast.IndexExpr, conditional bool) (string, bool) {
	r := t.fz.r
	if !isInteger(r.typeOf(e.Index)) || !r.byteInput(e.X) {
		return "", false
	}
	x, ok := t.strLeaf(e.X)
	if !ok || strings.HasPrefix(x, "v") || !t.fz.pure(e.Index) {
		return "", false
	}
	results := t.results
	t.results = false
	i, ok := t.term(e.Index, conditional)
	t.results = results
	if !ok {
		return "", false
	}
	v := t.slot("v", "at "+r.source(e), r.rt("At")+"("+r.source(e.X)+", int64("+r.source(e.Index)+"))")
	at := "@"
	if t.noBounds {
		at = "@?"
	}
	return "(" + at + " " + x + " " + i + " " + v + ")", true
}

// callLeaf returns the leaf of the result of call, "r" J with vals[J] the
// call's site, when the call can report it (see resultCallee); the
// consumer of the term wraps it (wrapCalls).
func (t *symTerm) callLeaf(call *ast.CallExpr) (string, bool) {
	st := t.fz.st
	if st == nil {
		return "", false
	}
	if _, _, ok := t.fz.r.resultCallee(call); !ok {
		return "", false
	}
	t.calls = append(t.calls, call)
	t.symbolic = true // the callee's term may be
	site := "0"
	if !t.dry {
		site = st.callSite(call)
		t.fz.hook = true
	}
	j := len(t.vals)
	t.vals = append(t.vals, "int64("+site+")")
	return "r" + strconv.Itoa(j), true
}

// constTerm returns the decimal value of an integer or boolean constant.
func constTerm(tv types.TypeAndValue) (string, bool) {
	b := intOrBool(tv.Type)
	if b == nil {
		return "", false
	}
	if b.Info()&types.IsBoolean != 0 {
		if tv.Value.Kind() != constant.Bool {
			return "", false
		}
		if constant.BoolVal(tv.Value) {
			return "1", true
		}
		return "0", true
	}
	v := constant.ToInt(tv.Value)
	if v.Kind() != constant.Int {
		return "", false
	}
	n, exact := constant.Int64Val(v)
	if !exact {
		return "", false
	}
	return strconv.FormatInt(n, 10), true
}

// leaf returns the term of a variable or location e: an input, a read of
// shared memory, or a local value.
func (t *symTerm) leaf(e ast.Expr, conditional bool) (string, bool) {
	fz := t.fz
	r := fz.r
	if id, ok := e.(*ast.Ident); ok {
		if v, ok := r.info.Uses[id].(*types.Var); ok {
			if k, ok := fz.inputs[v]; ok && intOrBool(v.Type()) != nil {
				t.symbolic = true
				return "i" + strconv.Itoa(k), true
			}
		}
	}
	c := &collector{r: r, start: e.Pos(), seen: make(map[string]int), dry: true}
	if addr, why := c.addr(e, false); why == "" && t.reads[addr] > 0 {
		ty := r.memType(r.typeOf(e))
		if ty == "" || t.reads[addr] > 1 || !fz.addrOK(e, !conditional) {
			return "", false
		}
		t.symbolic, t.read = true, true
		return t.slot("m", addr, addr) + ":" + ty, true
	}
	if c.sharedLoc(e) {
		return "", false // a read of shared memory that is not reported
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return "", false
	}
	v, ok := r.info.Uses[id].(*types.Var)
	if ok && fz.st != nil {
		return t.localLeaf(id, v)
	}
	if !ok || v.IsField() || v.Pos() < fz.lit.Pos() || v.Pos() >= fz.lit.End() || intOrBool(v.Type()) == nil {
		return "", false
	}
	return t.slot("v", id.Name, t.value(id.Name, v.Type())), true
}

// addrOK reports whether the address of location e can be evaluated
// again, after the condition, without side effects, and, unless mayPanic,
// without a panic: the condition may not have evaluated it.
func (fz *fuzzBody) addrOK(e ast.Expr, mayPanic bool) bool {
	r := fz.r
	switch e := e.(type) {
	case *ast.ParenExpr:
		return fz.addrOK(e.X, mayPanic)
	case *ast.Ident:
		_, ok := r.info.Uses[e].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok {
			if _, ok := r.info.Uses[id].(*types.PkgName); ok {
				_, ok := r.info.Uses[e.Sel].(*types.Var)
				return ok
			}
		}
		sel := r.info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal || sel.Indirect() && !mayPanic {
			return false
		}
		return fz.addrOK(e.X, mayPanic)
	case *ast.IndexExpr:
		if tv, ok := r.info.Types[e.Index]; !ok || tv.Value == nil {
			return false
		}
		switch coreType(r.typeOf(e.X)).(type) {
		case *types.Array:
			return fz.addrOK(e.X, mayPanic)
		case *types.Slice, *types.Pointer:
			return mayPanic && fz.addrOK(e.X, mayPanic)
		}
	case *ast.StarExpr:
		return fz.addrOK(e.X, mayPanic) // the address is the pointer
	}
	return false
}

// memType returns the TY of a memory leaf of type t, or "".
func (r *rewriter) memType(t types.Type) string {
	if isStringLike(t) {
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			return "s"
		}
		return "y"
	}
	b := intOrBool(t)
	if b == nil {
		return ""
	}
	if b.Info()&types.IsBoolean != 0 {
		return "b"
	}
	size := int64(8)
	switch b.Kind() {
	case types.Int, types.Uint, types.Uintptr:
		if sizes := types.SizesFor("gc", build.Default.GOARCH); sizes != nil {
			size = sizes.Sizeof(b)
		}
	default:
		size = types.SizesFor("gc", "amd64").Sizeof(b)
	}
	if size != 1 && size != 2 && size != 4 && size != 8 {
		return ""
	}
	sign := "i"
	if b.Info()&types.IsUnsigned != 0 {
		sign = "u"
	}
	return sign + strconv.FormatInt(size*8, 10)
}

// intOrBool returns the basic underlying type of t if it is an integer or
// boolean type, else nil.
func intOrBool(t types.Type) *types.Basic {
	if t == nil {
		return nil
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsInteger|types.IsBoolean) == 0 {
		return nil
	}
	return b
}

func isInteger(t types.Type) bool {
	b := intOrBool(t)
	return b != nil && b.Info()&types.IsInteger != 0
}
