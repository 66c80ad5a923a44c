package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Shared memory.
//
// Before each statement of a statement list the rewriter inserts
// rt.Read(&x, site) and rt.Write(&x, site) for the locations the statement
// accesses when it starts and that may be shared with other goroutines:
// package variables, anything reached through a pointer, slice elements,
// map contents (rt.Read(m, site)), and local variables that are both
// captured by a function literal and assigned after their declaration (a
// literal deferred or called where it stands does not count), or whose
// address is taken.
//
// An access is instrumented only if the statement surely performs it, and
// its address can be computed before the statement without side effects
// and with the same meaning: a path of variables, field selections,
// indexes by variables or constants, and pointer indirections, all
// declared before the statement. When the path starts from (or is indexed
// by) a value the statement computes, a call's result or a name it
// declares, the access is reported where that value is computed, by a
// function literal wrapping it (see wrapper). Anything else is skipped
// with a Warning. An assignment or var declaration that calls functions
// reports its stores, and the loads outside its calls' operands, after
// itself (see late).
// Accesses that a statement performs conditionally or repeatedly are not
// instrumented before it: right operands of && and ||, for loop post
// statements, tags of switch statements with an init statement, case
// expressions, and function literal bodies (their own statements are
// instrumented). For loop conditions, else-if conditions, conditions of if
// statements with an init statement, the cases of a switch without a tag
// and right operands of && and || in all of these are instrumented where
// they are evaluated, by a function literal called first (see
// instrumentCond). A for loop's post statement reports its accesses at the
// end of the body and before each continue of the loop (instrumentPost,
// postOnCopy); a range statement reports its writes of shared iteration
// variables at the start of the body (instrumentRangeVars).
// Case values of a switch with a tag, and its tag after an init
// statement, are instrumented by a function literal returning the value
// (instrumentValue).
//
// Ranges report what their operand reads (rangeOperand, in mapranges.go):
// nothing for an array whose length is constant and whose elements no
// iteration value gets, the contents of a map, and the elements of a
// slice each iteration gets (rt.RangeSlice, or instrumentRangeElems).
// Builtins, functions of the standard library and method calls report the
// memory they read and write for the program where they are called
// (memcalls.go, addCall).

type accessKind int

const (
	readAccess accessKind = iota
	writeAccess
	// updateAccess reads a location and then writes it (x++, x += y,
	// x = x + 1): rt.Update, which schedules as a write and tells a
	// strategy that reasons about values (mcr) that the old value was
	// read.
	updateAccess
)

// merge is the kind of two accesses of one statement to one location.
func (k accessKind) merge(o accessKind) accessKind {
	if k == o {
		return k
	}
	return updateAccess
}

type access struct {
	kind accessKind
	addr string   // the arguments passed to the runtime before the site: the address expression, or see byValue and form
	expr ast.Expr // the location (the map, the slice, ... when byValue)
	// byValue: addr is not the address of a location but a value the
	// runtime finds the memory from: a map (rt.Read(m, site)), or the
	// arguments of a form.
	byValue bool
	// form is "" for rt.Read, Write, Update or Wrote, according to kind;
	// "Slice" for rt.ReadSlice, WriteSlice or UpdateSlice (the elements of
	// a slice); otherwise the runtime function, whatever the kind (Append,
	// Copy, ReadRecv...). An access with a form other than "" is always
	// early: made by a builtin or a function of the standard library when
	// it is called.
	form  string
	pos   token.Pos
	early bool // performed before a call of the statement: an operand of the call, or of && or ||
	// ops names what the access touches, for reports (sites.go): the
	// location, an element of the map (m[k]), the destination and the
	// source of a copy.
	ops []operand
}

// memOperand is the operand of an access to location e by any operation.
func memOperand(e ast.Expr) []operand {
	return []operand{{memoryOperand, anyDir, e}}
}

// memory instruments the statements of every statement list.
func (r *rewriter) memory() {
	ast.Inspect(r.file, func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		}
		for _, s := range list {
			r.instrumentStmt(s)
		}
		switch n := n.(type) {
		case *ast.RangeStmt:
			r.instrumentRangeElems(n)
			r.instrumentRangeVars(n)
		case *ast.ForStmt:
			if n.Cond != nil {
				r.instrumentCond(n.Cond)
				r.instrumentShortCircuit(n.Cond)
			}
			if n.Post != nil {
				r.instrumentPost(n)
			}
		case *ast.IfStmt:
			elseIf := false
			if parent, ok := r.parents[n].(*ast.IfStmt); ok && parent.Else == n {
				elseIf = true
			}
			if elseIf && n.Init != nil {
				// else if init; cond { becomes else { accesses; if init; cond { ... } }
				c := &collector{r: r, start: n.Pos(), seen: make(map[string]int)}
				c.simple(n.Init)
				c.emitWraps()
				if len(c.accs) > 0 {
					r.edits.insert(r.off(n.Pos()), "{ "+r.accessCalls(c.accs))
					r.edits.insert(r.off(n.End()), " }")
				}
			}
			if elseIf || n.Init != nil {
				r.instrumentCond(n.Cond)
			}
			r.instrumentShortCircuit(n.Cond)
		case *ast.SwitchStmt:
			// The cases are evaluated in order until one matches: the
			// conditions of a switch without a tag, or the values
			// compared with the tag.
			if n.Tag != nil && n.Init != nil {
				r.instrumentValue(n.Tag)
			}
			for _, cl := range n.Body.List {
				for _, e := range cl.(*ast.CaseClause).List {
					if n.Tag == nil {
						r.instrumentCond(e)
						r.instrumentShortCircuit(e)
					} else {
						r.instrumentValue(e)
					}
				}
			}
		}
		return true
	})
}

