package explore

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"interleave.dev/rt/wire"
)

// Schedules run one after another in one process, so a test that leaves
// state behind (a closed package-level channel, a counter never reset) can
// fail on a later schedule for a reason no single run of it has. Before a
// finding is reported, the test binary confirms it: it re-executes itself,
// running only this test, with a configuration that replays the finding's
// schedule. One extra process per finding, none for passing tests; the
// child's output is not shown, so go test's output (and -json) stream as
// before.

// initialDir is the working directory the test binary started in (go test
// runs it in the package directory); a test may change directory before a
// finding is confirmed.
var initialDir, _ = os.Getwd()

// explored names the explorations this process ran, in order, so that a
// finding that does not reproduce alone can say what ran before it.
var explored []string

// confirmation is what replaying a finding in a fresh process showed.
type confirmation int

const (
	reproduced    confirmation = iota // the replay ended in a finding too
	notReproduced                     // the replay passed: the test leaves state behind
	unconfirmed                       // the replay could not tell (diverged, crashed)
)

// confirm replays rep's schedule in a fresh test process. When it does
// not reproduce the finding, a second fresh process tells a test that
// behaves differently after earlier runs in its process (both replays run
// the same events) from one that also depends on something the tool does
// not control (they differ, and the detail is replaysDiffer). A finding
// that neither fresh process reproduced is not reported as one either
// way. detail says why a finding is unconfirmed.
func confirm(t *testing.T, cfg wire.Config, rep *Report) (confirmation, string) {
	dir, err := os.MkdirTemp("", "interleave-confirm-")
	if err != nil {
		return unconfirmed, fmt.Sprintf("creating a directory: %v", err)
	}
	defer os.RemoveAll(dir)
	path := rep.Path
	if path == "" { // no schedule directory: write the file for the child only
		path = filepath.Join(dir, "schedule.json")
		if err := wire.WriteSchedule(path, rep.Schedule); err != nil {
			return unconfirmed, err.Error()
		}
	}
	var first wire.Result
	for i := 0; i < 2; i++ {
		r, why := replayAlone(t, cfg, path, filepath.Join(dir, fmt.Sprintf("results%d.jsonl", i)))
		switch {
		case why != "":
			return unconfirmed, why
		case r.Outcome == wire.OutcomeFinding:
			if i > 0 {
				return unconfirmed, "the schedule does not replay the same way twice in fresh processes: the test depends on something the tool does not control (map iteration order, real I/O)"
			}
			return reproduced, ""
		case r.Outcome != wire.OutcomePass && r.Outcome != wire.OutcomeDiverged:
			return unconfirmed, fmt.Sprintf("the replay ended %s: %s", r.Outcome, r.Message)
		case i == 0:
			first = r
		case r.EventHash == "" || r.EventHash != first.EventHash:
			return notReproduced, replaysDiffer
		}
	}
	return notReproduced, ""
}

// replaysDiffer is confirm's detail for a finding that two fresh replays
// did not reproduce, and that ran differently from each other.
const replaysDiffer = "the replays differ"

// replayAlone runs the test binary again, running only t's test, once,
// replaying the schedule file at path, and returns the test's result. why
// says what went wrong when there is none.
func replayAlone(t *testing.T, cfg wire.Config, path, results string) (r wire.Result, why string) {
	return runAlone(t, wire.Config{
		Strategy:   "replay",
		Replay:     path,
		Results:    results,
		Package:    cfg.Package,
		StuckAfter: cfg.StuckAfter,
	})
}

