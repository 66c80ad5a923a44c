package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// Symbolic code (Options.Symbolic, strategy mpc).
//
// With Options.Symbolic the rewrite of fuzz bodies (see branches) applies
// to every function declaration, method and function literal of the file,
// and local variables, parameters, call arguments and call results carry
// symbolic values too. Inputs ("i" K) are still only the fuzz bodies'
// parameters.
//
// A local variable of integer or boolean type (a parameter, a named
// result, or a variable declared in the function) that the memory
// instrumentation does not treat as shared, and that is not a receiver,
// is tracked when it may hold a symbolic value (a parameter of a function
// declaration, or a variable assigned a term with an input, a read or
// another such variable) and some rewritten condition, write, call or
// tracked variable's value mentions it:
//
//   - A variable no function literal captures is "l" J: vals[J] is its
//     number, the Site of its declaration (int64(id)), and vals[J+1] its
//     value. A statement of a statement list assigning it, v = e, v := e,
//     var v = e, is followed on its line by rt.SymSet(id, sym, vals,
//     ptrs...), sym e's
//     term, or "" when e is not symbolic (a call, a map read...); when e
//     mentions a name the statement assigns, and for v op= e, v++, v--,
//     the call comes before the statement with the term of the new value
//     over the old one (e has no calls: its leaves can be evaluated
//     early). An assignment in the init statement of an if statement is
//     reported in front of its condition (rt.SymSet(...) && (cond)), of a
//     for or switch statement before that statement. A local assigned a
//     value that is not a term but may depend on what is tracked is
//     tracked too, and reported "" there. The variables of a
//     range clause and of a select case get rt.SymSet(id, "", nil) at the start
//     of the body.
//   - A variable that function literals capture (and, not being shared,
//     nobody assigns after its declaration) is "a" J ":" TY with &v as
//     ptrs[J]; its declaration is followed by rt.SymSetAt(&v, sym, ...).
//   - A function declaration (not generic, not variadic) with a tracked
//     parameter starts with rt.SymEnter("FN", p...): each parameter's
//     number, address, or nil when it is not tracked. Other tracked
//     parameters (of function literals) and named results are reset at the
//     start of the body (rt.SymSet(id, "", nil)). A string or []byte
//     parameter is tracked (its leaf stands for its length) when it is
//     bound by SymEnter and nobody assigns it.
//   - A call of a function or method of the package (not through a func
//     value or an interface, not generic, not variadic, not in a go or
//     defer statement), one of whose arguments is symbolic, wraps its
//     last argument: rt.SymCall[T](arg, "FN", "t1 t2 ...", vals, ptrs...),
//     one term per argument or "_", evaluated after every call of the
//     arguments. A call of a function of this file is wrapped only if
//     that function calls rt.SymEnter. A read of shared memory is a leaf
//     of an argument only when the call is the only one of its statement
//     (an expression statement, assignment, declaration or return), which
//     reports the read before it.
//   - Results (Yi and Huang's terms over "symbolic read values" extended
//     to values returned by calls, section 4.2): a function declaration
//     with one integer or boolean result (reportsResult) whose named
//     result no deferred call may change wraps each return value whose
//     term is known in rt.SymRet[T](e, __rtFrame, sym, ...), and starts
//     with __rtFrame := rt.SymEnter(...). A call of such a function whose
//     result a term uses (resultCallee: static, of the package, receiver
//     and arguments calling nothing but such calls, not in a right
//     operand of && or ||) is rt.SymResult[T](rt.SymMark("FN"), call,
//     site), and the term's leaf is "r" J, vals[J] the site; the wraps
//     go in after every other rewrite, inside the consumer's own wrap of
//     the same text. A function whose terms use a local ("l") or a
//     call's result starts with rt.SymEnter too (rt.SymEnter("") for a
//     function literal), which notes a recursive entry.
//
// A variable assigned where no call can be placed (a for loop's post
// statement, the init statement of an else if or of a labeled statement
// when the report must come before) is not tracked: its leaves are
// concrete values ("v" J). So are locals that are not tracked.

// symState is the state of a symbolic rewrite of one file.
type symState struct {
	r       *rewriter
	vars    map[*types.Var]*localVar
	decls   map[*types.Func]*ast.FuncDecl
	entered map[*ast.FuncDecl][]*localVar // parameters bound by SymEnter, nil for the others
	plans   []*symPlan
	sites   map[*ast.CallExpr]string // call -> the site of its result
	wrapped map[*ast.CallExpr]bool   // calls wrapped by rt.SymResult
	toWrap  []*ast.CallExpr          // the same, in order
}