// instrumentRangeVars reports the writes of a range statement's
// iteration variables at the start of the body, where every iteration has
// just assigned them: variables declared outside the statement, and,
// before Go 1.22, the variables it declares, which all iterations share
// (a goroutine started by one iteration that reads one races with the
// next iteration's write, as Go's race detector says). From Go 1.22 on
// the declared variables are new in each iteration and nobody else can
// have reached them yet.
func (r *rewriter) instrumentRangeVars(s *ast.RangeStmt) {
	if s.Key == nil || s.Tok == token.DEFINE && !r.perLoopVars() {
		return
	}
	// Names in the body are not declared yet at its start.
	c := &collector{r: r, start: s.Body.Lbrace, seen: make(map[string]int)}
	for _, l := range []ast.Expr{s.Key, s.Value} {
		if l == nil {
			continue
		}
		if id, ok := l.(*ast.Ident); ok && s.Tok == token.DEFINE {
			if c.sharedVar(r.info.Defs[id]) {
				c.add(writeAccess, id, false)
			}
			continue
		}
		c.write(l)
	}
	c.emitWraps()
	if len(c.accs) > 0 {
		r.edits.insert(r.off(s.Body.Lbrace)+1, " "+r.lateCalls(c.accs))
	}
}

// instrumentShortCircuit instruments the right operands of && and || in
// a condition, which are evaluated only sometimes, where they are
// evaluated:
//
//	if p != nil && func() bool { rt.Read(&p.x, site); return true }() && (p.x > 0) {
func (r *rewriter) instrumentShortCircuit(cond ast.Expr) {
	b, ok := unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.LAND && b.Op != token.LOR {
		return
	}
	r.instrumentShortCircuit(b.X)
	r.instrumentCond(b.Y)
	r.instrumentShortCircuit(b.Y)
}

// instrumentCond instruments a condition evaluated repeatedly (a for
// loop's) or after an init statement or another condition (an else-if):
// nothing can go before the statement, so the accesses are reported by a
// function literal called right before the condition is evaluated:
//
//	for func() bool { rt.Read(&x, site); return true }() && (x > 0) {
func (r *rewriter) instrumentCond(cond ast.Expr) {
	if !r.isBool(cond) {
		return
	}
	c := &collector{r: r, start: cond.Pos(), seen: make(map[string]int)}
	c.read(cond)
	c.emitWraps()
	if len(c.accs) == 0 {
		return
	}
	// A wrap, not two insertions: a wrap of an enclosing range (the
	// condition of a fuzz body's branch, see branches.go) that ends where
	// cond ends must enclose the closing parenthesis too.
	r.edits.wrap(r.off(cond.Pos()), r.off(cond.End()), "func() bool { "+r.accessCalls(c.accs)+"return true }() && (", ")")
}

// instrumentPost reports the accesses of a for loop's post statement
// right before it runs: at the end of the body and before every continue
// statement of the loop. It gives up (silently, as for any loop header)
// when a continue cannot take a statement before it or a name of an access
// path means something else at one of those points.
func (r *rewriter) instrumentPost(loop *ast.ForStmt) {
	c := &collector{r: r, start: loop.Post.Pos(), seen: make(map[string]int)}
	c.simple(loop.Post)
	c.emitWraps()
	if !r.perLoopVars() {
		r.postOnCopy(loop, c.accs)
	}
	if len(c.accs) == 0 {
		return
	}
	var labelObj types.Object
	if ls, ok := r.parents[loop].(*ast.LabeledStmt); ok {
		labelObj = r.info.Defs[ls.Label]
	}
	var points []token.Pos
	if n := len(loop.Body.List); n == 0 || !r.terminates(loop.Body.List[n-1]) {
		points = append(points, loop.Body.Rbrace) // the end of the body is reachable
	}
	ok := true
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok != token.CONTINUE || !r.continues(n, loop, labelObj) {
				return true
			}
			switch r.parents[n].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				points = append(points, n.Pos())
			default:
				ok = false
			}
		}
		return true
	})
	for _, pt := range points {
		for _, a := range c.accs {
			if !r.sameNames(a.expr, pt) {
				ok = false
			}
		}
	}
	if !ok {
		return
	}
	for _, pt := range points {
		if pt == loop.Body.Rbrace {
			r.edits.insert(r.off(pt), "; "+r.accessCalls(c.accs))
		} else {
			r.edits.insert(r.off(pt), r.accessCalls(c.accs))
		}
	}
}

// postOnCopy adapts the accesses of a for loop's post statement to
// per-iteration loop variables (Go 1.22 and later): at the end of each
// iteration Go copies the loop variables into fresh ones for the next
// iteration, and the post statement runs on the copies, which no other
// goroutine can reach yet. What it accesses of the loop variables is
// reported as the copy's read of the old ones.
func (r *rewriter) postOnCopy(loop *ast.ForStmt, accs []access) {
	init, ok := loop.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE {
		return
	}
	loopVars := make(map[*types.Var]bool)
	for _, l := range init.Lhs {
		if id, ok := l.(*ast.Ident); ok {
			if v, ok := r.info.Defs[id].(*types.Var); ok {
				loopVars[v] = true
			}
		}
	}
	for i, a := range accs {
		if v := r.rootVar(a.expr); v != nil && !a.byValue && loopVars[v] {
			accs[i].kind = readAccess
		}
	}
}

// terminates reports whether s is a terminating statement of a simple
// kind, after which inserted code would be unreachable.
func (r *rewriter) terminates(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.LabeledStmt:
		return r.terminates(s.Stmt)
	case *ast.BlockStmt:
		return len(s.List) > 0 && r.terminates(s.List[len(s.List)-1])
	case *ast.IfStmt:
		return s.Else != nil && r.terminates(s.Body) && r.terminates(s.Else)
	case *ast.ExprStmt:
		if call, ok := unparen(s.X).(*ast.CallExpr); ok {
			if id, ok := unparen(call.Fun).(*ast.Ident); ok {
				if b, ok := r.info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
					return true
				}
			}
		}
	case *ast.ForStmt:
		return s.Cond == nil // a loop that only a break ends; treated as terminating
	case *ast.SelectStmt:
		return true // conservatively: inserting nothing after it is always correct
	}
	return false
}

// continues reports whether the continue statement b continues loop.
func (r *rewriter) continues(b *ast.BranchStmt, loop *ast.ForStmt, labelObj types.Object) bool {
	if b.Label != nil {
		return labelObj != nil && r.info.Uses[b.Label] == labelObj
	}
	for n := r.parents[b]; n != nil; n = r.parents[n] {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return n == ast.Node(loop)
		case *ast.FuncLit:
			return false
		}
	}
	return false
}

