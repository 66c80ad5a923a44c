package mcr

import (
	"fmt"
	"time"

	"interleave.dev/internal/z3"
	"interleave.dev/rt/wire"
)

// SolveMPC answers q, the path prefixes of one trace of maximal path
// causality (Yi and Huang, "Concurrency verification with maximal path
// causality", FSE 2018; the model is in the doc comment of rt/wire's
// MPCQuery): one result per prefix, in order, or an Error for the whole
// query when it is malformed or the solver fails.
//
// Each prefix p is solved on its own, as the formula MPC(p) = sync AND pc
// AND dc of section 4.2 over p's subtrace (each thread's events up to its
// last branch in p):
//
//   - a subtrace in which an event must follow one left out (an After
//     edge) is unsat without a check, its core the two threads;
//   - sync: an order variable per event of the subtrace, program order,
//     After edges, and the mutual exclusion of the critical sections
//     whose acquires it holds (one whose release it does not hold keeps
//     the lock to the end);
//   - pc: per thread, its kept branches as they went, the last of a cut
//     negated when the cut says so, under an assumption literal of the
//     thread; terms are over mathematical integers, an input within its
//     range;
//   - dc: each read a condition uses, and each read the symbolic value
//     of a write it may read from uses, transitively, returns the value
//     of the last write to its bytes before it in the subtrace (the
//     symbolic value of the write, or its trace value), or the initial
//     value, and stays within its type's range; the other reads are free.
//
// A sat prefix is answered with the subtrace in the order of the model and
// the inputs (the run's value of an input the formula does not use); an
// unsat one with the threads whose literals are in a minimized unsat
// core, for strategy S2 of section 4.3.2 to extend the prefix along the
// others (empty when sync and dc alone are unsat). Micros is the time of
// the prefix's encoding and check.
//
// SolveMPC makes one Z3 context for the query on the calling goroutine,
// a solver per prefix, and closes them before returning; see package z3
// on threads.
func SolveMPC(q *wire.MPCQuery) *wire.MPCAnswer {
	if q == nil {
		return &wire.MPCAnswer{Error: "mpc: no query"}
	}
	x, err := analyzeMPC(q)
	if err != nil {
		return &wire.MPCAnswer{Error: fmt.Sprintf("mpc: malformed query: %v", err)}
	}
	results, err := x.solve()
	if err != nil {
		return &wire.MPCAnswer{Error: err.Error()}
	}
	return &wire.MPCAnswer{Results: results}
}

// solveAlone checks prefix p in a Z3 context of its own, so that its
// answer depends on the trace and p alone, not on the prefixes checked
// before it (which a context's term numbering and a solver's learned
// clauses would carry over): the answers are the same however a query's
// prefixes are split between solver processes (-workers).
func (x *mpcTrace) solveAlone(p wire.MPCPrefix, timeout time.Duration) (wire.MPCResult, error) {
	// Without DiffLogic: path conditions are arithmetic over inputs and
	// read values, not differences of order variables.
	c, err := z3.NewContext(z3.Config{Model: true, Timeout: timeout, MinimizeCores: true})
	if err != nil {
		return wire.MPCResult{}, fmt.Errorf("making a Z3 context: %w", err)
	}
	defer c.Close()
	return x.solvePrefix(c, p)
}

// solve checks the prefixes of the query.
func (x *mpcTrace) solve() ([]wire.MPCResult, error) {
	q := x.q
	if len(q.Prefixes) == 0 {
		return nil, nil
	}
	timeout := DefaultTimeout
	if q.TimeoutMillis > 0 {
		timeout = time.Duration(q.TimeoutMillis) * time.Millisecond
	}
	var deadline time.Time
	if q.BudgetMillis > 0 {
		deadline = time.Now().Add(time.Duration(q.BudgetMillis) * time.Millisecond)
	}
	results := make([]wire.MPCResult, len(q.Prefixes))
	for i, p := range q.Prefixes {
		if !deadline.IsZero() && time.Now().After(deadline) {
			results[i] = wire.MPCResult{Status: wire.MCRUnknown, Reason: wire.MCRBudgetOut}
			continue
		}
		start := time.Now()
		r, err := x.solveAlone(p, timeout)
		if err != nil {
			return nil, fmt.Errorf("mpc: prefix %d: %w", i, err)
		}
		r.Micros = time.Since(start).Microseconds()
		results[i] = r
	}
	return results, nil
}