// A localVar is a candidate local variable.
type localVar struct {
	v        *types.Var
	decl     *ast.Ident
	fz       *fuzzBody // its function
	captured bool      // by a function literal: an "a" leaf
	param    bool      // bound by SymEnter
	symbolic bool      // may hold a symbolic value
	needed   bool      // some rewrite mentions it
	defs     []*symDef
	id       string // the Site of decl, once registered
}

// A symDef is a statement giving a candidate variable a value.
type symDef struct {
	lv   *localVar
	lhs  *ast.Ident // the variable as assigned (nil at a body's start)
	stmt ast.Stmt   // whose reported reads the term may use (nil: none)
	rhs  ast.Expr   // the value, nil when not tracked
	op   string     // v op= rhs; with rhs nil, v++ or v--
	at   int        // offset of the report
	how  int        // placeAfter, placeBefore, placeStart
}

const (
	placeAfter  = iota // "; call" at the end of a statement
	placeBefore        // "call; " in front of a statement
	placeStart         // " call;" after a { or :
	placeCond          // "call && (" in front of the condition of an if statement whose init it reports, ")" after
)

// A symPlan is a rewrite decided before the variables it mentions are
// known to be needed.
type symPlan struct {
	uses []*localVar
	emit func()
}

func (st *symState) plan(t *symTerm, emit func()) {
	st.plans = append(st.plans, &symPlan{uses: t.uses, emit: emit})
	for _, lv := range t.uses {
		st.need(lv)
	}
}