// sameNames reports whether every name in e denotes at pos what it
// denotes in e.
func (r *rewriter) sameNames(e ast.Expr, pos token.Pos) bool {
	same := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if r.info.Selections[n] != nil {
				same = same && r.sameNames(n.X, pos)
				return false // n.Sel is a field or method name
			}
		case *ast.Ident:
			if v, isVar := r.info.Uses[n].(*types.Var); isVar && !v.IsField() && !r.visible(v, pos) {
				same = false
			}
		}
		return true
	})
	return same
}

// instrumentValue instruments a non-boolean expression evaluated after
// the start of its statement (a case value, a switch tag after an init)
// with a function literal that reports its accesses and returns its value:
//
//	case func() T { rt.Read(&p.x, site); return p.x }():
//
// It gives up when the type of e cannot be named there.
func (r *rewriter) instrumentValue(e ast.Expr) {
	if r.isConst(e) {
		return
	}
	c := &collector{r: r, start: e.Pos(), seen: make(map[string]int)}
	c.read(e)
	c.emitWraps()
	if len(c.accs) == 0 {
		return
	}
	t := r.typeOf(e)
	if t == nil || isUntyped(t) || isTuple(t) {
		return
	}
	ts, err := r.typeExpr(t, e.Pos())
	if err != nil {
		return
	}
	r.edits.insert(r.off(e.Pos()), "func() "+ts+" { "+r.accessCalls(c.accs)+"return ")
	r.edits.insert(r.off(e.End()), " }()")
}

// accessCalls returns the runtime calls reporting accs before they
// happen.
func (r *rewriter) accessCalls(accs []access) string {
	return r.reportCalls(accs, false)
}

// lateCalls returns the runtime calls reporting accs right after the
// statement that made them: a write is then rt.Wrote, whose memory
// already holds the value written (and no longer what it overwrote or,
// for an update, what it read).
func (r *rewriter) lateCalls(accs []access) string {
	return r.reportCalls(accs, true)
}

func (r *rewriter) reportCalls(accs []access, late bool) string {
	var b strings.Builder
	for _, a := range accs {
		fn := "Read"
		switch {
		case a.kind != readAccess && late:
			fn = "Wrote"
		case a.kind == writeAccess:
			fn = "Write"
		case a.kind == updateAccess:
			fn = "Update"
		}
		switch a.form {
		case "":
		case "Slice":
			fn = [...]string{readAccess: "ReadSlice", writeAccess: "WriteSlice", updateAccess: "UpdateSlice"}[a.kind]
		default:
			fn = a.form
		}
		b.WriteString(r.rt(fn) + "(" + a.addr + ", " + r.site(a.pos, a.ops...) + "); ")
	}
	return b.String()
}

// collector gathers the accesses of one statement.
type collector struct {
	r     *rewriter
	start token.Pos // the statement's start: paths must be declared before it
	accs  []access
	seen  map[string]int
	wraps []*wrapper // accesses reported where the value their address depends on is computed

	calls  int // calls and receives the collected expressions evaluate
	inCall int // > 0 while collecting what is evaluated before a call or receive

	dry bool // only collect: no warnings, no wrappers (accesses needing one are dropped)

	// deferred is the call of a go or defer statement, made later (in
	// another goroutine for go) than its operands are evaluated: what the
	// call itself does to memory is not reported at the statement.
	deferred *ast.CallExpr
}

// A wrapper reports accesses whose address depends on a value b that
// cannot be computed before the statement (a call's result, a name the
// statement declares): b becomes func(v T) T { accesses; return v }(b),
// which evaluates b once, where it was evaluated.
type wrapper struct {
	b    ast.Expr
	v    string // the parameter's name
	typ  string // b's type
	accs []access
}

func (r *rewriter) instrumentStmt(s ast.Stmt) {
	c := &collector{r: r, start: s.Pos(), seen: make(map[string]int)}
	at := s.Pos()
	for {
		l, ok := s.(*ast.LabeledStmt)
		if !ok {
			break
		}
		s = l.Stmt
	}
	c.stmt(s)
	c.emitWraps()
	before, after := c.accs, []access(nil)
	ifs, isIf := s.(*ast.IfStmt)
	switch {
	case c.calls == 0:
	case !isIf:
		before, after = c.late(s)
	case ifs.Init != nil && r.isBool(ifs.Cond):
		// After the init is where the condition is evaluated.
		before, after = c.late(ifs.Init)
	}
	if len(before) > 0 {
		r.edits.insert(r.off(at), r.accessCalls(before))
	}
	if len(after) == 0 {
		return
	}
	if isIf {
		r.edits.insert(r.off(ifs.Cond.Pos()), "func() bool { "+r.lateCalls(after)+"return true }() && (")
		r.edits.insert(r.off(ifs.Cond.End()), ")")
		return
	}
	r.edits.insert(r.off(s.End()), "; "+r.lateCalls(after))
}

// isBool reports whether e has type bool (not a named boolean type,
// which does not mix with bool).
func (r *rewriter) isBool(e ast.Expr) bool {
	b, ok := r.typeOf(e).(*types.Basic)
	return ok && (b.Kind() == types.Bool || b.Kind() == types.UntypedBool)
}

// late splits the accesses of an assignment or variable declaration s
// whose expressions call functions (or receive) into those reported
// before s and those reported right after it. Go stores the assigned
// values after evaluating every operand, and loads the variables an
// expression reads (outside the operands of a call) after the calls of
// the expression: w.r = w.start() writes w.r when start has returned, and
// f() + s.n reads s.n after f. Reporting them after s orders them after
// the calls as Go does, with nothing in between that synchronizes. An
// access stays before s when it is an operand of a call (or of && and
// ||), when its address depends on what s assigns, or when it names
// something s declares a new variable of the same name as.
func (c *collector) late(s ast.Stmt) (before, after []access) {
	var lhs []ast.Expr
	switch s := s.(type) {
	case *ast.AssignStmt:
		lhs = s.Lhs
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return c.accs, nil
		}
		for _, sp := range gd.Specs {
			for _, n := range sp.(*ast.ValueSpec).Names {
				lhs = append(lhs, n)
			}
		}
	default:
		return c.accs, nil
	}
	assigned := make(map[types.Object]bool)
	lhsText := make(map[string]bool)
	declared := make(map[string]bool) // names that mean something else after s
	for _, l := range lhs {
		lhsText[types.ExprString(unparen(l))] = true
		if v := c.r.rootVar(l); v != nil {
			assigned[v] = true
		}
		if id, ok := l.(*ast.Ident); ok && c.r.info.Defs[id] != nil {
			declared[id.Name] = true
		}
	}
	for _, a := range c.accs {
		if a.early || c.r.dependsOn(a, assigned, lhsText) || mentions(a.expr, declared) {
			before = append(before, a)
		} else {
			after = append(after, a)
		}
	}
	return before, after
}

