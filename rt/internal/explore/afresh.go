package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// A test that leaves state behind (a package-level breaker, a closed
// package channel, a registry) fails on a later schedule for a reason no
// single run of it has; its finding does not reproduce alone
// (confirm.go). Such a test is explored anyway, in fresh processes:
// a strategy whose schedule i is a function of the seed and i runs its
// schedules in batches, each batch in a process of its own, the batch
// smaller than the run of schedules that left the state its finding
// needed, and halved when a batch's finding does not reproduce alone
// either; any other strategy runs its whole search once in a fresh
// process that runs this test only. A finding found so reproduces alone:
// it is reported, as any other.

// afresh is how a test was explored in fresh processes.
type afresh struct {
	rep       *Report
	processes int
	batch     int    // schedules per process (0: the whole search in one)
	why       string // why a finding of it is still not reproduced alone ("": none)
}

// exploreAfresh explores the test t, whose finding rep did not reproduce
// alone after the schedules (or the explorations of other tests, before)
// that ran before it in this process, in fresh processes.
func exploreAfresh(t *testing.T, cfg wire.Config, spec *strategies.Spec, rep *Report, before []string) (*afresh, error) {
	dir, err := os.MkdirTemp("", "interleave-afresh-")
	if err != nil {
		return nil, fmt.Errorf("interleave: exploring afresh: %w", err)
	}
	defer os.RemoveAll(dir)
	child := cfg
	child.Afresh, child.Worker, child.Workers, child.Shard, child.Progress = true, "", 0, "", ""
	child.LeakKeys = nil // the first fresh process's schedule 1 is the reference
	a := &afresh{}
	var notes []string // what every schedule left behind, from the first fresh process
	run := func(from, upto int) (*Report, error) {
		a.processes++
		c := child
		c.From, c.Upto = from, upto
		c.Results = filepath.Join(dir, fmt.Sprintf("results%d.jsonl", a.processes))
		c.Report = filepath.Join(dir, fmt.Sprintf("report%d.txt", a.processes))
		r, why := runAlone(t, c)
		if why != "" {
			return nil, fmt.Errorf("interleave: exploring %s afresh: %s", t.Name(), why)
		}
		if a.processes == 1 {
			child.LeakKeys, notes = r.LeakKeys, r.Notes
		}
		return childReport(t.Name(), &r, c.Report), nil
	}
	if spec.Workers != strategies.SplitNumbers {
		// The search in one fresh process that runs this test only.
		r, err := run(0, 0)
		if err != nil {
			return nil, err
		}
		a.rep = r
		if leftover(r, rep, before) {
			a.rep = leftoverReport(r, rep)
			return a, nil
		}
		if r.Kind != "" && r.Diverged == "" && replayable(r.Kind) {
			if c, why := confirm(t, cfg, r); c == notReproduced {
				a.why = "its own schedules, in one fresh process, leave state behind that a later one sees, and its search cannot be split between processes"
				if why == replaysDiffer {
					a.why = why
				}
			}
		}
		return a, nil
	}
	limit := schedulesOf(cfg)
	a.batch = max(1, rep.Schedules-1)
	if rep.Schedules == 1 && len(before) > 0 {
		a.batch = limit // what earlier tests left: this test alone in a process
	}
	var deadline time.Time
	if cfg.Budget > 0 {
		deadline = time.Now().Add(time.Duration(cfg.Budget))
	}
	total := 0
	for from := 1; from <= limit; {
		if !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		upto := min(limit, from+a.batch-1)
		r, err := run(from, upto)
		if err != nil {
			return nil, err
		}
		if r.Kind == "" || r.Diverged != "" || !replayable(r.Kind) {
			total += r.Schedules
			if r.Kind != "" || r.Diverged != "" || r.Skipped || r.NotExplored != "" {
				r.Schedules = total
				a.rep = r
				return a, nil
			}
			from = upto + 1
			continue
		}
		if leftover(r, rep, before) {
			a.rep = leftoverReport(r, rep)
			return a, nil
		}
		c, why := confirm(t, cfg, r)
		if c != notReproduced {
			a.rep = r
			return a, nil
		}
		removeFinding(r.Path)
		if a.batch == 1 {
			// One schedule per process, and its finding passes when
			// replayed alone: the program does something the tool does
			// not control.
			a.rep, a.why = r, replaysDiffer
			if why != replaysDiffer {
				a.why = "a schedule run alone in a fresh process fails, and passes when replayed alone in another"
			}
			return a, nil
		}
		// Some schedules of the batch before its finding left state it
		// needed: the same schedules again, in smaller batches.
		a.batch = max(1, (r.Schedules-from)/2)
	}
	a.rep = &Report{Test: t.Name(), Strategy: rep.Strategy, Seed: rep.Seed, Schedules: total, Notes: notes}
	return a, nil
}