// symbolic rewrites every function of the file (see the comment above).
func (r *rewriter) symbolic() {
	st := &symState{
		r: r, vars: make(map[*types.Var]*localVar), decls: make(map[*types.Func]*ast.FuncDecl),
		entered: make(map[*ast.FuncDecl][]*localVar),
		sites:   make(map[*ast.CallExpr]string), wrapped: make(map[*ast.CallExpr]bool),
	}
	inputs := make(map[*ast.FuncLit]map[*types.Var]int)
	isInput := make(map[*types.Var]bool)
	for _, lit := range r.fuzzLits {
		inputs[lit] = r.fuzzInputs(lit)
		for v := range inputs[lit] {
			isInput[v] = true
		}
	}
	var fns []*fuzzBody
	var lits []*ast.FuncLit
	ast.Inspect(r.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				fns = append(fns, &fuzzBody{r: r, st: st, fn: n, inputs: map[*types.Var]int{}})
				if f, ok := r.info.Defs[n.Name].(*types.Func); ok {
					st.decls[f] = n
				}
			}
		case *ast.FuncLit:
			lits = append(lits, n)
			fz := &fuzzBody{r: r, st: st, fn: n, inputs: map[*types.Var]int{}}
			for lit, in := range inputs { // the innermost fuzz body around n
				if lit.Pos() <= n.Pos() && n.End() <= lit.End() {
					if cur := fz.inputsOf; cur == nil || cur.Pos() < lit.Pos() {
						fz.inputsOf, fz.inputs = lit, in
					}
				}
			}
			fns = append(fns, fz)
		}
		return true
	})
	owner := func(pos token.Pos) *fuzzBody {
		var in *fuzzBody
		for _, fz := range fns { // outer functions come first
			if fz.fn.Pos() <= pos && pos < fz.fn.End() {
				in = fz
			}
		}
		return in
	}

	// The candidates.
	receivers := make(map[*types.Var]bool)
	for _, fz := range fns {
		if fd, ok := fz.fn.(*ast.FuncDecl); ok && fd.Recv != nil {
			for _, f := range fd.Recv.List {
				for _, n := range f.Names {
					if v, ok := r.info.Defs[n].(*types.Var); ok {
						receivers[v] = true
					}
				}
			}
		}
	}
	for id, obj := range r.info.Defs {
		v, ok := obj.(*types.Var)
		if !ok || v.IsField() || id.Name == "_" || id.Pos() < r.file.Pos() || id.Pos() >= r.file.End() ||
			v.Parent() == nil || v.Parent() == r.pkg.Scope() || intOrBool(v.Type()) == nil && !isStringLike(v.Type()) ||
			r.shared[v] || isInput[v] || receivers[v] {
			continue
		}
		fz := owner(id.Pos())
		if fz == nil {
			continue
		}
		st.vars[v] = &localVar{v: v, decl: id, fz: fz}
	}
	for _, lit := range lits {
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := r.info.Uses[id].(*types.Var); ok {
					if lv := st.vars[v]; lv != nil && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
						lv.captured = true
					}
				}
			}
			return true
		})
	}

	st.collectDefs(fns)
	// Which candidates may hold symbolic values.
	for changed := true; changed; {
		changed = false
		for _, lv := range st.sorted() {
			if lv.symbolic {
				continue
			}
			for _, d := range lv.defs {
				// A value whose term is not known but may depend on what is
				// tracked (a call through a func value...) makes it
				// symbolic too: its uses are then concrete values that
				// keep the search from claiming every path.
				if t, _, ok := d.term(true); ok && t.symbolic || !ok && d.rhs != nil && lv.fz.tracks(d.rhs) {
					lv.symbolic, changed = true, true
					break
				}
			}
		}
	}

	// Conditions and writes, then calls, whose wrapping depends on the
	// callees' parameters being needed.
	for _, fz := range fns {
		ast.Inspect(fz.body(), func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			fz.visit(n)
			return true
		})
	}
	for _, fz := range fns {
		fz.returns()
	}
	type callSite struct {
		fz   *fuzzBody
		call *ast.CallExpr
		fn   *types.Func
	}
	var calls []callSite
	for _, fz := range fns {
		ast.Inspect(fz.body(), func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if p, ok := r.parents[n].(*ast.GoStmt); ok && p.Call == n {
					return true
				}
				if p, ok := r.parents[n].(*ast.DeferStmt); ok && p.Call == n {
					return true
				}
				if f := fz.staticCallee(n); f != nil {
					calls = append(calls, callSite{fz, n, f})
				}
			}
			return true
		})
	}
	done := make([]bool, len(calls))
	for changed := true; changed; {
		changed = false
		for i, c := range calls {
			if done[i] {
				continue
			}
			if fd := st.decls[c.fn]; fd != nil && !st.enters(fd) {
				continue
			}
			if t, _, ok := c.fz.callTerms(c.call, c.fn, true); ok {
				done[i], changed = true, true
				fz, call, fn := c.fz, c.call, c.fn
				st.plan(t, func() { fz.symCall(call, fn) })
			}
		}
	}

	for _, p := range st.plans {
		p.emit()
	}
	for _, lv := range st.sorted() {
		if !lv.needed {
			continue
		}
		for _, d := range lv.defs {
			d.emit()
		}
	}
	st.wrapCalls()
	for _, fz := range fns {
		fd, ok := fz.fn.(*ast.FuncDecl)
		if !ok {
			if fz.hook {
				r.edits.insert(r.off(fz.body().Lbrace)+1, " "+r.rt("SymEnter")+`("");`)
			}
			continue
		}
		if !st.enters(fd) && !fz.hook && !fz.frame {
			continue
		}
		args := []string{quote(r.info.Defs[fd.Name].(*types.Func).FullName())}
		if st.enters(fd) {
			for _, lv := range st.entered[fd] {
				switch {
				case lv == nil || !lv.needed:
					args = append(args, "nil")
				case lv.captured:
					args = append(args, "&"+lv.decl.Name)
				default:
					args = append(args, lv.site())
				}
			}
		}
		call := r.rt("SymEnter") + "(" + strings.Join(args, ", ") + ")"
		if fz.frame {
			call = frameVar + " := " + call
		}
		r.edits.insert(r.off(fd.Body.Lbrace)+1, " "+call+";")
	}
}

// frameVar is the variable that holds, in a function whose return
// statements report their terms, the mark of the call it answers.
const frameVar = "__rtFrame"

// returns wraps the value of each return statement of fz, a function
// declaration with one result of integer or boolean type, in rt.SymRet
// with its term, when it has one. A function whose named result a
// deferred call may change (it has a named result and a defer statement)
// reports nothing, nor does a bare return: its callers get concrete
// values.
func (fz *fuzzBody) returns() {
	r := fz.r
	fd, ok := fz.fn.(*ast.FuncDecl)
	if !ok {
		return
	}
	f, ok := r.info.Defs[fd.Name].(*types.Func)
	if !ok || !reportsResult(f) {
		return
	}
	sig := f.Type().(*types.Signature)
	typ, err := r.typeExpr(sig.Results().At(0).Type(), fd.Body.Lbrace)
	if err != nil {
		return
	}
	var rets []*ast.ReturnStmt
	deferred := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			deferred = true
		case *ast.ReturnStmt:
			if len(n.Results) == 1 {
				rets = append(rets, n)
			}
		}
		return true
	})
	if deferred && sig.Results().At(0).Name() != "" {
		return
	}
	for _, ret := range rets {
		if t, _, ok := fz.returnTerm(ret, true); ok {
			fz.st.plan(t, func() {
				t, sym, ok := fz.returnTerm(ret, false)
				if !ok {
					return
				}
				e := ret.Results[0]
				r.edits.wrap(r.off(e.Pos()), r.off(e.End()),
					r.rt("SymRet")+"["+typ+"](", ", "+frameVar+", "+quote(sym)+t.leafList()+")")
				t.wrapCalls()
				fz.frame = true
			})
		}
	}
}

