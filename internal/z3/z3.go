// Package z3 is a small binding to the C API of the Z3 SMT solver, holding
// only what the constraint queries of maximal causality reduction (MCR) and
// maximal path causality (MPC) need: integer and Boolean variables and
// constants, linear arithmetic and comparisons, the Boolean connectives, a
// solver with push and pop, checking under assumption literals, unsat cores
// over those literals, and reading integer and Boolean values from a model.
//
// # Building
//
// The package uses cgo and links against Z3's C library (`#cgo LDFLAGS:
// -lz3`), so building or testing it needs the Z3 headers and library
// (Debian and Ubuntu: apt-get install libz3-dev; written against 4.8.12).
//
// # Ownership
//
// A [Context] owns every Z3 object made through it, and [Context.Close]
// releases them all with the Z3 context itself. There are no finalizers
// (they would run on another goroutine, and a Z3 context is not thread
// safe), so a Context that is not closed leaks its C memory.
//
//   - Terms ([Int], [Bool]) are plain values. The Context takes one Z3
//     reference to each distinct term it hands out and drops them all in
//     Close; nothing is released earlier. Z3 returns the same handle for an
//     equal term, so a query that rebuilds the terms of an earlier one (the
//     same variable names, the same constraints) adds nothing, while new
//     terms stay until Close: the memory of a Context grows with the
//     distinct terms made in it.
//   - A [Solver] and a [Model] hold one reference each, released by Close
//     of the Context, or earlier by their own Close, which matters for a
//     Context that serves many queries: an open model of a small MCR query
//     holds about 9 KB, a solver that has checked one about 430 KB.
//
// Using a value after it or its Context was closed is reported as an error
// (below), never a crash.
//
// Costs, measured with Z3 4.8.12 on a 2-core virtual machine: a new
// Context allocates about 17 MB inside Z3 and takes 0.6 to 1.5 ms once the
// C allocator has kept the memory of earlier contexts (about 55 ms for the
// first few in a process), so callers make one Context per batch of
// queries, not per query, and close it when the batch is done. A small
// MCR-shape query (nine events, three threads) costs about 1 ms on a
// long-lived solver with Push and Pop (see the benchmarks).
//
// Z3 keeps variable names in a process-wide table it never frees (about
// 65 bytes a name). Names that repeat across contexts cost nothing, so
// callers name variables after what they stand for (an event's index, an
// input's position) rather than after a counter that keeps growing. Fresh
// variables are named prefix!N with N counting from 0 in each context, so
// they repeat across contexts too.
//
// # Errors
//
// Z3 is told not to abort the process on an error (a no-op error handler is
// installed) and the error code is checked after every call that can fail.
// The first error (a Z3 error such as a sort mismatch, a value from another
// or a closed Context, a zero value) is kept on the Context: constructors
// keep returning values so a formula can be built without checking each
// step, but from then on they do nothing and return invalid values, and
// [Solver.Check], [Solver.CheckAssumptions], [Solver.UnsatCore] and
// [Solver.Model] return the error. [Context.Err] reports it too. A Context
// with an error stays unusable; Close it and make a new one.
//
// # Threading
//
// Z3 contexts are not thread safe. A Context and every value made from it
// (terms, solvers, models) must be used by one goroutine at a time; the
// caller serializes access if it hands them between goroutines. Independent
// Contexts may be used concurrently from different goroutines. Z3 needs no
// particular OS thread, so the package does not lock goroutines to
// threads. (A process that makes many contexts keeps a smaller resident set
// if the goroutine using Z3 is locked to its thread: glibc gives each
// thread its own malloc arena, and calls that move among threads raise the
// high-water mark of several; measured over 2000 contexts, 87 MB unlocked
// against 36 MB locked, flat in both cases once warm.)
package z3

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>

// Z3's default handler prints the error and exits the process; this one
// does nothing, so the failing call returns and the binding reads the error
// code.
static void z3go_ignore_error(Z3_context c, Z3_error_code e) {}

static void z3go_set_error_handler(Z3_context c) {
	Z3_set_error_handler(c, z3go_ignore_error);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"time"
	"unsafe"
)