// leftover reports whether the fresh process's finding r came at a
// schedule that passed in this process, where rep is what this process
// found and no other test ran before it here: the same schedule, from
// the same clean process state, failed in a fresh process while this one
// lived. What this process did then reaches beyond it (a listener left
// on a fixed port, a file), and no process can run the test twice: not
// the interleaving's doing. (After other tests, the schedule may have
// passed here only thanks to what they left: the fresh failure is then
// reported as any finding.) A schedule whose failure this process kept as
// a timing note did not pass here: a fresh process that finds the failure
// needs no stall (stallFree) shows no state left behind.
func leftover(r, rep *Report, before []string) bool {
	return len(before) == 0 && r.Kind != "" && r.Diverged == "" && r.Schedules < rep.Schedules &&
		(rep.timingAt == 0 || rep.timingAt > r.Schedules)
}

// leftoverReport is the report of a test that leftover says cannot be
// explored: not explored, not a finding.
func leftoverReport(r, rep *Report) *Report {
	first, _, _ := strings.Cut(r.Message, "\n")
	return &Report{
		Test: rep.Test, Strategy: rep.Strategy, Seed: rep.Seed, Schedules: rep.Schedules, Elapsed: rep.Elapsed,
		NotExplored: fmt.Sprintf("schedule %d passed in this process and failed in a fresh one while this one lived (%s: %s): a run of the test leaves state outside its process, such as a listener on a fixed port or a file, that the next run trips on, as go test -count=2 does", r.Schedules, r.Kind, first),
		leftover:    true,
	}
}

// firstAfresh runs schedule 1 of the test t alone in a fresh process and
// returns what it found, or nil if it could not run it.
func firstAfresh(t *testing.T, cfg wire.Config) *Report {
	dir, err := os.MkdirTemp("", "interleave-afresh-")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(dir)
	c := cfg
	c.Afresh, c.Worker, c.Workers, c.Shard, c.Progress, c.LeakKeys = true, "", 0, "", "", nil
	c.From, c.Upto = 1, 1
	c.Results, c.Report = filepath.Join(dir, "results.jsonl"), filepath.Join(dir, "report.txt")
	r, why := runAlone(t, c)
	if why != "" {
		return nil
	}
	return childReport(t.Name(), &r, c.Report)
}

// childReport makes the report of a fresh process's result r, whose
// report text, for a finding, is in the file text.
func childReport(test string, r *wire.Result, text string) *Report {
	rep := &Report{
		Test: test, Strategy: r.Strategy, Seed: r.Seed, Schedules: r.Schedules, Exhausted: r.Exhausted,
		Kind: r.Kind, Message: r.Message, Path: r.Schedule, EventHash: r.EventHash,
		Regress: r.Regress, Predictions: r.Predictions, MCR: r.MCR, Notes: r.Notes, Timing: r.Timing,
		Elapsed: time.Duration(r.Seconds * float64(time.Second)),
	}
	switch r.Outcome {
	case wire.OutcomeDiverged:
		rep.Diverged, rep.Kind = r.Message, ""
	case wire.OutcomeSkip:
		rep.Skipped = true
	case wire.OutcomeNotExplored:
		rep.NotExplored = r.Message
	}
	if r.Schedule != "" {
		rep.View = viewPath(r.Schedule)
		if s, err := wire.ReadSchedule(r.Schedule); err == nil {
			rep.Schedule = s
		}
	}
	if rep.Kind != "" {
		if b, err := os.ReadFile(text); err == nil {
			rep.Text = string(b)
		} else {
			rep.Text = fmt.Sprintf("interleave: %s: %s", r.Kind, r.Message)
		}
	}
	return rep
}

// describe says, for go test -v and above a finding's report, how the
// test was explored and why, rep being what it found.
func (a *afresh) describe(rep *Report, before []string) string {
	why := "it leaves state behind that a later schedule sees"
	if rep != nil && rep.Schedules > 0 && a.batch == 0 && len(before) > 0 {
		why = "it fails after the explorations of " + strings.Join(before, ", ") + " in one process and not alone"
	}
	switch {
	case a.batch == 0:
		return fmt.Sprintf("explored afresh, in a process that runs this test only: %s", why)
	case a.processes == 1:
		return fmt.Sprintf("explored afresh, in one fresh process: %s", why)
	}
	per := fmt.Sprintf("%d schedules", a.batch)
	if a.batch == 1 {
		per = "1 schedule"
	}
	return fmt.Sprintf("explored afresh, at most %s in each of %d fresh processes: %s", per, a.processes, why)
}
