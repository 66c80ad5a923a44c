package z3

/*
#include <z3.h>
*/
import "C"

import (
	"errors"
	"fmt"
)

// Result is the outcome of a check.
type Result int

// The outcomes of a check.
const (
	// Unknown: Z3 gave up (see Solver.ReasonUnknown), or the check failed
	// with an error.
	Unknown Result = iota
	// Sat: the assertions (and assumptions) have a model.
	Sat
	// Unsat: they have none.
	Unsat
)

// String returns "sat", "unsat" or "unknown".
func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Solver is a Z3 solver of a Context: a stack of asserted formulas that can
// be checked for satisfiability. Make one with [Context.NewSolver].
type Solver struct {
	c *Context
	s C.Z3_solver

	last        Result
	checked     bool       // a check has returned without error
	assumptions []C.Z3_ast // of the last check
	reason      string     // of the last check, when Unknown
}

// NewSolver returns a new solver with the Context's settings. It lives
// until its Close or the Context's.
//
// It is Z3's incremental SMT solver (Z3_mk_simple_solver). Z3's default
// solver (Z3_mk_solver) puts a tactic front end before it; measured from C
// on a query of one constraint, that one took 2 to 3 ms to make and about
// 2 ms to check, this one 0.1 ms for each.
func (c *Context) NewSolver() *Solver {
	sv := &Solver{c: c}
	if !c.usable() {
		return sv
	}
	s := C.Z3_mk_simple_solver(c.ctx)
	if !c.check("mk_simple_solver") {
		return sv
	}
	C.Z3_solver_inc_ref(c.ctx, s)
	c.solvers[s] = struct{}{}
	sv.s = s
	if c.cfg.Timeout <= 0 && !c.cfg.MinimizeCores && !c.cfg.DiffLogic {
		return sv
	}
	p := C.Z3_mk_params(c.ctx)
	if !c.check("mk_params") {
		return sv
	}
	C.Z3_params_inc_ref(c.ctx, p)
	defer C.Z3_params_dec_ref(c.ctx, p)
	if c.cfg.Timeout > 0 {
		ms := (c.cfg.Timeout.Nanoseconds() + 999_999) / 1_000_000
		if ms > 1<<32-1 {
			ms = 1<<32 - 1
		}
		C.Z3_params_set_uint(c.ctx, p, c.symbol("timeout"), C.uint(ms))
	}
	if c.cfg.MinimizeCores {
		C.Z3_params_set_bool(c.ctx, p, c.symbol("core.minimize"), true)
	}
	if c.cfg.DiffLogic {
		C.Z3_params_set_uint(c.ctx, p, c.symbol("arith.solver"), 3)
	}
	if c.check("params_set") {
		C.Z3_solver_set_params(c.ctx, s, p)
		c.check("solver_set_params")
	}
	return sv
}

// usable reports whether the solver's Context can make Z3 calls for it.
func (s *Solver) usable() bool {
	if s.c == nil {
		return false
	}
	if !s.c.usable() {
		return false
	}
	if s.s == nil {
		// Closed (made without error, or the Context would have one).
		s.c.fail(errSolverClosed)
		return false
	}
	return true
}

var (
	errSolverClosed = errors.New("z3: solver is closed")
	errModelClosed  = errors.New("z3: model is closed")
)

// Close releases the solver before its Context is closed, for a Context
// that lives across many solvers. Using the solver afterwards is an error
// of the Context. Closing twice, or after the Context, does nothing.
func (s *Solver) Close() {
	if s.c == nil || s.c.ctx == nil || s.s == nil {
		return
	}
	C.Z3_solver_dec_ref(s.c.ctx, s.s)
	delete(s.c.solvers, s.s)
	s.s, s.assumptions = nil, nil
}

// err returns the error to report for a solver that is not usable.
func (s *Solver) err() error {
	if s.c == nil {
		return errors.New("z3: zero Solver used")
	}
	return s.c.Err()
}

// Assert adds ps to the solver's formulas. An error (a term of another
// Context, say) is recorded on the Context and returned by the next check.
func (s *Solver) Assert(ps ...Bool) {
	for _, p := range ps {
		if !s.usable() {
			return
		}
		a, ok := s.c.arg(p)
		if !ok {
			return
		}
		C.Z3_solver_assert(s.c.ctx, s.s, a)
		s.c.check("solver_assert")
	}
}

