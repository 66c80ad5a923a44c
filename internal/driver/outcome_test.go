package driver

import (
	"bytes"
	"testing"

	"interleave.dev/rt/wire"
)

// TestSummaryCountsPredictions: the summary line adds the active
// strategy's predictions, and how many were confirmed, when there are any.
func TestSummaryCountsPredictions(t *testing.T) {
	o := &Outcome{Results: []wire.Result{
		{Test: "TestA", Outcome: wire.OutcomeFinding, Schedules: 6, Predictions: []wire.Prediction{{Status: "confirmed"}, {Status: "not tried"}}},
		{Test: "TestB", Outcome: wire.OutcomePass, Schedules: 105, Predictions: []wire.Prediction{{Status: "unconfirmed"}}},
		{Test: "TestC", Outcome: wire.OutcomePass, Schedules: 5},
	}}
	var b bytes.Buffer
	o.WriteSummary(&b)
	if want := "interleave: 3 tests, 116 schedules: 2 passed, 1 with findings, 3 predictions, 1 confirmed\n"; b.String() != want {
		t.Errorf("summary %q, want %q", b.String(), want)
	}
	o.Results = o.Results[2:]
	b.Reset()
	o.WriteSummary(&b)
	if want := "interleave: 1 test, 5 schedules: 1 passed\n"; b.String() != want {
		t.Errorf("summary %q, want %q", b.String(), want)
	}
}

// TestSummaryCountsUnknownQueries: a check of mcr's solver that ran out of
// time is never dropped silently: the summary line counts them.
func TestSummaryCountsUnknownQueries(t *testing.T) {
	o := &Outcome{Results: []wire.Result{
		{Test: "TestA", Outcome: wire.OutcomePass, Schedules: 7, MCR: &wire.MCRStats{Queries: 7, Targets: 40, Sat: 30, Unsat: 8, Unknown: 2}},
		{Test: "TestB", Outcome: wire.OutcomePass, Schedules: 3, Exhausted: true, MCR: &wire.MCRStats{Queries: 3, Targets: 4, Sat: 2, Unsat: 2}},
	}}
	var b bytes.Buffer
	o.WriteSummary(&b)
	if want := "interleave: 2 tests, 10 schedules: 2 passed, 1 verified (whole space explored), 2 checks of mcr's solver ran out of time (-solver-timeout)\n"; b.String() != want {
		t.Errorf("summary %q, want %q", b.String(), want)
	}
}