// dependsOn reports whether the address of access a mentions a variable
// in assigned or an expression written as one in lhs.
func (r *rewriter) dependsOn(a access, assigned map[types.Object]bool, lhs map[string]bool) bool {
	var operands []ast.Expr
	switch e := unparen(a.expr).(type) {
	case *ast.Ident:
		if !a.byValue {
			return false // a variable's address does not change
		}
		operands = []ast.Expr{e}
	case *ast.SelectorExpr:
		operands = []ast.Expr{e.X}
	case *ast.IndexExpr:
		operands = []ast.Expr{e.X, e.Index}
	case *ast.StarExpr:
		operands = []ast.Expr{e.X}
	default:
		operands = []ast.Expr{e}
	}
	if a.byValue {
		operands = []ast.Expr{a.expr}
	}
	dep := false
	for _, op := range operands {
		ast.Inspect(op, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if v, ok := r.info.Uses[n].(*types.Var); ok && assigned[v] {
					dep = true
				}
			case ast.Expr:
				if lhs[types.ExprString(n)] {
					dep = true
				}
			}
			return !dep
		})
	}
	return dep
}

// mentions reports whether an identifier of e (a package name, a variable,
// or conservatively a field) has one of names.
func mentions(e ast.Expr, names map[string]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && names[id.Name] {
			found = true
		}
		return !found
	})
	return found
}

// rootVar returns the variable that assigning to l assigns in whole or
// in part (x for x, x.f and x[i] of a struct or array x), or nil when l
// is reached through a pointer, a slice or a map.
func (r *rewriter) rootVar(l ast.Expr) *types.Var {
	switch e := unparen(l).(type) {
	case *ast.Ident:
		obj := r.info.Uses[e]
		if obj == nil {
			obj = r.info.Defs[e]
		}
		v, _ := obj.(*types.Var)
		return v
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok {
			if _, ok := r.info.Uses[id].(*types.PkgName); ok {
				v, _ := r.info.Uses[e.Sel].(*types.Var)
				return v
			}
		}
		if sel := r.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal && !sel.Indirect() {
			return r.rootVar(e.X)
		}
	case *ast.IndexExpr:
		if _, ok := coreType(r.typeOf(e.X)).(*types.Array); ok {
			return r.rootVar(e.X)
		}
	}
	return nil
}

// emitWraps records the edits of the collector's wrappers.
func (c *collector) emitWraps() {
	for _, w := range c.wraps {
		c.r.edits.wrap(c.r.off(w.b.Pos()), c.r.off(w.b.End()),
			"func("+w.v+" "+w.typ+") "+w.typ+" { "+c.r.accessCalls(w.accs)+"return "+w.v+" }(", ")")
	}
	c.wraps = nil
}

// stmt collects the accesses s performs unconditionally, once, when it
// starts.
func (c *collector) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.SendStmt, *ast.IncDecStmt, *ast.AssignStmt:
		c.simple(s)
	case *ast.ReturnStmt:
		c.reads(s.Results)
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				c.reads(sp.(*ast.ValueSpec).Values)
			}
		}
	case *ast.GoStmt:
		c.deferred = s.Call
		c.call(s.Call)
	case *ast.DeferStmt:
		c.deferred = s.Call
		c.call(s.Call)
	case *ast.IfStmt:
		if s.Init != nil {
			c.simple(s.Init)
		} else {
			c.read(s.Cond)
		}
	case *ast.SwitchStmt:
		if s.Init != nil {
			c.simple(s.Init)
		} else if s.Tag != nil {
			c.read(s.Tag)
		}
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			c.simple(s.Init)
		} else {
			switch a := s.Assign.(type) {
			case *ast.AssignStmt:
				c.reads(a.Rhs)
			case *ast.ExprStmt:
				c.read(a.X)
			}
		}
	case *ast.ForStmt:
		if s.Init != nil {
			c.simple(s.Init)
		}
	case *ast.RangeStmt:
		c.rangeOperand(s)
	case *ast.SelectStmt:
		for _, cl := range s.Body.List {
			switch comm := cl.(*ast.CommClause).Comm.(type) {
			case *ast.SendStmt:
				c.read(comm.Chan)
				c.read(comm.Value)
			case *ast.ExprStmt:
				if u, ok := unparen(comm.X).(*ast.UnaryExpr); ok {
					c.read(u.X)
				}
			case *ast.AssignStmt:
				if u, ok := unparen(comm.Rhs[0]).(*ast.UnaryExpr); ok {
					c.read(u.X)
				}
			}
		}
	}
}

// simple collects the accesses of a simple statement.
func (c *collector) simple(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.ExprStmt:
		c.read(s.X)
	case *ast.SendStmt:
		c.read(s.Chan)
		c.read(s.Value)
	case *ast.IncDecStmt:
		c.read(s.X)
		c.write(s.X)
	case *ast.AssignStmt:
		// Operands on both sides are evaluated first, then assigned.
		if s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
			c.reads(s.Lhs) // x op= y reads x
		}
		c.reads(s.Rhs)
		for _, l := range s.Lhs {
			if s.Tok == token.DEFINE {
				// Only redeclared variables are assigned.
				if id, ok := l.(*ast.Ident); ok && c.r.info.Defs[id] == nil {
					c.write(id)
				}
				continue
			}
			c.write(l)
		}
	}
}

func (c *collector) call(call *ast.CallExpr) {
	c.read(call)
}