// reportsResult reports whether the result of a call of f may be
// reported: f has one result, of integer or boolean type, and is not
// generic.
func reportsResult(f *types.Func) bool {
	sig, ok := f.Type().(*types.Signature)
	return ok && sig.Results().Len() == 1 && intOrBool(sig.Results().At(0).Type()) != nil &&
		sig.TypeParams().Len() == 0 && sig.RecvTypeParams().Len() == 0
}

// returnTerm returns the term of the value of return statement ret.
func (fz *fuzzBody) returnTerm(ret *ast.ReturnStmt, dry bool) (*symTerm, string, bool) {
	r := fz.r
	t := fz.newTerm()
	t.dry, t.results = dry, true
	c := &collector{r: r, start: ret.Pos(), seen: make(map[string]int), dry: true}
	c.stmt(ret)
	t.group(c.accs)
	sym, ok := t.term(ret.Results[0], false)
	if !ok || !t.fits() {
		return nil, "", false
	}
	return t, sym, true
}

// resultCallee returns the function call calls, its name and the Go
// type of its result, when the call can report its result: a static
// call of a function or method of the package (not through an interface
// or a func value) that reportsResult, not in a go or defer statement,
// whose receiver and arguments call nothing but calls that can report
// their results too (so that nothing but marked calls runs between its
// rt.SymMark and its callee's entry).
func (r *rewriter) resultCallee(call *ast.CallExpr) (fn, typ string, ok bool) {
	switch r.parents[call].(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return "", "", false
	}
	f, recv := r.packageCallee(call)
	if f == nil || !reportsResult(f) || call.Ellipsis.IsValid() {
		return "", "", false
	}
	if recv != nil && !r.callFree(recv) {
		return "", "", false
	}
	for _, a := range call.Args {
		if !r.callFree(a) {
			return "", "", false
		}
	}
	typ, err := r.typeExpr(f.Type().(*types.Signature).Results().At(0).Type(), call.Pos())
	if err != nil {
		return "", "", false
	}
	return f.FullName(), typ, true
}

// callFree reports whether evaluating e calls nothing but conversions,
// len and cap, and calls that can report their results (resultCallee),
// and receives nothing.
func (r *rewriter) callFree(e ast.Expr) bool {
	return r.callsOnly(e, func(c *ast.CallExpr) bool {
		if id, ok := unparen(c.Fun).(*ast.Ident); ok {
			if b, ok := r.info.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
				return true
			}
		}
		_, _, ok := r.resultCallee(c)
		return ok
	})
}

// callSite returns the site of the result of call, registering it once.
func (st *symState) callSite(call *ast.CallExpr) string {
	if s, ok := st.sites[call]; ok {
		return s
	}
	s := st.r.site(call.Pos())
	st.sites[call] = s
	return s
}

// wrapCall notes that call, whose result a term uses, is to be rewritten
// into rt.SymResult(rt.SymMark("fn"), call, site), and so the calls in
// its receiver and arguments, which run after its mark (wrapCalls).
func (st *symState) wrapCall(call *ast.CallExpr) {
	if st.wrapped[call] {
		return
	}
	st.wrapped[call] = true
	st.toWrap = append(st.toWrap, call)
	ast.Inspect(call, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && c != call {
			if _, _, ok := st.r.resultCallee(c); ok {
				st.wrapCall(c)
			}
		}
		return true
	})
}

