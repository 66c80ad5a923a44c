package explore

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// Test explores a test: run is its body, wrapped in the test API's state
// of a schedule (cleanups, context), and native the body as the original
// test runs it. Without a configuration from the driver (a test binary
// re-executed by one of its tests, or run by hand), native runs once.
func Test(t *testing.T, run, native func()) {
	t.Helper()
	explore(t, run, native, nil, nil)
}

// explore is Test for a body called with input, whose arguments are fz
// (both nil unless it is a fuzz body's call, see Fuzz).
func explore(t *testing.T, run, native func(), input []string, fz *fuzzArgs) {
	t.Helper()
	if sched.Current() != nil {
		native() // already inside an exploration
		return
	}
	cfg, ok, err := Config()
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		// Not run by the driver: a test binary re-executed by a test, or
		// run by hand. Behave like the uninstrumented test.
		native()
		return
	}
	spec := strategies.Lookup(cfg.Strategy)
	if spec == nil {
		t.Fatalf("interleave: unknown strategy %q", cfg.Strategy)
	}
	opts := Options{
		Strategy:    cfg.Strategy,
		Schedules:   cfg.Schedules,
		Seed:        cfg.Seed,
		Budget:      time.Duration(cfg.Budget),
		PCTDepth:    cfg.PCTDepth,
		Preemptions: cfg.Preemptions,
		DPOR:        cfg.DPOR,
		NoRace:      cfg.NoRace,
		Reduce:      cfg.Reduce,

		HaPSetSearch: cfg.HaPSetSearch,
		HaPSetK:      cfg.HaPSetK,
		HaPSetLearn:  cfg.HaPSetLearn,
		HaPSetFile:   hapsetFile(cfg.HaPSetDir, cfg.Package, t.Name()),
		HaPSetReset:  cfg.HaPSetReset,

		Solver:        cfg.Solver,
		SolverTimeout: time.Duration(cfg.SolverTimeout),

		NoLeaks:     cfg.NoLeaks,
		LeaksAll:    cfg.LeaksAll,
		TimingFail:  cfg.TimingFail,
		MaxSteps:    cfg.MaxSteps,
		StuckAfter:  time.Duration(cfg.StuckAfter),
		ScheduleDir: cfg.ScheduleDir,
		Package:     cfg.Package,
		Timers:      cfg.Timers,
		Stall:       time.Duration(cfg.Stall),

		MaxGoroutines: cfg.MaxGoroutines,
		MaxObjects:    cfg.MaxObjects,
		MaxChoices:    cfg.MaxChoices,
		Input:         input,
		MPC:           cfg.MPC,
		Workers:       cfg.Workers,
		fuzz:          fz,
	}
	if cfg.Progress != "" {
		opts.Progress = progressWriter(t.Name(), cfg)
	}
	replaying := cfg.Replay != ""
	if replaying {
		opts.Replay = scheduleFor(t, cfg.Replay, "replaying")
		opts.ScheduleDir = "-"
		opts.View = cfg.View
		opts.Schedules = 1
	}
	if cfg.Regress != "" {
		opts.Regress = scheduleFor(t, cfg.Regress, "regressing")
	}
	defer sched.LowerProcs()()
	if cfg.MPCWorker {
		serveMPC(t, opts, run) // a worker started by the process below
		return
	}
	if spec.Solver == strategies.MPCSolver && fz != nil {
		opts.mpcWorker = &cfg // mpc's runs may go to workers
	}
	kind := splits(cfg, spec)
	if cfg.Worker != "" && kind != strategies.SplitNone {
		runWorker(t, cfg, kind, opts, run) // a worker started by the process below
		return
	}
	var split *pool
	var more func() bool
	if kind != strategies.SplitNone {
		if split, err = startPool(t, cfg, kind, &opts, run); err != nil {
			t.Fatal(err)
		}
		more = again(split.tree, split.rounds)
	}
	if cfg.Afresh {
		opts.afresh = true
		for _, k := range cfg.LeakKeys {
			key, err := sched.ParseLeakKey(k)
			if err != nil {
				t.Fatalf("interleave: %v", err)
			}
			opts.leakKeys = append(opts.leakKeys, key)
		}
	}
	if cfg.Afresh && cfg.From > 0 {
		next, upto := cfg.From, cfg.Upto
		opts.Next = func() int {
			if next > upto {
				return 0
			}
			next++
			return next - 1
		}
	}
	before := explored
	explored = append(explored, t.Name())
	rep, err := exploreShare(t.Name(), opts, run, more)
	if split != nil {
		var perr error
		rep, perr = split.finish(rep) // a worker's Held joins rep's (pool.merge)
		if perr != nil && err == nil {
			t.Error(perr)
		}
	}
	if err == nil && !replaying && !cfg.Afresh && cfg.Shard == "" {
		rep, err = stallRaces(t.Name(), opts, run, rep)
	}
	if err != nil {
		t.Fatal(err)
	}
	var unconfirmedWhy, afreshNote string
	if rep.Kind != "" && rep.Diverged == "" && !replaying && !cfg.Afresh && replayable(rep.Kind) {
		// A replay already runs alone in its own process; so does a
		// share of a test explored afresh, whose parent confirms.
		c, why := confirm(t, cfg, rep)
		if c == reproduced && len(before) == 0 && rep.Schedules > 1 && spec.Workers == strategies.SplitNumbers {
			// Does schedule 1, which passed here, fail in a fresh
			// process too, while this one lives?
			if r := firstAfresh(t, cfg); r != nil && leftover(r, rep, before) {
				removeFinding(rep.Path)
				removeFinding(r.Path)
				rep = leftoverReport(r, rep)
			}
		}
		if c == notReproduced && rep.Schedules == 1 && len(before) == 0 && split == nil && why != replaysDiffer {
			// Nothing ran before it in this process: not state left
			// behind.
			c, why = unconfirmed, "replayed alone in two fresh processes, the schedule passed: the test depends on something the tool does not control (timing, real I/O)"
		}
		if c == notReproduced && why != replaysDiffer {
			a, err := exploreAfresh(t, cfg, spec, rep, before)
			if err != nil {
				t.Fatal(err)
			}
			removeFinding(rep.Path)
			rep, c, why = a.rep, reproduced, a.why
			if why != "" {
				c = notReproduced
			}
			afreshNote = a.describe(rep, before)
		}
		switch c {
		case notReproduced:
			removeFinding(rep.Path)
			msg, text := unrepeatableMessage(t.Name(), rep, before, split != nil, why == replaysDiffer)
			res := wire.Result{
				Package: cfg.Package, Test: t.Name(), Outcome: wire.OutcomeUnrepeatable, Strategy: rep.Strategy, Seed: rep.Seed,
				Schedules: rep.Schedules + rep.searched, Seconds: rep.Elapsed.Seconds(), Kind: rep.Kind, Message: msg, Shard: cfg.Shard,
			}
			if cfg.Results != "" {
				if err := wire.AppendResult(cfg.Results, res); err != nil {
					t.Error(err)
				}
			}
			t.Error("\n" + text)
			return
		case unconfirmed:
			unconfirmedWhy = why
		}
	}
	res := wire.Result{
		Package: cfg.Package, Test: t.Name(), Strategy: rep.Strategy, Seed: rep.Seed,
		Schedules: rep.Schedules + rep.searched, Exhausted: rep.Exhausted, Seconds: rep.Elapsed.Seconds(),
		Kind: rep.Kind, Message: rep.Message, Schedule: rep.Path, EventHash: rep.EventHash, Shard: cfg.Shard,
		Regress: rep.Regress, Predictions: rep.Predictions, MCR: rep.MCR,
		Parts: rep.parts,
	}
	if rep.parts != nil {
		res.Limit = schedulesOf(cfg)
	}
	if rep.Kind == "" {
		for _, n := range rep.Notes {
			if !cfg.Afresh {
				n = noteLine(n, rep.Schedules) // the parent counts a fresh process's schedules
			}
			res.Notes = append(res.Notes, n)
		}
	}
	if rep.Kind == "" {
		res.Timing = rep.Timing
	}
	if cfg.Afresh {
		for _, k := range rep.leakKeys {
			res.LeakKeys = append(res.LeakKeys, k.String())
		}
	}
	if rep.Predictions != nil {
		t.Log(predictionLog(rep.Predictions))
	}
	switch {
	case rep.NotExplored != "":
		res.Outcome = wire.OutcomeNotExplored
		res.Message, res.Leftover = rep.NotExplored, rep.leftover
	case rep.Diverged != "":
		res.Outcome = wire.OutcomeDiverged
		res.Message = rep.Diverged
	case rep.Kind != "":
		res.Outcome = wire.OutcomeFinding
		if replaying {
			rep.Text = strings.Replace(rep.Text, "\n", "\n(replayed "+cfg.Replay+")\n", 1)
		}
		if unconfirmedWhy != "" {
			rep.Text = strings.Replace(rep.Text, "\n", "\n(not confirmed in a fresh process: "+unconfirmedWhy+")\n", 1)
		}
		if afreshNote != "" {
			rep.Text = strings.Replace(rep.Text, "\n", "\n("+afreshNote+")\n", 1)
		}
		if cfg.Afresh && cfg.Report != "" {
			if err := os.WriteFile(cfg.Report, []byte(rep.Text), 0o644); err != nil {
				t.Error(err)
			}
		}
	case rep.Skipped:
		res.Outcome = wire.OutcomeSkip
	default:
		res.Outcome = wire.OutcomePass
	}
	if cfg.Results != "" {
		if err := wire.AppendResult(cfg.Results, res); err != nil {
			t.Error(err)
		}
	}
	switch res.Outcome {
	case wire.OutcomeDiverged:
		t.Errorf("interleave: replay does not match the code: %s.\nThe program no longer follows the schedule (the code changed, or it depends on something the tool does not control: map iteration order, real I/O); the result of this replay is not a finding.%s", rep.Diverged, regressHint(cfg.Replay))
	case wire.OutcomeFinding:
		if rep.Coverage != "" {
			t.Log("interleave: " + rep.Coverage) // what the search did before it found this
		}
		t.Error("\n" + rep.Text)
	case wire.OutcomeSkip:
		t.Skip(strings.Join(rep.Logs, "\n"))
	case wire.OutcomeNotExplored:
		if rep.leftover {
			t.Logf("interleave: not explored: %s. This is not a finding of the interleaving.", rep.NotExplored)
			break
		}
		t.Logf("interleave: not explored: %s. One schedule of this test does not fit the budget or a bound of a schedule (the flag named raises it); this is not a finding.", rep.NotExplored)
	default:
		if len(rep.Logs) > 0 {
			t.Log("log of the last schedule:\n" + strings.Join(rep.Logs, "\n"))
		}
		done := ""
		if c := strategies.Lookup(rep.Strategy); rep.Exhausted && c != nil && c.Covered != "" {
			done = ", " + c.Covered
		}
		t.Logf("interleave: %d schedules explored (strategy %s, seed %d)%s", rep.Schedules, rep.Strategy, rep.Seed, done)
		if rep.Coverage != "" {
			t.Log("interleave: " + rep.Coverage)
		}
		for _, n := range res.Notes {
			t.Log("interleave: note: " + n)
		}
		if res.Timing != "" {
			t.Log("interleave: note: " + res.Timing)
		}
		if afreshNote != "" {
			t.Log("interleave: " + afreshNote)
		}
	}
}