// Config holds the settings of a new [Context].
type Config struct {
	// Timeout bounds each Check and CheckAssumptions of the Context's
	// solvers; a check that runs out returns Unknown with the reason
	// "timeout" or "canceled". Zero means no limit. It is rounded up to
	// whole milliseconds (Z3's unit).
	Timeout time.Duration
	// Model asks Z3 to produce models of satisfiable checks, so that
	// Solver.Model works. Without it, Solver.Model returns an error.
	Model bool
	// MinimizeCores asks Z3 to shrink each unsat core until no literal can
	// be dropped (its parameter core.minimize), at the cost of extra
	// checks after an Unsat. Without it a core can hold literals the
	// proof happened to use but does not need.
	MinimizeCores bool
	// DiffLogic says that every arithmetic atom of the solvers' formulas
	// compares two variables (x < y, x - y <= c), as MCR's order
	// constraints do. The solvers then use Z3's older arithmetic setup
	// (its parameter arith.solver = 3, where the default is 6), under
	// which Z3 runs a dedicated difference-logic solver instead of its
	// general linear arithmetic one. Measured with Z3 4.8.12 on MCR
	// queries over a trace of 300 events, each target checks 5 to 7
	// times faster. A check of a formula outside difference logic then
	// returns Unknown, with the reason "(incomplete (theory
	// difference-logic))" and a warning Z3 prints on standard error.
	DiffLogic bool
}

// Context is a Z3 context: the owner of every term, solver and model made
// through it. Make one with [NewContext] and release it with
// [Context.Close]. See the package documentation for the ownership,
// error and threading rules.
type Context struct {
	ctx C.Z3_context // nil once closed
	cfg Config
	err error // the first error, sticky

	intSort  C.Z3_sort
	boolSort C.Z3_sort

	// The Z3 references this Context holds, released by Close: one per
	// distinct term handed out, and one per open solver and model.
	terms   map[C.Z3_ast]struct{}
	solvers map[C.Z3_solver]struct{}
	models  map[C.Z3_model]struct{}
}

// ErrClosed is the error recorded when a closed Context, or a value made
// from one, is used.
var ErrClosed = errors.New("z3: context is closed")

// NewContext makes a Z3 context with the given settings.
func NewContext(cfg Config) (*Context, error) {
	zc := C.Z3_mk_config()
	if zc == nil {
		return nil, errors.New("z3: Z3_mk_config failed")
	}
	model := C.CString("model")
	value := C.CString("false")
	if cfg.Model {
		C.free(unsafe.Pointer(value))
		value = C.CString("true")
	}
	C.Z3_set_param_value(zc, model, value)
	C.free(unsafe.Pointer(model))
	C.free(unsafe.Pointer(value))
	ctx := C.Z3_mk_context_rc(zc)
	C.Z3_del_config(zc)
	if ctx == nil {
		return nil, errors.New("z3: Z3_mk_context_rc failed")
	}
	C.z3go_set_error_handler(ctx)
	c := &Context{
		ctx:     ctx,
		cfg:     cfg,
		terms:   make(map[C.Z3_ast]struct{}),
		solvers: make(map[C.Z3_solver]struct{}),
		models:  make(map[C.Z3_model]struct{}),
	}
	c.intSort = c.sort(C.Z3_mk_int_sort(ctx))
	c.boolSort = c.sort(C.Z3_mk_bool_sort(ctx))
	if c.err != nil {
		err := c.err
		c.Close()
		return nil, err
	}
	return c, nil
}

// Close releases every Z3 object of the Context and the context itself.
// Closing twice does nothing.
func (c *Context) Close() {
	if c.ctx == nil {
		return
	}
	for m := range c.models {
		C.Z3_model_dec_ref(c.ctx, m)
	}
	for s := range c.solvers {
		C.Z3_solver_dec_ref(c.ctx, s)
	}
	for a := range c.terms {
		C.Z3_dec_ref(c.ctx, a)
	}
	C.Z3_del_context(c.ctx)
	c.ctx = nil
	c.terms, c.solvers, c.models = nil, nil, nil
	c.intSort, c.boolSort = nil, nil
}

// Err returns the first error of the Context, or nil. After Close it
// returns ErrClosed if there was no earlier error.
func (c *Context) Err() error {
	if c.err == nil && c.ctx == nil {
		return ErrClosed
	}
	return c.err
}