// wrapCalls rewrites the calls wrapCall noted, after every other rewrite
// of the file's terms: a wrap of the same text as a term's consumer (a
// condition that is a call, a call that is the last argument of another)
// goes inside it, so that the result is there before the term is read.
func (st *symState) wrapCalls() {
	r := st.r
	for _, call := range st.toWrap {
		fn, typ, ok := r.resultCallee(call)
		if !ok {
			continue
		}
		r.edits.wrap(r.off(call.Pos()), r.off(call.End()),
			r.rt("SymResult")+"["+typ+"]("+r.rt("SymMark")+"("+quote(fn)+"), ", ", "+st.callSite(call)+")")
	}
}

// body returns the body of the function fz rewrites.
func (fz *fuzzBody) body() *ast.BlockStmt {
	switch f := fz.fn.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}

// sorted returns the candidates in the order of their declarations.
func (st *symState) sorted() []*localVar {
	lvs := make([]*localVar, 0, len(st.vars))
	for _, lv := range st.vars {
		lvs = append(lvs, lv)
	}
	sort.Slice(lvs, func(i, j int) bool { return lvs[i].decl.Pos() < lvs[j].decl.Pos() })
	return lvs
}

// enters reports whether function declaration fd calls rt.SymEnter: one
// of its parameters is needed.
func (st *symState) enters(fd *ast.FuncDecl) bool {
	for _, lv := range st.entered[fd] {
		if lv != nil && lv.needed {
			return true
		}
	}
	return false
}

// need marks lv needed, and the variables its values mention.
func (st *symState) need(lv *localVar) {
	if lv.needed {
		return
	}
	lv.needed = true
	for _, d := range lv.defs {
		if t, _, ok := d.term(true); ok && t.symbolic {
			for _, u := range t.uses {
				st.need(u)
			}
		}
	}
}

// site returns the expression naming lv, registering its site once.
func (lv *localVar) site() string {
	if lv.id == "" {
		lv.id = lv.fz.r.site(lv.decl.Pos())
	}
	return lv.id
}

// localLeaf returns the leaf of local variable v, used as id.
func (t *symTerm) localLeaf(id *ast.Ident, v *types.Var) (string, bool) {
	fz := t.fz
	r := fz.r
	if lv := fz.st.vars[v]; lv != nil && lv.symbolic && (lv.captured || lv.fz == fz) {
		t.symbolic = true
		t.uses = append(t.uses, lv)
		if lv.captured {
			ty := r.memType(v.Type())
			if ty == "" {
				return "", false
			}
			return t.slot("a", "&"+id.Name, "&"+id.Name) + ":" + ty, true
		}
		key := "l" + id.Name
		if j, ok := t.slots[key]; ok {
			return "l" + strconv.Itoa(j), true
		}
		j := len(t.vals)
		t.slots[key] = j
		num := "0"
		if !t.dry {
			num = lv.site()
		}
		t.vals = append(t.vals, "int64("+num+")", t.value(id.Name, v.Type()))
		return "l" + strconv.Itoa(j), true
	}
	if v.IsField() || v.Parent() == nil || v.Parent() == r.pkg.Scope() || intOrBool(v.Type()) == nil {
		return "", false
	}
	return t.slot("v", id.Name, t.value(id.Name, v.Type())), true
}