// predictionLog lists the active strategy's predictions, one a line, for
// go test -v.
func predictionLog(ps []wire.Prediction) string {
	if len(ps) == 0 {
		return "interleave: active testing predicted no potential bug from its observed runs"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "interleave: active testing predicted %d potential bugs (unconfirmed ones are not failures):", len(ps))
	for i, p := range ps {
		fmt.Fprintf(&b, "\n  %d. [%s, %d directed schedules] %s", i+1, p.Status, p.Schedules, p.Description)
	}
	return b.String()
}

// replayable reports whether a finding of kind k can be confirmed by a
// replay: stuck and resource-limit findings come from the wall clock or
// from bounds a replay does not cut at the same point, so they are
// reported as found.
func replayable(k string) bool {
	return k != sched.KindStuck && k != sched.KindLimit
}

var loadedConfig struct {
	once sync.Once
	cfg  wire.Config
	ok   bool
	err  error
}

// Config reads the driver's configuration once per test binary and removes
// it from the environment, so that programs a test starts (often the test
// binary itself, re-executed) run plainly instead of exploring too. ok is
// false when the driver gave none.
func Config() (cfg wire.Config, ok bool, err error) {
	l := &loadedConfig
	l.once.Do(func() {
		_, l.ok = os.LookupEnv(wire.ConfigEnv)
		l.cfg, l.err = wire.LoadConfig()
		os.Unsetenv(wire.ConfigEnv)
	})
	return l.cfg, l.ok, l.err
}