// usable reports whether the Context can make Z3 calls, recording
// ErrClosed when it was closed.
func (c *Context) usable() bool {
	if c.err != nil {
		return false
	}
	if c.ctx == nil {
		c.err = ErrClosed
		return false
	}
	return true
}

// fail records err unless an error is already recorded.
func (c *Context) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// zerr returns the error of the last Z3 call, or nil.
func (c *Context) zerr(call string) error {
	code := C.Z3_get_error_code(c.ctx)
	if code == C.Z3_OK {
		return nil
	}
	return fmt.Errorf("z3: %s: %s", call, C.GoString(C.Z3_get_error_msg(c.ctx, code)))
}

// check records the error of the last Z3 call, if any, and reports whether
// there was none.
func (c *Context) check(call string) bool {
	if err := c.zerr(call); err != nil {
		c.fail(err)
		return false
	}
	return true
}

// keep checks the result of a call that made a term and makes sure the
// Context holds a reference to it (one per distinct term: Z3 returns the
// same handle for an equal term). It returns nil on error.
func (c *Context) keep(call string, a C.Z3_ast) C.Z3_ast {
	if !c.check(call) {
		return nil
	}
	if a == nil {
		c.fail(fmt.Errorf("z3: %s returned no term", call))
		return nil
	}
	if _, held := c.terms[a]; !held {
		C.Z3_inc_ref(c.ctx, a)
		c.terms[a] = struct{}{}
	}
	return a
}

// sort keeps a sort alive for the life of the Context.
func (c *Context) sort(s C.Z3_sort) C.Z3_sort {
	if !c.check("mk sort") {
		return nil
	}
	if c.keep("sort_to_ast", C.Z3_sort_to_ast(c.ctx, s)) == nil {
		return nil
	}
	return s
}

// Expr is a term of either sort: an [Int] or a [Bool].
type Expr interface {
	term() (*Context, C.Z3_ast)
}

// Int is an integer term of a Context (a variable, a constant or an
// arithmetic expression). The zero Int is invalid.
type Int struct {
	c *Context
	a C.Z3_ast
}

// Bool is a Boolean term of a Context. The zero Bool is invalid.
type Bool struct {
	c *Context
	a C.Z3_ast
}

func (x Int) term() (*Context, C.Z3_ast)  { return x.c, x.a }
func (x Bool) term() (*Context, C.Z3_ast) { return x.c, x.a }

// arg returns the Z3 term of e for use in c, recording an error when e is
// not a valid term of c.
func (c *Context) arg(e Expr) (C.Z3_ast, bool) {
	if !c.usable() {
		return nil, false
	}
	if e == nil {
		c.fail(errors.New("z3: nil Expr used as a term"))
		return nil, false
	}
	owner, a := e.term()
	switch {
	case owner == nil:
		c.fail(fmt.Errorf("z3: zero %T used as a term", e))
		return nil, false
	case owner != c:
		c.fail(fmt.Errorf("z3: %T of another context used", e))
		return nil, false
	case a == nil:
		// Only made after an error, which is sticky, so this is not
		// reached; kept as a guard against passing nil to Z3.
		c.fail(fmt.Errorf("z3: invalid %T used", e))
		return nil, false
	}
	return a, true
}

// args returns the Z3 terms of es for use in c.
func (c *Context) args(es []Expr) ([]C.Z3_ast, bool) {
	out := make([]C.Z3_ast, len(es))
	for i, e := range es {
		a, ok := c.arg(e)
		if !ok {
			return nil, false
		}
		out[i] = a
	}
	return out, true
}

func ints(xs []Int) []Expr {
	es := make([]Expr, len(xs))
	for i, x := range xs {
		es[i] = x
	}
	return es
}

func bools(ps []Bool) []Expr {
	es := make([]Expr, len(ps))
	for i, p := range ps {
		es[i] = p
	}
	return es
}

// symbol makes a Z3 symbol of name; Z3 copies the string.
func (c *Context) symbol(name string) C.Z3_symbol {
	s := C.CString(name)
	defer C.free(unsafe.Pointer(s))
	return C.Z3_mk_string_symbol(c.ctx, s)
}

func (c *Context) mkConst(name string, sort C.Z3_sort) C.Z3_ast {
	if !c.usable() {
		return nil
	}
	return c.keep("mk_const", C.Z3_mk_const(c.ctx, c.symbol(name), sort))
}