// collectDefs finds the statements giving the candidates values. A
// candidate assigned where no report can be placed is dropped.
func (st *symState) collectDefs(fns []*fuzzBody) {
	r := st.r
	drop := make(map[*localVar]bool)
	lvOf := func(e ast.Expr) (*localVar, *ast.Ident) {
		id, ok := unparen(e).(*ast.Ident)
		if !ok {
			return nil, nil
		}
		obj := r.info.Defs[id]
		if obj == nil {
			obj = r.info.Uses[id]
		}
		v, ok := obj.(*types.Var)
		if !ok {
			return nil, nil
		}
		return st.vars[v], id
	}
	// Parameters and results.
	for _, fz := range fns {
		var ft *ast.FuncType
		fd, isDecl := fz.fn.(*ast.FuncDecl)
		if isDecl {
			ft = fd.Type
		} else {
			ft = fz.fn.(*ast.FuncLit).Type
		}
		body := fz.body()
		bound := false
		if isDecl {
			if f, ok := r.info.Defs[fd.Name].(*types.Func); ok {
				sig := f.Type().(*types.Signature)
				bound = !sig.Variadic() && sig.TypeParams().Len() == 0 && sig.RecvTypeParams().Len() == 0
			}
		}
		start := func(lv *localVar) {
			lv.defs = append(lv.defs, &symDef{lv: lv, at: r.off(body.Lbrace) + 1, how: placeStart})
		}
		if ft.Params != nil {
			var entered []*localVar
			for _, f := range ft.Params.List {
				if len(f.Names) == 0 {
					entered = append(entered, nil)
				}
				for _, n := range f.Names {
					lv, _ := lvOf(n)
					entered = append(entered, lv)
					if lv == nil {
						continue
					}
					if bound {
						lv.param, lv.symbolic = true, true
					} else {
						start(lv)
					}
				}
			}
			if bound {
				st.entered[fd] = entered
			}
		}
		if ft.Results != nil {
			for _, f := range ft.Results.List {
				for _, n := range f.Names {
					if lv, _ := lvOf(n); lv != nil {
						start(lv)
					}
				}
			}
		}
	}
	// place returns where a report of statement s goes, before or after
	// it, and the statement whose reported reads it may use.
	place := func(s ast.Stmt, before bool) (at int, how int, reads ast.Stmt, ok bool) {
		p := r.parents[s]
		switch p := p.(type) {
		case *ast.BlockStmt, *ast.CaseClause:
			if before {
				return r.off(s.Pos()), placeBefore, s, true
			}
			return r.off(s.End()), placeAfter, s, true
		case *ast.CommClause:
			if p.Comm == s {
				return r.off(p.Colon) + 1, placeStart, nil, true
			}
			if before {
				return r.off(s.Pos()), placeBefore, s, true
			}
			return r.off(s.End()), placeAfter, s, true
		case *ast.LabeledStmt:
			if before {
				return 0, 0, nil, false // a goto would skip it
			}
			return r.off(s.End()), placeAfter, s, true
		case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.ForStmt:
			var init ast.Stmt
			switch p := p.(type) {
			case *ast.IfStmt:
				init = p.Init
				if pp, ok := r.parents[p].(*ast.IfStmt); ok && pp.Else == p {
					return 0, 0, nil, false
				}
			case *ast.SwitchStmt:
				init = p.Init
			case *ast.TypeSwitchStmt:
				init = p.Init
			case *ast.ForStmt:
				init = p.Init
			}
			if init != s {
				return 0, 0, nil, false
			}
			if ifs, ok := p.(*ast.IfStmt); ok && !before && r.isBool(ifs.Cond) {
				// After the init: in front of the condition, which runs
				// right after it.
				return r.off(ifs.Cond.Pos()), placeCond, s, true
			}
			switch r.parents[p].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				return r.off(p.Pos()), placeBefore, p.(ast.Stmt), true
			}
		}
		return 0, 0, nil, false
	}
	add := func(lv *localVar, d *symDef, s ast.Stmt, before bool) {
		if lv.captured && before {
			// &v does not exist before its declaration, and a captured
			// variable is only assigned there.
			if d.rhs == nil && d.op == "" {
				before = false
			} else {
				d.rhs, d.op, before = nil, "", false
			}
		}
		at, how, reads, ok := place(s, before)
		if !ok {
			drop[lv] = true
			return
		}
		d.lv, d.at, d.how, d.stmt = lv, at, how, reads
		lv.defs = append(lv.defs, d)
	}
	ast.Inspect(r.file, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			names := make(map[string]bool)
			var targets []*localVar
			for _, l := range s.Lhs {
				if id, ok := unparen(l).(*ast.Ident); ok {
					names[id.Name] = true
				}
				if lv, _ := lvOf(l); lv != nil {
					targets = append(targets, lv)
				}
			}
			for i, l := range s.Lhs {
				lv, id := lvOf(l)
				if lv == nil {
					continue
				}
				d := &symDef{lhs: id}
				before := false
				switch s.Tok {
				case token.ASSIGN, token.DEFINE:
					if len(s.Lhs) == len(s.Rhs) {
						d.rhs = s.Rhs[i]
						if mentions(d.rhs, names) {
							before = true
							if len(targets) > 1 {
								d.rhs, before = nil, false // reports in sequence would see each other
							}
						}
					}
				case token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN:
					d.op, d.rhs, before = strings.TrimSuffix(s.Tok.String(), "="), s.Rhs[0], true
				}
				if p, ok := r.parents[s].(*ast.ForStmt); ok && p.Post == s {
					drop[lv] = true
					continue
				}
				add(lv, d, s, before)
			}
		case *ast.IncDecStmt:
			lv, id := lvOf(s.X)
			if lv == nil {
				return true
			}
			if p, ok := r.parents[s].(*ast.ForStmt); ok && p.Post == s {
				drop[lv] = true
				return true
			}
			op := "+"
			if s.Tok == token.DEC {
				op = "-"
			}
			add(lv, &symDef{lhs: id, op: op}, s, true)
		case *ast.DeclStmt:
			gd, ok := s.Decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				return true
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				names := make(map[string]bool)
				for _, n := range vs.Names {
					names[n.Name] = true
				}
				for i, n := range vs.Names {
					lv, _ := lvOf(n)
					if lv == nil {
						continue
					}
					d := &symDef{lhs: n}
					before := false
					if len(vs.Values) == len(vs.Names) {
						d.rhs = vs.Values[i]
						if mentions(d.rhs, names) {
							d.rhs = nil // var v = v: the other v is gone after
						}
					}
					add(lv, d, s, before)
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if e == nil {
					continue
				}
				if lv, _ := lvOf(e); lv != nil {
					lv.defs = append(lv.defs, &symDef{lv: lv, at: r.off(s.Body.Lbrace) + 1, how: placeStart})
				}
			}
		}
		return true
	})
	for _, lv := range st.vars {
		if isStringLike(lv.v.Type()) && (!lv.param || len(lv.defs) > 0) {
			drop[lv] = true // a string is tracked only as a parameter nobody assigns
		}
	}
	for lv := range drop {
		delete(st.vars, lv.v)
	}
	for fd, ps := range st.entered {
		for i, lv := range ps {
			if drop[lv] {
				ps[i] = nil
			}
		}
		st.entered[fd] = ps
	}
}

