package explore

import (
	"testing"

	"interleave.dev/rt/wire"
)

// A process whose first schedule did not end within the budget does not
// make "not explored" of a split search another process explored; a
// state left outside the process still does.
func TestMergeExploredElsewhere(t *testing.T) {
	p := &pool{}
	pass := &wire.Result{Outcome: wire.OutcomePass, Schedules: 745}
	rep := p.merge(&Report{NotExplored: "the first schedule was still running when the budget of 300ms ran out"}, pass)
	if rep.NotExplored != "" || rep.Schedules != 745 {
		t.Errorf("budget: not explored %q after %d schedules; want explored, 745", rep.NotExplored, rep.Schedules)
	}
	rep = p.merge(&Report{NotExplored: "schedule 3 passed in this process and failed in a fresh one", leftover: true}, pass)
	if rep.NotExplored == "" {
		t.Errorf("leftover state: explored; want not explored")
	}
	none := &wire.Result{Outcome: wire.OutcomeNotExplored}
	rep = p.merge(&Report{NotExplored: "budget"}, none)
	if rep.NotExplored == "" {
		t.Errorf("no process explored: explored; want not explored")
	}
}