// Push opens a scope: what is asserted after it is removed by the matching
// Pop.
func (s *Solver) Push() {
	if !s.usable() {
		return
	}
	C.Z3_solver_push(s.c.ctx, s.s)
	s.c.check("solver_push")
}

// Pop removes what was asserted since the last Push. Popping with no scope
// open is an error of the Context.
func (s *Solver) Pop() {
	if !s.usable() {
		return
	}
	C.Z3_solver_pop(s.c.ctx, s.s, 1)
	s.c.check("solver_pop")
}

// Check checks whether the asserted formulas are satisfiable. The error is
// the Context's first error, if it has one; then the result is Unknown.
func (s *Solver) Check() (Result, error) {
	return s.check(nil)
}

// CheckAssumptions checks whether the asserted formulas together with the
// literals lits are satisfiable, without asserting lits. After Unsat,
// [Solver.UnsatCore] tells which of lits the proof used. Any Boolean terms
// will do; the usual form is a guard g of a constraint f, asserted as
// Implies(g, f), with g (or Not(g)) passed here.
func (s *Solver) CheckAssumptions(lits ...Bool) (Result, error) {
	return s.check(lits)
}

func (s *Solver) check(lits []Bool) (Result, error) {
	s.checked, s.last, s.assumptions, s.reason = false, Unknown, nil, ""
	if !s.usable() {
		return Unknown, s.err()
	}
	as, ok := s.c.args(bools(lits))
	if !ok {
		return Unknown, s.c.err
	}
	var r C.Z3_lbool
	if len(as) == 0 {
		r = C.Z3_solver_check(s.c.ctx, s.s)
	} else {
		r = C.Z3_solver_check_assumptions(s.c.ctx, s.s, C.uint(len(as)), &as[0])
	}
	if !s.c.check("solver_check") {
		return Unknown, s.c.err
	}
	s.checked, s.assumptions = true, as
	switch r {
	case C.Z3_L_TRUE:
		s.last = Sat
	case C.Z3_L_FALSE:
		s.last = Unsat
	default:
		s.last = Unknown
		reason := C.Z3_solver_get_reason_unknown(s.c.ctx, s.s)
		if !s.c.check("solver_get_reason_unknown") {
			return Unknown, s.c.err
		}
		s.reason = C.GoString(reason)
	}
	return s.last, nil
}

// ReasonUnknown returns why the last check returned Unknown, as Z3 says it
// (for example "timeout", "canceled" or "(incomplete (theory arithmetic))");
// empty when the last check did not return Unknown.
func (s *Solver) ReasonUnknown() string { return s.reason }

// UnsatCore returns, after a CheckAssumptions that returned Unsat, the
// indexes into its literals of those in the unsat core: a subset of the
// assumptions that is unsatisfiable with the asserted formulas. The core
// need not be minimal unless the Context was made with
// Config.MinimizeCores. The indexes are ascending; a literal passed more
// than once is reported at each of its indexes.
func (s *Solver) UnsatCore() ([]int, error) {
	if !s.usable() {
		return nil, s.err()
	}
	if !s.checked || s.last != Unsat {
		return nil, fmt.Errorf("z3: unsat core asked after a check that was not unsat (%v)", s.last)
	}
	v := C.Z3_solver_get_unsat_core(s.c.ctx, s.s)
	if !s.c.check("solver_get_unsat_core") {
		return nil, s.c.err
	}
	C.Z3_ast_vector_inc_ref(s.c.ctx, v)
	defer C.Z3_ast_vector_dec_ref(s.c.ctx, v)
	inCore := make(map[C.Z3_ast]bool)
	n := C.Z3_ast_vector_size(s.c.ctx, v)
	for i := C.uint(0); i < n; i++ {
		// The core's terms are the assumptions themselves, which this
		// Context holds references to, so comparing handles is enough
		// (Z3 shares equal terms).
		inCore[C.Z3_ast_vector_get(s.c.ctx, v, i)] = true
	}
	if !s.c.check("ast_vector_get") {
		return nil, s.c.err
	}
	idx := []int{}
	for i, a := range s.assumptions {
		if inCore[a] {
			idx = append(idx, i)
		}
	}
	return idx, nil
}