// term returns the term of the value d gives its variable.
func (d *symDef) term(dry bool) (*symTerm, string, bool) {
	fz := d.lv.fz
	r := fz.r
	if d.rhs == nil && d.op == "" {
		return nil, "", false
	}
	t := fz.newTerm()
	t.dry = dry
	if d.stmt != nil {
		c := &collector{r: r, start: d.stmt.Pos(), seen: make(map[string]int), dry: true}
		c.stmt(d.stmt)
		switch {
		case c.calls == 0:
			t.group(c.accs)
		case d.how == placeAfter || d.how == placeCond:
			// The results of calls the statement made; its reads may be
			// reported late, and are no leaves.
			t.results = true
		default:
			return nil, "", false // reported before the calls are made
		}
	}
	y := "1"
	if d.rhs != nil {
		var ok bool
		if y, ok = t.term(d.rhs, false); !ok {
			return nil, "", false
		}
	}
	if d.op == "" {
		if !t.fits() {
			return nil, "", false
		}
		return t, y, true
	}
	old, ok := t.leaf(d.lhs, false)
	if !ok || !t.fits() {
		return nil, "", false
	}
	return t, "(" + d.op + " " + old + " " + y + ")", true
}

// emit reports the value d gives its variable.
func (d *symDef) emit() {
	lv := d.lv
	r := lv.fz.r
	var call string
	args := ""
	if t, sym, ok := d.term(false); ok && t.symbolic {
		args = quote(sym) + t.leafList()
		t.wrapCalls()
	} else {
		args = `"", nil`
	}
	if lv.captured {
		call = r.rt("SymSetAt") + "(&" + lv.decl.Name + ", " + args + ")"
	} else {
		call = r.rt("SymSet") + "(" + lv.site() + ", " + args + ")"
	}
	switch d.how {
	case placeAfter:
		r.edits.insert(d.at, "; "+call)
	case placeBefore:
		r.edits.insert(d.at, call+"; ")
	case placeStart:
		r.edits.insert(d.at, " "+call+";")
	case placeCond:
		cond := r.parents[d.stmt].(*ast.IfStmt).Cond
		r.edits.wrap(r.off(cond.Pos()), r.off(cond.End()), call+" && (", ")")
	}
}

// staticCallee returns the function of the package that call calls
// statically, if its parameters can be reported (not generic, not
// variadic, one argument per parameter, at least one). Its arguments may
// call functions: rt.SymCall wraps the last one, and so runs after them.
func (fz *fuzzBody) staticCallee(call *ast.CallExpr) *types.Func {
	f, _ := fz.r.packageCallee(call)
	if f == nil {
		return nil
	}
	sig := f.Type().(*types.Signature)
	if sig.Variadic() || sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 ||
		sig.Params().Len() == 0 || sig.Params().Len() != len(call.Args) {
		return nil
	}
	return f
}