func (c *collector) reads(es []ast.Expr) {
	for _, e := range es {
		c.read(e)
	}
}

// add records an access of location e (of the map e when byValue).
func (c *collector) add(kind accessKind, e ast.Expr, byValue bool) {
	c.addAs(kind, e, byValue, e)
}

// addAs records an access of location e (of the map e when byValue) that
// the source names name (m[k] for the map m).
func (c *collector) addAs(kind accessKind, e ast.Expr, byValue bool, name ast.Expr) {
	if !c.hoistable(e) {
		if c.dry {
			return
		}
		if why := c.wrap(kind, e, byValue, name); why != "" {
			c.r.warnf(e.Pos(), "access to %s not instrumented: %s", types.ExprString(e), why)
		}
		return
	}
	addr, why := c.addr(e, byValue)
	if why != "" {
		if c.dry {
			return
		}
		c.r.warnf(e.Pos(), "access to %s not instrumented: %s", types.ExprString(e), why)
		return
	}
	early := c.inCall > 0
	key := addr
	if early {
		key += " early"
	}
	if i, ok := c.seen[key]; ok {
		c.accs[i].kind = c.accs[i].kind.merge(kind)
		c.accs[i].ops = mergeNames(c.accs[i].ops, name, e)
		return
	}
	c.seen[key] = len(c.accs)
	c.accs = append(c.accs, access{kind: kind, addr: addr, expr: e, byValue: byValue, pos: e.Pos(), early: early, ops: memOperand(name)})
}

// mergeNames returns the operands of an access to location e, reported
// once for two expressions: ops, which names it for the first, and name
// for the second. Two elements of one map (m[i] and m[j]) are the map.
func mergeNames(ops []operand, name, e ast.Expr) []operand {
	if len(ops) == 1 && operandText(ops[0].expr) != operandText(name) {
		return memOperand(e)
	}
	return ops
}

// wrap records the access of location e (of the map e when byValue),
// named name, whose address depends on a value that cannot be computed
// before the statement, in the wrapper of that value, or returns why it
// cannot.
func (c *collector) wrap(kind accessKind, e ast.Expr, byValue bool, name ast.Expr) string {
	var b ast.Expr
	var loc func(v string) string
	if byValue {
		b, loc = e, func(v string) string { return v }
	} else if b, loc = c.locate(unparen(e)); b == nil {
		return "its address depends on a call, or on a name declared in the statement, in a way not handled"
	}
	w, why := c.wrapper(b)
	if w == nil {
		return why
	}
	addr := loc(w.v)
	if !byValue {
		if addr == "*"+w.v {
			addr = w.v
		} else {
			addr = "&" + addr
		}
	}
	for i, a := range w.accs {
		if a.addr == addr {
			w.accs[i].kind = a.kind.merge(kind)
			w.accs[i].ops = mergeNames(a.ops, name, e)
			return ""
		}
	}
	w.accs = append(w.accs, access{kind: kind, addr: addr, expr: e, byValue: byValue, pos: e.Pos(), ops: memOperand(name)})
	return ""
}

// wrapper returns the wrapper of value b, made if there is none yet, or
// nil and why b cannot be wrapped.
func (c *collector) wrapper(b ast.Expr) (*wrapper, string) {
	for _, x := range c.wraps {
		if x.b == b {
			return x, ""
		}
	}
	t := c.r.typeOf(b)
	if t == nil || isUntyped(t) || isTuple(t) {
		return nil, "its address depends on a value of unknown type"
	}
	ts, err := c.r.typeExpr(t, b.Pos())
	if err != nil {
		return nil, "its address depends on a value whose type cannot be named: " + err.Error()
	}
	w := &wrapper{b: b, v: c.r.tmp("V"), typ: ts}
	c.wraps = append(c.wraps, w)
	return w, ""
}

// addCall records an access that a builtin or a function of the standard
// library makes when it is called, after its operands are evaluated: a
// call of the runtime function of form (see access) whose arguments args
// renders from the texts of the operands it needs, need, among the
// operands ops the call evaluates, in order. With no operand that calls a
// function or receives, the access is reported before the statement, as
// the operands of its calls are, when the operands it needs are hoistable,
// or else by a wrapper of the one that is not. Otherwise it is reported
// right after the last operand that calls or receives has been evaluated,
// by a wrapper of it, so that what that operand does comes first as in
// Go; the other operands it needs must then be hoistable (they are
// evaluated again there, with the same values).
func (c *collector) addCall(kind accessKind, form string, ops, need []ast.Expr, args func(texts []string) string, pos token.Pos) {
	var last ast.Expr
	for _, op := range ops {
		if c.r.hasEffects(op) {
			last = op
		}
	}
	names := memOperand(need[0])
	if form == "Copy" {
		names = []operand{{memoryOperand, outDir, need[0]}, {memoryOperand, inDir, need[1]}}
	}
	texts := make([]string, len(need))
	for i, n := range need {
		switch {
		case n == last:
		case c.hoistable(n):
			texts[i] = types.ExprString(n)
		case last == nil:
			last = n
		default:
			if !c.dry {
				c.r.warnf(n.Pos(), "access to %s not instrumented: it needs the values of two operands evaluated by the statement", types.ExprString(n))
			}
			return
		}
	}
	if last == nil {
		addr := args(texts)
		key := form + "(" + addr + ")"
		if form == "" {
			key = addr + " early"
		}
		if i, ok := c.seen[key]; ok {
			c.accs[i].kind = c.accs[i].kind.merge(kind)
			return
		}
		c.seen[key] = len(c.accs)
		c.accs = append(c.accs, access{kind: kind, addr: addr, expr: need[0], byValue: true, form: form, pos: pos, early: true, ops: names})
		return
	}
	if c.dry {
		return
	}
	w, why := c.wrapper(last)
	if w == nil {
		c.r.warnf(pos, "access by %s not instrumented: %s", types.ExprString(last), why)
		return
	}
	for i, n := range need {
		if n == last {
			texts[i] = w.v
		}
	}
	addr := args(texts)
	for i, a := range w.accs {
		if a.addr == addr && a.form == form {
			w.accs[i].kind = a.kind.merge(kind)
			return
		}
	}
	w.accs = append(w.accs, access{kind: kind, addr: addr, expr: need[0], byValue: true, form: form, pos: pos, ops: names})
}

