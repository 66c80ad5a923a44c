package bench

import (
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"os/exec"
	"testing"
	"time"

	"interleave.dev/internal/driver"
	"interleave.dev/internal/instrument"
	"interleave.dev/rt/wire"
)

// instrumentFile is the instrumenter of "interleave test".
func instrumentFile(fset *token.FileSet, f *ast.File, pkg *types.Package, info *types.Info, filename string) ([]byte, []driver.Warning, error) {
	src, warns, err := instrument.File(fset, f, pkg, info, filename, instrument.Options{RuntimeImport: driver.RuntimeImport})
	out := make([]driver.Warning, len(warns))
	for i, w := range warns {
		out[i] = driver.Warning{Pos: w.Pos, Msg: w.Msg}
	}
	return src, out, err
}

// TestRealKernel builds one kernel's buggy and fixed twins through the
// driver, runs them under random and dfs, and checks the rows: the double
// lock is found by every run, the fixed twin never gets a finding, and dfs
// covers the fixed twin's whole (small) space.
func TestRealKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs instrumented test binaries")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	k, err := LoadKernel(suiteDir + "/double-lock-callchain")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Strategies: []string{"random", "dfs"},
		Seeds:      2,
		Schedules:  300,
		Budget:     30 * time.Second,
		Parallel:   1,
		Variants:   []string{Buggy, Fixed},
	}
	b := &DriverBuilder{Instrument: instrumentFile, GoFlags: []string{"-p=1"}}
	runs, err := Execute(context.Background(), cfg, []*Kernel{k}, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 6 {
		t.Fatalf("%d runs, want 6 (2 variants x (2 random seeds + 1 dfs))", len(runs))
	}
	for _, r := range runs {
		if r.Outcome == OutcomeError {
			t.Fatalf("%s/%s %s seed %d failed: %s", r.Kernel, r.Variant, r.Strategy, r.Seed, r.Message)
		}
	}
	rows := Aggregate([]*Kernel{k}, runs)
	for _, row := range rows {
		switch row.Variant {
		case Buggy:
			if row.Detected != row.Runs || row.Findings["deadlock"] != row.Runs {
				t.Errorf("buggy/%s: detected %d/%d, findings %v; want every run to find the deadlock", row.Strategy, row.Detected, row.Runs, row.Findings)
			}
			if row.ToDetection.Min < 1 || row.ToDetection.Max > 300 {
				t.Errorf("buggy/%s: schedules to detection %+v out of the budget", row.Strategy, row.ToDetection)
			}
		case Fixed:
			if row.FalseReports != 0 || len(row.Findings) != 0 {
				t.Errorf("fixed/%s: false reports %d, findings %v", row.Strategy, row.FalseReports, row.Findings)
			}
			if row.Strategy == "dfs" && row.Exhausted != 1 {
				t.Errorf("fixed/dfs: the search did not cover the space: %+v", row)
			}
		}
	}
	for _, r := range runs {
		if r.Variant == Fixed && r.Strategy == "random" && (r.Outcome != wire.OutcomePass || r.Schedules != 300) {
			t.Errorf("fixed/random seed %d: %s after %d schedules, want a pass after the whole budget", r.Seed, r.Outcome, r.Schedules)
		}
	}
}