func (c *Context) mkFresh(prefix string, sort C.Z3_sort) C.Z3_ast {
	if !c.usable() {
		return nil
	}
	p := C.CString(prefix)
	defer C.free(unsafe.Pointer(p))
	return c.keep("mk_fresh_const", C.Z3_mk_fresh_const(c.ctx, p, sort))
}

// IntVal returns the integer constant v.
func (c *Context) IntVal(v int64) Int {
	if !c.usable() {
		return Int{c, nil}
	}
	return Int{c, c.keep("mk_int64", C.Z3_mk_int64(c.ctx, C.int64_t(v), c.intSort))}
}

// UintVal returns the integer constant v, for the unsigned values above
// the int64 range (a uint64 read from memory, the bound of its type).
func (c *Context) UintVal(v uint64) Int {
	if !c.usable() {
		return Int{c, nil}
	}
	return Int{c, c.keep("mk_unsigned_int64", C.Z3_mk_unsigned_int64(c.ctx, C.uint64_t(v), c.intSort))}
}

// IntVar returns the integer variable called name. The same name gives the
// same variable.
func (c *Context) IntVar(name string) Int {
	return Int{c, c.mkConst(name, c.intSort)}
}

// FreshInt returns a new integer variable, distinct from every other
// variable, whose name starts with prefix.
func (c *Context) FreshInt(prefix string) Int {
	return Int{c, c.mkFresh(prefix, c.intSort)}
}

// BoolVar returns the Boolean variable called name. The same name gives
// the same variable.
func (c *Context) BoolVar(name string) Bool {
	return Bool{c, c.mkConst(name, c.boolSort)}
}

// FreshBool returns a new Boolean variable, distinct from every other
// variable, whose name starts with prefix. Fresh Booleans make good
// assumption literals for [Solver.CheckAssumptions].
func (c *Context) FreshBool(prefix string) Bool {
	return Bool{c, c.mkFresh(prefix, c.boolSort)}
}

// True returns the Boolean constant true.
func (c *Context) True() Bool {
	if !c.usable() {
		return Bool{c, nil}
	}
	return Bool{c, c.keep("mk_true", C.Z3_mk_true(c.ctx))}
}

// False returns the Boolean constant false.
func (c *Context) False() Bool {
	if !c.usable() {
		return Bool{c, nil}
	}
	return Bool{c, c.keep("mk_false", C.Z3_mk_false(c.ctx))}
}

// nary applies a Z3 n-ary constructor to es.
func (c *Context) nary(call string, mk func(C.Z3_context, C.uint, *C.Z3_ast) C.Z3_ast, es []Expr) C.Z3_ast {
	as, ok := c.args(es)
	if !ok {
		return nil
	}
	return c.keep(call, mk(c.ctx, C.uint(len(as)), &as[0]))
}

// unary applies a Z3 one-argument constructor to a.
func (c *Context) unary(call string, mk func(C.Z3_context, C.Z3_ast) C.Z3_ast, a Expr) C.Z3_ast {
	x, ok := c.arg(a)
	if !ok {
		return nil
	}
	return c.keep(call, mk(c.ctx, x))
}

// binary applies a Z3 two-argument constructor to a and b.
func (c *Context) binary(call string, mk func(C.Z3_context, C.Z3_ast, C.Z3_ast) C.Z3_ast, a, b Expr) C.Z3_ast {
	as, ok := c.args([]Expr{a, b})
	if !ok {
		return nil
	}
	return c.keep(call, mk(c.ctx, as[0], as[1]))
}