// hasEffects reports whether evaluating e may call a function (other than
// a conversion or a builtin that computes a value) or receive from a
// channel.
func (r *rewriter) hasEffects(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if tv, ok := r.info.Types[n.Fun]; ok && tv.IsType() {
				return true
			}
			if id, ok := unparen(n.Fun).(*ast.Ident); ok {
				if b, ok := r.info.Uses[id].(*types.Builtin); ok && pureBuiltins[b.Name()] {
					return true
				}
			}
			found = true
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				found = true
			}
		}
		return !found
	})
	return found
}

// pureBuiltins are the builtins whose calls compute a value and do
// nothing else that another goroutine could see.
var pureBuiltins = map[string]bool{
	"len": true, "cap": true, "min": true, "max": true, "complex": true, "real": true, "imag": true,
	"new": true, "make": true, "append": true,
}

// locate splits location e, whose address cannot be computed before the
// statement, into the value b it depends on and the location as a
// function of a variable holding b's value. b is nil when e is not a path
// of field selections, indexes and indirections from one such value.
func (c *collector) locate(e ast.Expr) (b ast.Expr, loc func(v string) string) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return c.locate(e.X)
	case *ast.StarExpr:
		return e.X, func(v string) string { return "*" + v }
	case *ast.SelectorExpr:
		sel := c.r.info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal {
			return nil, nil
		}
		name := e.Sel.Name
		if isPointer(c.r.typeOf(e.X)) {
			return e.X, func(v string) string { return v + "." + name }
		}
		if b, inner := c.locate(unparen(e.X)); b != nil {
			return b, func(v string) string { return "(" + inner(v) + ")." + name }
		}
	case *ast.IndexExpr:
		hx, hi := c.hoistable(e.X), c.hoistable(e.Index)
		switch coreType(c.r.typeOf(e.X)).(type) {
		case *types.Slice, *types.Pointer:
			switch {
			case !hx && hi:
				index := types.ExprString(e.Index)
				return e.X, func(v string) string { return v + "[" + index + "]" }
			case hx && !hi:
				x := types.ExprString(e.X)
				return e.Index, func(v string) string { return x + "[" + v + "]" }
			}
		case *types.Array:
			switch {
			case hx && !hi && c.addressable(e.X):
				x := types.ExprString(e.X)
				return e.Index, func(v string) string { return x + "[" + v + "]" }
			case !hx && hi:
				index := types.ExprString(e.Index)
				if b, inner := c.locate(unparen(e.X)); b != nil {
					return b, func(v string) string { return "(" + inner(v) + ")[" + index + "]" }
				}
			}
		}
	}
	return nil, nil
}

// addr returns the address expression for location e (the map itself
// when byValue), which hoistable, or why there is none.
func (c *collector) addr(e ast.Expr, byValue bool) (string, string) {
	if byValue {
		return types.ExprString(e), ""
	}
	if s, ok := unparen(e).(*ast.StarExpr); ok {
		return types.ExprString(s.X), ""
	}
	if !c.addressable(e) {
		return "", "not addressable"
	}
	return "&" + types.ExprString(e), ""
}

// hoistable reports whether e can be evaluated before the statement with
// no side effect other than a panic the statement would also cause.
func (c *collector) hoistable(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		obj := c.r.info.Uses[e]
		if obj == nil {
			obj = c.r.info.Defs[e]
		}
		switch obj := obj.(type) {
		case *types.Var:
			return obj.Parent() == c.r.pkg.Scope() || obj.Pos() < c.start
		case *types.Const:
			return obj.Parent() == c.r.pkg.Scope() || obj.Parent() == types.Universe || obj.Pos() < c.start
		case *types.Nil:
			return true
		}
		return false
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return c.hoistable(e.X)
	case *ast.SelectorExpr:
		if c.isPkgVar(e) {
			return true
		}
		sel := c.r.info.Selections[e]
		return sel != nil && sel.Kind() == types.FieldVal && c.hoistable(e.X)
	case *ast.IndexExpr:
		if tv, ok := c.r.info.Types[e.Index]; ok && tv.Value != nil {
			return c.hoistable(e.X)
		}
		return c.hoistable(e.X) && c.hoistable(e.Index)
	case *ast.StarExpr:
		return c.hoistable(e.X)
	case *ast.SliceExpr:
		// A slice expression panics where the statement would.
		for _, x := range []ast.Expr{e.X, e.Low, e.High, e.Max} {
			if x != nil && !c.hoistable(x) {
				return false
			}
		}
		return true
	case *ast.TypeAssertExpr:
		// A failing assertion panics in the statement too.
		return e.Type != nil && c.hoistable(e.X)
	case *ast.BinaryExpr:
		// Arithmetic has no side effects; a panic it may cause (division
		// by zero) the statement would cause too.
		return c.hoistable(e.X) && c.hoistable(e.Y)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB, token.ADD, token.NOT, token.XOR:
			return c.hoistable(e.X)
		}
	case *ast.CallExpr:
		if len(e.Args) != 1 || e.Ellipsis.IsValid() {
			return false
		}
		if tv, ok := c.r.info.Types[e.Fun]; ok && tv.IsType() {
			_, basic := tv.Type.Underlying().(*types.Basic)
			return basic && c.hoistable(e.Args[0]) // conversion
		}
		if id, ok := unparen(e.Fun).(*ast.Ident); ok {
			if b, ok := c.r.info.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
				return c.hoistable(e.Args[0])
			}
		}
	}
	return false
}

func (c *collector) addressable(e ast.Expr) bool {
	switch e := unparen(e).(type) {
	case *ast.Ident:
		obj := c.r.info.Uses[e]
		if obj == nil {
			obj = c.r.info.Defs[e]
		}
		_, ok := obj.(*types.Var)
		return ok
	case *ast.SelectorExpr:
		if c.isPkgVar(e) {
			return true
		}
		if isPointer(c.r.typeOf(e.X)) {
			return true
		}
		return c.addressable(e.X)
	case *ast.IndexExpr:
		switch coreType(c.r.typeOf(e.X)).(type) {
		case *types.Slice, *types.Pointer:
			return true
		case *types.Array:
			return c.addressable(e.X)
		}
		return false
	case *ast.StarExpr:
		return true
	}
	return false
}