// packageCallee returns the function or method of the package that call
// calls statically, not through an interface or a func value, and the
// receiver expression of a method call.
func (r *rewriter) packageCallee(call *ast.CallExpr) (f *types.Func, recv ast.Expr) {
	switch fun := unparen(call.Fun).(type) {
	case *ast.Ident:
		f, _ = r.info.Uses[fun].(*types.Func)
	case *ast.SelectorExpr:
		if sel := r.info.Selections[fun]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return nil, nil
			}
			f, _ = sel.Obj().(*types.Func)
			recv = fun.X
		} else {
			f, _ = r.info.Uses[fun.Sel].(*types.Func)
		}
	}
	if f == nil || f.Pkg() != r.pkg {
		return nil, nil
	}
	if rt := f.Type().(*types.Signature).Recv(); rt != nil && types.IsInterface(rt.Type()) {
		return nil, nil
	}
	return f, recv
}

// pure reports whether evaluating e has no side effects: no calls (but
// conversions), receives or function literals.
func (fz *fuzzBody) pure(e ast.Expr) bool {
	return fz.r.callsOnly(e, func(*ast.CallExpr) bool { return false })
}

// callsOnly reports whether evaluating e receives nothing, makes no
// function literal and calls nothing but conversions and the calls that
// allow accepts.
func (r *rewriter) callsOnly(e ast.Expr, allow func(*ast.CallExpr) bool) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.CallExpr:
			if tv, isType := r.info.Types[n.Fun]; (!isType || !tv.IsType()) && !allow(n) {
				ok = false
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// callTerms returns the terms of call's arguments, "_" for one that is
// not symbolic, when one is.
func (fz *fuzzBody) callTerms(call *ast.CallExpr, f *types.Func, dry bool) (*symTerm, string, bool) {
	r := fz.r
	t := fz.newTerm()
	t.dry = dry
	// Reads reported before the call: those of a statement whose only
	// call this is.
	var s ast.Node = call
	for s != nil {
		p := r.parents[s]
		if _, ok := p.(*ast.BlockStmt); ok {
			break
		}
		if _, ok := p.(*ast.CaseClause); ok {
			break
		}
		if cc, ok := p.(*ast.CommClause); ok && cc.Comm != s {
			break
		}
		s = p
	}
	t.results = true
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.ReturnStmt:
		c := &collector{r: r, start: s.Pos(), seen: make(map[string]int), dry: true}
		c.stmt(s.(ast.Stmt))
		if c.calls == 1 {
			var early []access
			for _, a := range c.accs {
				if a.early {
					early = append(early, a)
				}
			}
			t.group(early)
		}
	}
	params := f.Type().(*types.Signature).Params()
	syms := make([]string, len(call.Args))
	for i, a := range call.Args {
		syms[i] = "_"
		str := isStringLike(params.At(i).Type())
		if intOrBool(params.At(i).Type()) == nil && !str {
			continue
		}
		symbolic, nvals, nptrs, nuses, ncalls, read := t.symbolic, len(t.vals), len(t.ptrs), len(t.uses), len(t.calls), t.read
		var sym string
		var ok bool
		if str {
			sym, ok = t.strLeaf(a)
		} else {
			sym, ok = t.term(a, false)
		}
		if !ok { // forget what the failed term added
			t.symbolic, t.vals, t.ptrs, t.uses, t.calls, t.read = symbolic, t.vals[:nvals], t.ptrs[:nptrs], t.uses[:nuses], t.calls[:ncalls], read
			for k, j := range t.slots {
				if isVal := k[0] == 'v' || k[0] == 'l'; isVal && j >= nvals || !isVal && j >= nptrs {
					delete(t.slots, k)
				}
			}
			continue
		}
		syms[i] = sym
	}
	if !t.symbolic || !t.fits() {
		return nil, "", false
	}
	return t, strings.Join(syms, " "), true
}

// symCall wraps the last argument of call in rt.SymCall.
func (fz *fuzzBody) symCall(call *ast.CallExpr, f *types.Func) {
	r := fz.r
	t, syms, ok := fz.callTerms(call, f, false)
	if !ok {
		return
	}
	params := f.Type().(*types.Signature).Params()
	typ, err := r.typeExpr(params.At(params.Len()-1).Type(), call.Pos())
	if err != nil {
		return
	}
	a := call.Args[len(call.Args)-1]
	r.edits.wrap(r.off(a.Pos()), r.off(a.End()),
		r.rt("SymCall")+"["+typ+"](", ", "+quote(f.FullName())+", "+quote(syms)+t.leafList()+")")
	t.wrapCalls()
}