// The Z3 constructors as Go functions (cgo functions are not values).
func mkAdd(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast      { return C.Z3_mk_add(c, n, a) }
func mkMul(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast      { return C.Z3_mk_mul(c, n, a) }
func mkAnd(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast      { return C.Z3_mk_and(c, n, a) }
func mkOr(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast       { return C.Z3_mk_or(c, n, a) }
func mkDistinct(c C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_distinct(c, n, a) }
func mkNot(c C.Z3_context, a C.Z3_ast) C.Z3_ast                 { return C.Z3_mk_not(c, a) }
func mkLt(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast               { return C.Z3_mk_lt(c, a, b) }
func mkLe(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast               { return C.Z3_mk_le(c, a, b) }
func mkGt(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast               { return C.Z3_mk_gt(c, a, b) }
func mkGe(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast               { return C.Z3_mk_ge(c, a, b) }
func mkEq(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast               { return C.Z3_mk_eq(c, a, b) }
func mkImplies(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast          { return C.Z3_mk_implies(c, a, b) }

// mkSub makes a - b (Z3_mk_sub takes an array).
func mkSub(c C.Z3_context, a, b C.Z3_ast) C.Z3_ast {
	as := [2]C.Z3_ast{a, b}
	return C.Z3_mk_sub(c, 2, &as[0])
}

// Add returns the sum of xs; 0 when there are none.
func (c *Context) Add(xs ...Int) Int {
	switch len(xs) {
	case 0:
		return c.IntVal(0)
	case 1:
		return c.one(xs[0])
	}
	return Int{c, c.nary("mk_add", mkAdd, ints(xs))}
}

// one returns x itself, checked as a term of c: the sum or product of one
// term.
func (c *Context) one(x Int) Int {
	if _, ok := c.arg(x); !ok {
		return Int{c, nil}
	}
	return x
}

// Sub returns a - b.
func (c *Context) Sub(a, b Int) Int {
	return Int{c, c.binary("mk_sub", mkSub, a, b)}
}

// Mul returns the product of xs; 1 when there are none. Products of two or
// more variables are nonlinear, which Z3 handles but can make a query much
// harder; multiplying by a constant ([Context.IntVal]) keeps it linear.
func (c *Context) Mul(xs ...Int) Int {
	switch len(xs) {
	case 0:
		return c.IntVal(1)
	case 1:
		return c.one(xs[0])
	}
	return Int{c, c.nary("mk_mul", mkMul, ints(xs))}
}

// Ite returns the integer term "if cond then a else b".
func (c *Context) Ite(cond Bool, a, b Int) Int {
	as, ok := c.args([]Expr{cond, a, b})
	if !ok {
		return Int{c, nil}
	}
	return Int{c, c.keep("mk_ite", C.Z3_mk_ite(c.ctx, as[0], as[1], as[2]))}
}

// Lt returns a < b.
func (c *Context) Lt(a, b Int) Bool { return Bool{c, c.binary("mk_lt", mkLt, a, b)} }

// Le returns a <= b.
func (c *Context) Le(a, b Int) Bool { return Bool{c, c.binary("mk_le", mkLe, a, b)} }

// Gt returns a > b.
func (c *Context) Gt(a, b Int) Bool { return Bool{c, c.binary("mk_gt", mkGt, a, b)} }

// Ge returns a >= b.
func (c *Context) Ge(a, b Int) Bool { return Bool{c, c.binary("mk_ge", mkGe, a, b)} }

// Eq returns a = b. Both must have the same sort (two Ints, or two Bools,
// where it means "if and only if"); a sort mismatch is an error of the
// Context.
func (c *Context) Eq(a, b Expr) Bool { return Bool{c, c.binary("mk_eq", mkEq, a, b)} }

// Distinct returns the term saying that es are pairwise different; true
// when there are fewer than two. All must have the same sort.
func (c *Context) Distinct(es ...Expr) Bool {
	if len(es) < 2 {
		if _, ok := c.args(es); !ok {
			return Bool{c, nil}
		}
		return c.True()
	}
	return Bool{c, c.nary("mk_distinct", mkDistinct, es)}
}

// And returns the conjunction of ps; true when there are none.
func (c *Context) And(ps ...Bool) Bool {
	if len(ps) == 0 {
		return c.True()
	}
	return Bool{c, c.nary("mk_and", mkAnd, bools(ps))}
}

// Or returns the disjunction of ps; false when there are none.
func (c *Context) Or(ps ...Bool) Bool {
	if len(ps) == 0 {
		return c.False()
	}
	return Bool{c, c.nary("mk_or", mkOr, bools(ps))}
}

// Not returns the negation of p.
func (c *Context) Not(p Bool) Bool { return Bool{c, c.unary("mk_not", mkNot, p)} }

// Implies returns p => q.
func (c *Context) Implies(p, q Bool) Bool {
	return Bool{c, c.binary("mk_implies", mkImplies, p, q)}
}