func (c *collector) isPkgVar(e *ast.SelectorExpr) bool {
	if id, ok := e.X.(*ast.Ident); ok {
		if _, ok := c.r.info.Uses[id].(*types.PkgName); ok {
			_, isVar := c.r.info.Uses[e.Sel].(*types.Var)
			return isVar
		}
	}
	return false
}

func isPointer(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := coreType(t).(*types.Pointer)
	return ok
}

// sharedVar reports whether obj is a variable that may be shared.
func (c *collector) sharedVar(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() {
		return false
	}
	if v.Parent() == c.r.pkg.Scope() {
		return true
	}
	return c.r.shared[v]
}

// sharedLoc reports whether location e may be shared.
func (c *collector) sharedLoc(e ast.Expr) bool {
	switch e := unparen(e).(type) {
	case *ast.Ident:
		return c.sharedVar(c.r.info.Uses[e])
	case *ast.SelectorExpr:
		if c.isPkgVar(e) {
			return true
		}
		sel := c.r.info.Selections[e]
		return sel != nil && (sel.Indirect() || c.sharedLoc(e.X))
	case *ast.IndexExpr:
		switch coreType(c.r.typeOf(e.X)).(type) {
		case *types.Slice, *types.Pointer:
			return true
		case *types.Array:
			return c.sharedLoc(e.X)
		}
	case *ast.StarExpr:
		return true
	}
	return false
}

// read collects the accesses of evaluating e.
func (c *collector) read(e ast.Expr) {
	if e == nil {
		return
	}
	if tv, ok := c.r.info.Types[e]; ok && (tv.IsType() || tv.Value != nil) {
		return
	}
	switch e := e.(type) {
	case *ast.Ident:
		if c.sharedVar(c.r.info.Uses[e]) {
			c.add(readAccess, e, false)
		}
	case *ast.ParenExpr:
		c.read(e.X)
	case *ast.SelectorExpr:
		if c.isPkgVar(e) {
			c.add(readAccess, e, false)
			return
		}
		sel := c.r.info.Selections[e]
		if sel == nil {
			return
		}
		switch sel.Kind() {
		case types.FieldVal:
			c.operand(e.X)
			if c.sharedLoc(e) {
				c.add(readAccess, e, false)
			}
		case types.MethodVal:
			c.receiver(e, sel)
			c.recvEffects(e, sel, nil)
		}
	case *ast.IndexExpr:
		c.index(e, readAccess)
	case *ast.IndexListExpr:
	case *ast.StarExpr:
		c.read(e.X)
		c.add(readAccess, e, false)
	case *ast.UnaryExpr:
		switch e.Op {
		case token.AND:
			c.base(e.X)
		case token.ARROW:
			c.calls++
			c.inCall++
			c.read(e.X)
			c.inCall--
		default:
			c.read(e.X)
		}
	case *ast.BinaryExpr:
		if e.Op == token.LAND || e.Op == token.LOR {
			// The left operand is evaluated before the calls of the
			// right one, which are not collected.
			c.inCall++
			c.read(e.X)
			c.inCall--
			return
		}
		c.read(e.X)
		c.read(e.Y)
	case *ast.CallExpr:
		c.callExpr(e)
	case *ast.CompositeLit:
		_, isStruct := coreType(c.r.typeOf(e)).(*types.Struct)
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if !isStruct {
					c.read(kv.Key)
				}
				c.read(kv.Value)
			} else {
				c.read(el)
			}
		}
	case *ast.TypeAssertExpr:
		c.read(e.X)
	case *ast.SliceExpr:
		if _, isArr := coreType(c.r.typeOf(e.X)).(*types.Array); isArr {
			c.base(e.X)
		} else {
			c.read(e.X)
		}
		c.read(e.Low)
		c.read(e.High)
		c.read(e.Max)
	case *ast.KeyValueExpr:
		c.read(e.Value)
	}
}

// operand collects the accesses of the operand x of a field selection
// x.f: a pointer is loaded, a struct value is only addressed.
func (c *collector) operand(x ast.Expr) {
	if isPointer(c.r.typeOf(x)) {
		c.read(x)
	} else {
		c.base(x)
	}
}

// base collects the accesses needed to compute the address of e, without
// reading e itself.
func (c *collector) base(e ast.Expr) {
	switch e := e.(type) {
	case *ast.Ident:
	case *ast.ParenExpr:
		c.base(e.X)
	case *ast.SelectorExpr:
		if c.isPkgVar(e) {
			return
		}
		if sel := c.r.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			c.operand(e.X)
			return
		}
		c.read(e)
	case *ast.IndexExpr:
		switch coreType(c.r.typeOf(e.X)).(type) {
		case *types.Array:
			c.base(e.X)
			c.read(e.Index)
		case *types.Slice, *types.Pointer:
			c.read(e.X)
			c.read(e.Index)
		default:
			c.read(e) // a map element is a value: reading it reads the map
		}
	case *ast.StarExpr:
		c.read(e.X)
	case *ast.CompositeLit:
		c.read(e)
	default:
		c.read(e)
	}
}

// write collects the accesses of assigning to e.
func (c *collector) write(e ast.Expr) {
	switch e := e.(type) {
	case *ast.Ident:
		if e.Name != "_" && c.sharedVar(c.r.info.Uses[e]) {
			c.add(writeAccess, e, false)
		}
	case *ast.ParenExpr:
		c.write(e.X)
	case *ast.SelectorExpr:
		if c.isPkgVar(e) {
			c.add(writeAccess, e, false)
			return
		}
		c.operand(e.X)
		if c.sharedLoc(e) {
			c.add(writeAccess, e, false)
		}
	case *ast.IndexExpr:
		c.index(e, writeAccess)
	case *ast.StarExpr:
		c.read(e.X)
		c.add(writeAccess, e, false)
	}
}

