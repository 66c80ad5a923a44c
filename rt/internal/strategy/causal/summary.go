package causal

import (
	"fmt"
	"strings"
	"time"
)

// Summary says what the search did, for go test -v (strategy.Summarizer).
func (m *MCR) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "MCR: %d runs, %d solver queries for %d reads' new values (%d found, %d infeasible, %d unknown) in %v",
		m.Executions, m.Queries, m.Targets, m.Sat, m.Unsat, m.Unknown, m.SolverTime.Round(time.Millisecond))
	if m.Diverged > 0 {
		fmt.Fprintf(&b, "; %d runs departed from their prefix", m.Diverged)
	}
	if why := m.Incomplete(); len(why) > 0 {
		fmt.Fprintf(&b, "; not complete: %s", strings.Join(why, "; "))
	}
	return b.String()
}

// Summary says what the search did, for go test -v (strategy.Summarizer).
func (m *MPC) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "MPC: %d runs, %d paths, %d solver queries for %d path prefixes (%d feasible, %d infeasible, %d unknown; %d runs extend an unsat core's threads) in %v",
		m.Executions, m.Paths, m.Queries, m.Prefixes, m.Sat, m.Unsat, m.Unknown, m.Extended, m.SolverTime.Round(time.Millisecond))
	if m.ByWorkers > 0 {
		fmt.Fprintf(&b, "; %d runs made by worker processes", m.ByWorkers)
	}
	if m.Diverged > 0 {
		fmt.Fprintf(&b, "; %d runs departed from their prefix", m.Diverged)
	}
	if why := m.Incomplete(); len(why) > 0 {
		fmt.Fprintf(&b, "; not complete: %s", strings.Join(why, "; "))
	}
	return b.String()
}