// runAlone runs the test binary again, running only t's test, once, with
// the configuration child, and returns the test's result, which it writes
// to child.Results. why says what went wrong when there is none.
func runAlone(t *testing.T, child wire.Config) (r wire.Result, why string) {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, exe, childArgs(flag.CommandLine, t.Name())...)
	cmd.Dir = initialDir
	cmd.Env = append(os.Environ(), wire.ConfigEnv+"="+child.Encode())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 10 * time.Second
	runErr := cmd.Run()
	rs, err := wire.ReadResults(child.Results)
	for _, r := range rs {
		if r.Test == t.Name() {
			return r, ""
		}
	}
	why = "it reported nothing"
	switch {
	case runErr != nil:
		why = runErr.Error()
	case err != nil && !os.IsNotExist(err):
		why = err.Error()
	}
	return r, fmt.Sprintf("the test process %s exited (%s):\n%s", filepath.Base(exe), why, tail(out.String(), 20))
}

// forwardedTestFlags are the testing flags the replaying process keeps;
// the others select, repeat, profile or format tests, which the replay
// decides for itself.
var forwardedTestFlags = map[string]bool{
	"test.short": true, "test.timeout": true, "test.paniconexit0": true,
	"test.fullpath": true, "test.parallel": true,
}

// childArgs returns the arguments that re-execute this test binary to run
// only the named test, once, with the flags this run was given in fs (the
// package's own flags too, which its tests may read).
func childArgs(fs *flag.FlagSet, name string) []string {
	var args []string
	if fs.Parsed() {
		fs.Visit(func(f *flag.Flag) {
			if strings.HasPrefix(f.Name, "test.") && !forwardedTestFlags[f.Name] {
				return
			}
			args = append(args, "-"+f.Name+"="+f.Value.String())
		})
	}
	args = append(args, "-test.run="+wire.RunPattern(name), "-test.count=1")
	if fs.Parsed() && fs.NArg() > 0 {
		args = append(append(args, "--"), fs.Args()...)
	}
	return args
}

// tail returns the last n lines of s, indented.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ")
}

// unrepeatableMessage explains a finding that did not reproduce when its
// schedule ran alone: the test is not safe to run twice in one process,
// or, when the two fresh replays ran differently (differ), it also
// depends on something the tool does not control. It returns the
// one-line summary and the text shown under the test. split says the
// schedules were shared out between processes.
func unrepeatableMessage(name string, rep *Report, before []string, split, differ bool) (summary, text string) {
	after := "after schedule 1 ran in this process"
	switch {
	case split && rep.Schedules > 1:
		after = "after other schedules ran in its process"
	case rep.Schedules > 2:
		after = fmt.Sprintf("after schedules 1 to %d ran in this process", rep.Schedules-1)
	case rep.Schedules == 1 && len(before) > 0:
		after = "after the explorations of " + strings.Join(before, ", ") + " in this process"
	case rep.Schedules == 1:
		after = "in this process"
	}
	label, alone := "not safe to run twice in one process", "passes alone"
	headline := name + " is not safe to run twice in one process, so it cannot be explored"
	why := "but passes when that schedule is replayed alone in a fresh process: the test leaves state behind\n" +
		"that a later run sees (a closed package-level channel, a counter never reset, ...).\n" +
		"interleave runs every schedule of a test in one process; reset that state (t.Cleanup) so that each run starts afresh."
	if differ {
		label, alone = "not reproduced alone", "passes alone in two fresh processes, which ran differently"
		headline = name + " cannot be explored reliably"
		why = "but passes when that schedule is replayed alone in a fresh process, twice, and the two replays ran differently:\n" +
			"the test depends on something the tool does not control (the order of ranges over maps typed by a type parameter or in code not instrumented, real I/O),\n" +
			"and may leave state behind that a later run sees (a package-level registry, a counter never reset, ...)."
	}
	summary = fmt.Sprintf("%s: fails on schedule %d %s (%s: %s), %s", label, rep.Schedules, after, rep.Kind, rep.Message, alone)
	text = fmt.Sprintf("interleave: %s.\nIt fails on schedule %d (%s: %s), %s,\n%s\nThis is not a report of a concurrency bug.",
		headline, rep.Schedules, rep.Kind, rep.Message, after, why)
	return summary, text
}