// regressHint suggests regression mode for a replay that no longer follows
// the changed code, when the schedule file has a bug signature.
func regressHint(path string) string {
	if s, err := wire.ReadSchedule(path); err != nil || s.Signature == nil {
		return ""
	}
	return "\nTo check whether the bug is still there in the changed code, steer toward a similar interleaving: interleave regress " + path
}

// scheduleFor reads the schedule file at path for test t, which it skips
// (saying what the run is doing) when the file is another test's.
func scheduleFor(t *testing.T, path, doing string) *wire.Schedule {
	t.Helper()
	s, err := wire.ReadSchedule(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Test != t.Name() {
		t.Skipf("interleave: %s %s", doing, s.Test)
	}
	return s
}

// progressWriter returns the Options.Progress of test name under cfg: it
// appends a wire.Progress line to cfg.Progress. Progress is only shown,
// so a line that cannot be written is dropped and the exploration goes
// on.
func progressWriter(name string, cfg wire.Config) func(int, time.Duration, float64) {
	pkg := cfg.Package
	if bi, ok := debug.ReadBuildInfo(); ok && pkg == "" {
		pkg = strings.TrimSuffix(bi.Path, ".test") // go test names the binary's build after the package
	}
	p := wire.Progress{
		Package: pkg, Test: name, Process: os.Getpid(),
		Budget: cfg.Budget, MaxSchedules: cfg.Schedules,
	}
	return func(schedules int, elapsed time.Duration, covered float64) {
		p.Schedules, p.Elapsed, p.Covered = schedules, wire.Duration(elapsed), covered
		wire.AppendProgress(cfg.Progress, p)
	}
}
