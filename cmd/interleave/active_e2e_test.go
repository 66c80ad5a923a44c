package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

// TestActiveStrategyEndToEnd runs -strategy active -v on a narrow-window
// kernel of the suite: the buggy variant's finding names the prediction it
// confirms, the -v output lists the predictions, the result records carry
// them, and the fixed twin passes.
func TestActiveStrategyEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a kernel")
	}
	dir := kernelsDir(t)
	var stdout, stderr bytes.Buffer
	out, err := driver.Test(context.Background(), driver.Options{
		Dir:        dir,
		Patterns:   []string{"./narrow-transfer-abba/..."},
		GoFlags:    []string{"-v"},
		Config:     wire.Config{Strategy: "active", Seed: 1},
		Instrument: instrumentFile,
		Stdout:     &stdout,
		Stderr:     &stderr,
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if out.ExitCode() != driver.ExitFail {
		t.Fatalf("exit %d, want 1\n%s", out.ExitCode(), stdout.String())
	}
	for _, s := range []string{
		"interleave: active testing predicted 1 potential bugs",
		"[confirmed, 1 directed schedules] lock-order cycle: 2 goroutines, each holding the lock taken at bank.go:16, Lock at bank.go:18",
		"interleave: deadlock after 6 schedules (strategy active, seed 1)",
		"This schedule confirms prediction 1 of 1 (active testing): lock-order cycle",
		"interleave: active testing predicted no potential bug from its observed runs",
	} {
		if !strings.Contains(stdout.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, stdout.String())
		}
	}
	var buggy, fixed *wire.Result
	for i, r := range out.Results {
		switch r.Outcome {
		case wire.OutcomeFinding:
			buggy = &out.Results[i]
		case wire.OutcomePass:
			fixed = &out.Results[i]
		}
	}
	if buggy == nil || buggy.Outcome != wire.OutcomeFinding || len(buggy.Predictions) != 1 || buggy.Predictions[0].Status != "confirmed" || buggy.Predictions[0].Kind != "deadlock" {
		t.Errorf("buggy result %+v", buggy)
	}
	// With nothing predicted, observed runs go on until the budget (the
	// default 1000 schedules).
	if fixed == nil || fixed.Outcome != wire.OutcomePass || len(fixed.Predictions) != 0 || fixed.Schedules != 1000 {
		t.Errorf("fixed result %+v", fixed)
	}
}