// String returns the solver's formulas in SMT-LIB 2 form, for debugging.
func (s *Solver) String() string {
	if !s.usable() {
		return fmt.Sprintf("<unusable solver: %v>", s.err())
	}
	str := C.Z3_solver_to_string(s.c.ctx, s.s)
	if !s.c.check("solver_to_string") {
		return fmt.Sprintf("<unusable solver: %v>", s.c.err)
	}
	return C.GoString(str)
}

// Model is a satisfying assignment found by a check. It stays valid after
// later checks, until it or its Context is closed. A Model is used through
// its pointer; a copy of the struct would not see Close.
type Model struct {
	c *Context
	m C.Z3_model
}

// Close releases the model before its Context is closed: a Context that
// lives across many checks otherwise holds every model it gave out (about
// 9 KB each for a small MCR query). Using the model afterwards
// is an error of the Context. Closing twice, or after the Context, does
// nothing.
func (m *Model) Close() {
	if m == nil || m.c == nil || m.c.ctx == nil || m.m == nil {
		return
	}
	C.Z3_model_dec_ref(m.c.ctx, m.m)
	delete(m.c.models, m.m)
	m.m = nil
}

// Model returns the model of the last check, which must have returned Sat
// on a Context made with Config.Model set.
func (s *Solver) Model() (*Model, error) {
	if !s.usable() {
		return nil, s.err()
	}
	if !s.checked || s.last != Sat {
		return nil, fmt.Errorf("z3: model asked after a check that was not sat (%v)", s.last)
	}
	if !s.c.cfg.Model {
		return nil, errors.New("z3: model asked of a context made without Config.Model")
	}
	m := C.Z3_solver_get_model(s.c.ctx, s.s)
	if !s.c.check("solver_get_model") {
		return nil, s.c.err
	}
	if m == nil {
		return nil, errors.New("z3: solver_get_model returned no model")
	}
	C.Z3_model_inc_ref(s.c.ctx, m)
	s.c.models[m] = struct{}{}
	return &Model{c: s.c, m: m}, nil
}

// eval evaluates e in the model with model completion (variables the model
// leaves open get a value) and returns the result with a reference the
// caller must drop. It returns nil on error.
func (m *Model) eval(e Expr) C.Z3_ast {
	c := m.c
	a, ok := c.arg(e)
	if !ok {
		return nil
	}
	if m.m == nil {
		c.fail(errModelClosed)
		return nil
	}
	var out C.Z3_ast
	done := C.Z3_model_eval(c.ctx, m.m, a, true, &out)
	if !c.check("model_eval") {
		return nil
	}
	if !bool(done) || out == nil {
		return nil
	}
	C.Z3_inc_ref(c.ctx, out)
	return out
}

// EvalInt returns the value of x in the model. The boolean is false when
// there is no value that fits in an int64, or on an error (recorded on the
// Context, as a term of another Context).
func (m *Model) EvalInt(x Int) (int64, bool) {
	if m == nil || m.c == nil {
		return 0, false
	}
	out := m.eval(x)
	if out == nil {
		return 0, false
	}
	c := m.c
	defer C.Z3_dec_ref(c.ctx, out)
	if !bool(C.Z3_is_numeral_ast(c.ctx, out)) {
		return 0, false
	}
	var v C.int64_t
	if !bool(C.Z3_get_numeral_int64(c.ctx, out, &v)) {
		return 0, false // does not fit
	}
	if !c.check("get_numeral_int64") {
		return 0, false
	}
	return int64(v), true
}

// EvalBool returns the value of p in the model. The second result is false
// when the model gives no truth value, or on an error (recorded on the
// Context).
func (m *Model) EvalBool(p Bool) (value, ok bool) {
	if m == nil || m.c == nil {
		return false, false
	}
	out := m.eval(p)
	if out == nil {
		return false, false
	}
	c := m.c
	defer C.Z3_dec_ref(c.ctx, out)
	v := C.Z3_get_bool_value(c.ctx, out)
	if !c.check("get_bool_value") {
		return false, false
	}
	switch v {
	case C.Z3_L_TRUE:
		return true, true
	case C.Z3_L_FALSE:
		return false, true
	}
	return false, false
}
