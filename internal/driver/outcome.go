package driver

import (
	"fmt"
	"io"
	"strings"

	"interleave.dev/rt/wire"
)

// Exit statuses of the command.
const (
	ExitPass  = 0 // every test passed
	ExitFail  = 1 // a finding or a test failure
	ExitUsage = 2 // usage error, or a package that does not build
)

// Outcome is what a run of Test or Replay observed.
type Outcome struct {
	// GoTestExit is the exit status of go test.
	GoTestExit int
	// BuildFailed reports that some package did not build.
	BuildFailed bool
	// Results are the per-test records the test binaries wrote.
	Results []wire.Result
	// Instrumented and Cached count the units (package variants)
	// instrumented in this run and found in the cache.
	Instrumented, Cached int
	// TimedOut are the test binaries go test's -timeout ended.
	TimedOut []TimedOut
}

// ExitCode maps the outcome to the command's exit status.
func (o *Outcome) ExitCode() int {
	switch {
	case o.BuildFailed || o.GoTestExit == ExitUsage:
		return ExitUsage
	case o.GoTestExit != 0:
		return ExitFail
	}
	for _, r := range o.Results {
		switch r.Outcome {
		case wire.OutcomeFinding, wire.OutcomeDiverged, wire.OutcomeError, wire.OutcomeUnrepeatable:
			return ExitFail
		}
	}
	return ExitPass
}

// WriteSummary writes a one-line summary of the explored tests to w, if the
// test binaries reported any.
func (o *Outcome) WriteSummary(w io.Writer) {
	for _, t := range o.TimedOut {
		running := "no test named as running"
		if len(t.Tests) > 0 {
			running = strings.Join(t.Tests, ", ") + " running"
		}
		pkg := t.Package
		if pkg == "" {
			pkg = "a test binary"
		}
		fmt.Fprintf(w, "interleave: go test's -timeout (%s) ended %s with %s: not explored to its end; -timeout raises it (-budget bounds each test's exploration)\n", t.After, pkg, running)
	}
	if len(o.Results) == 0 {
		return
	}
	var pass, findings, skips, diverged, unrepeatable, other, schedules, exhausted int
	var predicted, confirmed int // the active strategy's predictions
	var unknown int              // strategy mcr's solver queries that gave up
	var noted int                // tests with goroutines that never stop
	var timing int               // tests failed only by a timer fired early (notes)
	var notExplored []string     // tests whose first schedule outlived -budget
	var leftover []string        // tests whose runs leave state outside the process
	for _, r := range o.Results {
		schedules += r.Schedules
		if len(r.Notes) > 0 {
			noted++
		}
		if r.Timing != "" {
			timing++
		}
		if r.MCR != nil {
			unknown += r.MCR.Unknown
		}
		predicted += len(r.Predictions)
		for _, p := range r.Predictions {
			if p.Status == "confirmed" {
				confirmed++
			}
		}
		switch r.Outcome {
		case wire.OutcomePass:
			pass++
			if r.Exhausted {
				exhausted++
			}
		case wire.OutcomeFinding:
			findings++
		case wire.OutcomeSkip:
			skips++
		case wire.OutcomeDiverged:
			diverged++
		case wire.OutcomeUnrepeatable:
			unrepeatable++
		case wire.OutcomeNotExplored:
			if r.Leftover {
				leftover = append(leftover, r.Test)
				break
			}
			notExplored = append(notExplored, r.Test)
		default:
			other++
		}
	}
	parts := []string{fmt.Sprintf("%d passed", pass)}
	if exhausted > 0 {
		parts = append(parts, fmt.Sprintf("%d verified (whole space explored)", exhausted))
	}
	if findings > 0 {
		parts = append(parts, fmt.Sprintf("%d with findings", findings))
	}
	if skips > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", skips))
	}
	if diverged > 0 {
		parts = append(parts, fmt.Sprintf("%d no longer following the schedule", diverged))
	}
	if unrepeatable > 0 {
		parts = append(parts, fmt.Sprintf("%d not safe to run twice in one process", unrepeatable))
	}
	if len(notExplored) > 0 {
		parts = append(parts, fmt.Sprintf("%d not explored, one schedule past -budget or a bound of a schedule (%s; -v names the flag)", len(notExplored), strings.Join(notExplored, ", ")))
	}
	if len(leftover) > 0 {
		parts = append(parts, fmt.Sprintf("%d not explored, a run leaving state outside its process that the next run trips on (%s; -v says what)", len(leftover), strings.Join(leftover, ", ")))
	}
	if other > 0 {
		parts = append(parts, fmt.Sprintf("%d could not be explored", other))
	}
	if noted > 0 {
		parts = append(parts, fmt.Sprintf("%d leaving goroutines that never stop on any schedule (notes under -v; -leaks=all fails them)", noted))
	}
	if timing > 0 {
		parts = append(parts, fmt.Sprintf("%d failing only on schedules that fire a timer early, a timing assumption of the test (notes under -v; -timing=fail fails them)", timing))
	}
	if predicted > 0 {
		parts = append(parts, fmt.Sprintf("%s, %d confirmed", plural(predicted, "prediction"), confirmed))
	}
	if unknown > 0 {
		parts = append(parts, fmt.Sprintf("%s of mcr's solver ran out of time (-solver-timeout)", plural(unknown, "check")))
	}
	fmt.Fprintf(w, "interleave: %s, %s: %s\n", plural(len(o.Results), "test"), plural(schedules, "schedule"), strings.Join(parts, ", "))
}

// plural returns "1 test", "2 tests".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
