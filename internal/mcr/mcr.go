// Package mcr is the solver side of maximal causality reduction (MCR;
// Huang, "Stateless model checking concurrent programs with maximal
// causality reduction", PLDI 2015): given a trace of an execution and
// target reads with the values they should return, it finds for each
// target a prefix of a new schedule that makes the read return that value,
// or proves there is none. The constraint model is the one summarized in
// section 2 of Yi and Huang, "Concurrency verification with maximal path
// causality" (FSE 2018): an integer order variable O_e per event, program
// order, the edges the trace says to keep, lock mutual exclusion, and the
// data validity constraints, under which every read that runs before the
// target returns the value it returned in the trace. The messages are
// those of rt/wire (MCRQuery, MCRAnswer), whose doc comment states the
// constraints.
//
// The encoding: one Z3 context and solver per query; a variable R for the
// target's order, so that "e is in the prefix" is O_e < R; the constraints
// that do not depend on the target asserted once; and for each target, in
// a pushed scope, R = O_r and the target's read of the asked value. For a
// read of location L under mask m, the candidate writes are the other
// events' writes to L that cover m and wrote the read value under it, so
// the formula grows with reads times matching writes times the writes to
// L, not with every pair of events; terms that program order decides are
// left out. Every atom compares two order variables, so the context runs
// Z3's difference-logic solver (z3.Config.DiffLogic).
//
// The package answers the queries of maximal path causality too (MPC;
// sections 4.2 and 4.3 of the FSE 2018 paper; rt/wire's MPCQuery):
// [SolveMPC] checks path prefixes of a trace, each over its subtrace with
// the trace analysis of MCR, and names the threads of an unsat core.
package mcr

import (
	"fmt"
	"time"

	"interleave.dev/internal/z3"
	"interleave.dev/rt/wire"
)

// DefaultTimeout bounds each target's check when MCRQuery.TimeoutMillis
// is 0.
const DefaultTimeout = 10 * time.Second

// Solve answers q: one result per target, in order, or an Error for the
// whole query when it is malformed or the solver fails. A target the
// solver gives up on (a timeout) has status MCRUnknown and a Reason.
//
// Solve makes its Z3 context on the calling goroutine and closes it before
// returning; see package z3 on threads.
func Solve(q *wire.MCRQuery) *wire.MCRAnswer {
	if q == nil {
		return &wire.MCRAnswer{Error: "mcr: no query"}
	}
	tr, err := analyze(q)
	if err != nil {
		return &wire.MCRAnswer{Error: fmt.Sprintf("mcr: malformed query: %v", err)}
	}
	results, err := solve(tr, q)
	if err != nil {
		return &wire.MCRAnswer{Error: err.Error()}
	}
	return &wire.MCRAnswer{Results: results}
}

// solve checks the targets of q over its analyzed trace tr.
func solve(tr *trace, q *wire.MCRQuery) ([]wire.MCRResult, error) {
	if len(q.Targets) == 0 {
		return nil, nil
	}
	timeout := DefaultTimeout
	if q.TimeoutMillis > 0 {
		timeout = time.Duration(q.TimeoutMillis) * time.Millisecond
	}
	c, err := z3.NewContext(z3.Config{Model: true, Timeout: timeout, DiffLogic: true})
	if err != nil {
		return nil, fmt.Errorf("mcr: making a Z3 context: %w", err)
	}
	defer c.Close()
	x := newEncoder(c, tr)
	if err := c.Err(); err != nil {
		return nil, fmt.Errorf("mcr: encoding the trace: %w", err)
	}
	var deadline time.Time
	if q.BudgetMillis > 0 {
		deadline = time.Now().Add(time.Duration(q.BudgetMillis) * time.Millisecond)
	}
	results := make([]wire.MCRResult, len(q.Targets))
	for i, t := range q.Targets {
		if !deadline.IsZero() && time.Now().After(deadline) {
			results[i] = wire.MCRResult{Status: wire.MCRUnknown, Reason: wire.MCRBudgetOut}
			continue
		}
		r, err := x.solve(t)
		if err != nil {
			return nil, fmt.Errorf("mcr: target %d: %w", i, err)
		}
		results[i] = r
	}
	return results, nil
}