// index collects the accesses of e.X[e.Index].
func (c *collector) index(e *ast.IndexExpr, kind accessKind) {
	if tv, ok := c.r.info.Types[e.X]; ok && !tv.IsValue() {
		return // instantiation
	}
	switch coreType(c.r.typeOf(e.X)).(type) {
	case *types.Map:
		c.read(e.X)
		c.read(e.Index)
		c.addAs(kind, e.X, true, e)
	case *types.Slice, *types.Pointer:
		c.read(e.X)
		c.read(e.Index)
		c.add(kind, e, false)
	case *types.Array:
		c.base(e.X)
		c.read(e.Index)
		if c.sharedLoc(e) {
			c.add(kind, e, false)
		}
	case *types.Signature:
	default:
		c.read(e.X)
		c.read(e.Index)
	}
}

// callExpr collects the accesses of evaluating a call's operands.
func (c *collector) callExpr(e *ast.CallExpr) {
	if tv, ok := c.r.info.Types[e.Fun]; ok && tv.IsType() {
		c.reads(e.Args) // conversion
		return
	}
	if id, ok := unparen(e.Fun).(*ast.Ident); ok {
		if b, ok := c.r.info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "new", "make":
				c.reads(e.Args[1:])
				return
			}
			c.reads(e.Args)
			if e != c.deferred {
				c.builtin(b.Name(), e)
			}
			return
		}
	}
	if sel, ok := unparen(e.Fun).(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			if pn, ok := c.r.info.Uses[id].(*types.PkgName); ok && pn.Imported().Path() == "unsafe" {
				return // not evaluated
			}
		}
	}
	c.calls++
	c.inCall++
	var method *ast.SelectorExpr
	var sel *types.Selection
	switch f := unparen(e.Fun).(type) {
	case *ast.FuncLit, *ast.IndexListExpr:
	case *ast.SelectorExpr:
		if sel = c.r.info.Selections[f]; sel != nil && sel.Kind() == types.MethodVal {
			method = f
			c.receiver(f, sel)
		} else {
			c.read(f)
		}
	default:
		c.read(f) // an instantiation f[T] reads nothing
	}
	c.reads(e.Args)
	c.inCall--
	switch {
	case method != nil:
		c.recvEffects(method, sel, e)
	case e != c.deferred:
		c.stdCall(e)
	}
}

func ptrRecv(sel *types.Selection) bool {
	sig, ok := sel.Obj().Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	return isPointer(sig.Recv().Type())
}

// takesAddress reports whether calling the method selected from x takes
// the address of x: a pointer method reached without going through a
// pointer.
func takesAddress(r *rewriter, sel *types.Selection, x ast.Expr) bool {
	if !ptrRecv(sel) {
		return false
	}
	t := r.typeOf(x)
	if isPointer(t) {
		return false
	}
	path := sel.Index()
	for _, i := range path[:len(path)-1] {
		st, ok := derefType(t).Underlying().(*types.Struct)
		if !ok {
			return false
		}
		t = st.Field(i).Type()
		if isPointer(t) {
			return false
		}
	}
	_, isIface := t.Underlying().(*types.Interface)
	return !isIface
}

// sharedLocals returns the local variables that may be shared between
// goroutines: those captured by a function literal and assigned after
// their declaration, and those whose address is taken. A literal that is
// called where it stands, or deferred, runs in the goroutine that
// declared what it captures, and shares nothing by capturing it: natively
// such a variable stays on the stack, and an address handed to the
// runtime would move it to the heap, an allocation the program can count
// (testing.AllocsPerRun). A literal inside it that another goroutine may
// run captures on its own account.
func (r *rewriter) sharedLocals() map[types.Object]bool {
	inline := make(map[*ast.FuncLit]bool)
	goCalls := make(map[*ast.CallExpr]bool)
	captured := make(map[types.Object]bool)
	assigned := make(map[types.Object]bool)
	addressed := make(map[types.Object]bool)
	local := func(obj types.Object) *types.Var {
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == r.pkg.Scope() || v.Pkg() != r.pkg {
			return nil
		}
		return v
	}
	var lits []*ast.FuncLit
	var root func(e ast.Expr) *types.Var
	root = func(e ast.Expr) *types.Var {
		switch e := unparen(e).(type) {
		case *ast.Ident:
			if obj := r.info.Uses[e]; obj != nil {
				return local(obj)
			}
			return local(r.info.Defs[e])
		case *ast.SelectorExpr:
			if sel := r.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal && !sel.Indirect() {
				return root(e.X)
			}
		case *ast.IndexExpr:
			if _, ok := coreType(r.typeOf(e.X)).(*types.Array); ok {
				return root(e.X)
			}
		}
		return nil
	}
	ast.Inspect(r.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			lits = append(lits, n)
		case *ast.GoStmt:
			goCalls[n.Call] = true // visited before its call
		case *ast.CallExpr:
			if lit, ok := unparen(n.Fun).(*ast.FuncLit); ok && !goCalls[n] {
				inline[lit] = true
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if v := root(l); v != nil && (n.Tok != token.DEFINE || r.info.Defs[l.(*ast.Ident)] == nil) {
					assigned[v] = true
				}
			}
		case *ast.IncDecStmt:
			if v := root(n.X); v != nil {
				assigned[v] = true
			}
		case *ast.RangeStmt:
			// Range variables are assigned by every iteration, unless
			// each iteration has its own (Go 1.22 and later).
			if n.Tok == token.ASSIGN || r.perLoopVars() {
				for _, l := range []ast.Expr{n.Key, n.Value} {
					if l == nil {
						continue
					}
					if v := root(l); v != nil {
						assigned[v] = true
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if v := root(n.X); v != nil {
					addressed[v] = true
				}
			}
		case *ast.SelectorExpr:
			// x.M() with a pointer method takes x's address.
			if sel := r.info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal && takesAddress(r, sel, n.X) {
				if v := root(n.X); v != nil {
					addressed[v] = true
				}
			}
		}
		return true
	})
	for _, lit := range lits {
		if inline[lit] {
			continue
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v := local(r.info.Uses[id]); v != nil && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
					captured[v] = true
				}
			}
			return true
		})
	}
	shared := make(map[types.Object]bool)
	for v := range captured {
		if assigned[v] {
			shared[v] = true
		}
	}
	for v := range addressed {
		shared[v] = true
	}
	return shared
}
