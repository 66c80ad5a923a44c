package explore

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"interleave.dev/rt/internal/active"
	"interleave.dev/rt/internal/report"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/site"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/internal/strategy/causal"
	"interleave.dev/rt/internal/strategy/dpor"
	"interleave.dev/rt/internal/strategy/hapset"
	"interleave.dev/rt/internal/strategy/regress"
	"interleave.dev/rt/wire"
)

// Options configures Explore. Zero fields take the defaults of wire.Config.
type Options struct {
	Strategy   string // random (default), pct, dfs, dpor, pcb, active or replay
	Schedules  int    // iterations at most (default 1000)
	Seed       int64  // seed of randomized strategies (default 1)
	Budget     time.Duration
	PCTDepth   int
	NoRace     bool
	NoLeaks    bool
	Reduce     bool // no scheduling points at plain memory accesses (wire.Config); not with active nor regression
	MaxSteps   int
	StuckAfter time.Duration  // default 10s; negative: never
	Replay     *wire.Schedule // the schedule to replay, with Strategy "replay"
	// Regress is the schedule whose bug signature the strategy
	// "regression" steers toward; its detector settings and timer policy
	// are used, so that the same kind of bug shows.
	Regress *wire.Schedule
	// ScheduleDir is where the schedule file of a finding is written
	// (default: os.TempDir()/interleave-schedules); "-" writes none.
	ScheduleDir string
	Package     string // recorded in the schedule file
	// Timers is "stall" (default), "eager" or "idle"; Stall bounds how
	// early a timer may fire under "stall" (default wire.DefaultStall). See
	// wire.Config.
	Timers string
	Stall  time.Duration
	// MaxGoroutines bounds the live goroutines of a schedule (default
	// 100000); MaxChoices its choice points (default 10000000);
	// MaxObjects the objects it tracks (default 16000000).
	MaxGoroutines int
	MaxChoices    int
	MaxObjects    int
	// Input is the input of a fuzz body call, in the corpus file format
	// of go test (one value per line, such as int(5)), recorded in the
	// schedule file.
	Input []string
	// View is where the HTML page of a finding is written (default: next
	// to its schedule file, with the extension .html; none when no
	// schedule file is written).
	View string
	// Next, when set, gives the number of the next schedule to run (0: no
	// more), for an exploration split between processes (random and pct
	// only; see sched.Config.Next).
	Next func() int
	// jobs, for dfs and pcb, hands out the parts of a search split
	// between processes (split.go), rounds those of dpor (rounds.go), and
	// number says what number the sequential search gives a finding
	// (false: it is not the search's).
	jobs   strategy.Jobs
	rounds dpor.Jobs
	number func() (int, bool)
	// afresh marks the exploration of a share of a test's schedules in a
	// fresh process (afresh.go), which compares what its schedules leave
	// behind with leakKeys, schedule 1's in the first process.
	afresh   bool
	leakKeys []sched.LeakKey
	// racesOnly marks the search for races that need a stall
	// (stallRaces): only a data race is a finding; stallSearch names the
	// search before it, which showed none.
	racesOnly   bool
	stallSearch string
	searched    int // the search's schedules, counted in the report's
	// LeaksAll reports every goroutine leak as a finding, also one that
	// every schedule shows (the -leaks=all of interleave test); without
	// it, such a leak is a note in Report.Notes.
	LeaksAll bool
	// TimingFail reports a test failure that only schedules firing a
	// timer early show as a finding (the -timing=fail of interleave
	// test); without it, such a failure is a note in Report.Timing.
	TimingFail bool
	// Progress, when set, is called between schedules, at most every
	// 200ms, with the number of schedules run so far, the time spent and,
	// for a strategy that can estimate it (dfs), the fraction of its
	// space covered (else 0).
	Progress func(schedules int, elapsed time.Duration, covered float64)

	// Preemptions is the bound of strategy pcb (default 2).
	Preemptions int
	// DPOR is the reduction of strategy dpor: "optimal" (default) or
	// "source".
	DPOR string
	// HaPSet configures strategy hapset (see wire.Config): the search it
	// guides, the call sites of a statement, the random runs to learn
	// from first, and the file of its store ("": none kept); HaPSetReset
	// starts from an empty store.
	HaPSetSearch string
	HaPSetK      int
	HaPSetLearn  int
	HaPSetFile   string
	HaPSetReset  bool

	// Solver is the path of interleave-solver, which strategy mcr asks
	// for schedules; SolverTimeout bounds each of its checks (0: its
	// default).
	Solver        string
	SolverTimeout time.Duration
	// Workers is how many solver processes mpc splits the checks of one
	// query between (default 1); the answers, and so the search, do not
	// depend on it.
	Workers int
	// MPC is strategy mpc's path exploration: "sound" (default) or
	// "simple".
	MPC string

	fuzz *fuzzArgs // the arguments of a fuzz body, mpc's inputs
	// mpcWorker is the configuration of the processes that make mpc's
	// runs with this one (nil: none, the runs are made here); mpcServe is
	// the run a worker makes, and mpcServed where its record goes
	// (mpcworkers.go).
	mpcWorker *wire.Config
	mpcServe  *wire.MPCRequest
	mpcServed **wire.MPCRun
}

// Report is the outcome of an exploration.
type Report struct {
	Test      string
	Strategy  string
	Seed      int64
	Schedules int  // iterations run; with a finding, the failing one's number
	Exhausted bool // a systematic strategy covered its whole space
	Skipped   bool
	Kind      string // the finding's kind; "" when nothing was found
	Message   string // the finding's one-line summary
	Diverged  string // why a replay no longer matches the program
	Text      string // the full report, as printed under a failing test
	Schedule  *wire.Schedule
	// Coverage says what a coverage-guided strategy covered (hapset), for
	// go test -v.
	Coverage  string
	Path      string // where Schedule was written
	View      string // where the HTML page of the finding was written
	Logs      []string
	Elapsed   time.Duration
	EventHash string // event hash of the last schedule run, in hexadecimal
	// Regress says how a regression run used its signature.
	Regress *wire.RegressResult
	// Predictions are the active strategy's potential bugs and their
	// status; Confirms names the one the finding confirms ("" if none).
	Predictions []wire.Prediction
	Confirms    string
	// RaceEffect says what a confirmed race does when the run goes on
	// past it (active strategy only).
	RaceEffect string
	// MCR is what strategy mcr asked its solver.
	MCR *wire.MCRStats
	// Notes say what the exploration noticed that is not a finding: the
	// goroutines every schedule left behind (a leak that does not depend
	// on the interleaving).
	Notes []string
	// Timing, when not "", says that a schedule failed the test only
	// because it fired a timer early (Options.TimingFail): one line.
	Timing string
	// NotExplored says why the test could not be explored: its first
	// schedule was still running when the budget ran out (not a finding).
	NotExplored string
	// leftover says that NotExplored is not the budget but a run that
	// leaves state outside its process (afresh.go).
	leftover bool

	parts    []wire.Part     // a shard's parts of a dfs or pcb search
	leakKeys []sched.LeakKey // what schedule 1 left behind (sched.Result.LeakKeys)
	held     bool            // sched.Result.Held
	// timingAt is the first schedule whose test failure was kept as a
	// timing note (sched.Result.TimingIteration), 0 if none: a schedule
	// that did not pass here, though it is not the finding.
	timingAt int
	// searched is the schedules of the search before stall schedules
	// (stallRaces): the report and the summary count them with
	// Schedules, which stays the finding's number in its exploration.
	searched int
}

// Explore runs body many times, each under a different interleaving, as
// the main goroutine of the iteration, until a finding, the budget, or an
// exhausted space. name identifies the test in reports and schedule files.
func Explore(name string, opts Options, body func()) (*Report, error) {
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	p, err := prepare(name, &opts, body)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	st := p.strategy
	scfg := sched.Config{
		Strategy:   st,
		Schedules:  opts.Schedules,
		Budget:     opts.Budget,
		Race:       !opts.NoRace,
		Reduce:     opts.Reduce,
		Leaks:      !opts.NoLeaks,
		MaxSteps:   opts.MaxSteps,
		StuckAfter: p.stuck,
		ExpectHash: p.hash,
		Timers:     p.timers,
		Stall:      opts.Stall,

		TimingNotes: !opts.TimingFail && opts.Replay == nil && opts.Regress == nil && !opts.racesOnly,
		RacesOnly:   opts.racesOnly,

		MaxGoroutines:  opts.MaxGoroutines,
		MaxObjects:     opts.MaxObjects,
		MaxChoices:     opts.MaxChoices,
		OrderSeed:      opts.Seed,
		FirstIteration: p.first,
		FixedOrder:     p.fixedOrder,
		FixedRand:      p.fixedRand,
		Next:           opts.Next,
	}
	if p.mpc != nil {
		scfg.Symbolic = p.mpc
	}
	if !opts.NoLeaks && !opts.LeaksAll && opts.Replay == nil && opts.Regress == nil && !opts.racesOnly {
		scfg.LeakNotes = true
		switch {
		case opts.afresh:
			// A fresh process learns the reference from its own
			// schedule 1, or is given the first fresh process's: never
			// the parent's, whose schedule 1 ran in the state earlier
			// tests left.
			if len(opts.leakKeys) > 0 {
				scfg.LeakReference = &sched.LeakRef{Keys: opts.leakKeys}
			}
			scfg.NoCalibration = true
		case opts.jobs != nil || opts.rounds != nil:
			// A share of a systematic search does not start with its
			// schedule 1: run it first, with a search of its own.
			ref, err := leakReference(name, opts, scfg, body)
			if err != nil {
				return nil, err
			}
			scfg.LeakReference = ref
		}
	}
	if opts.jobs != nil || opts.rounds != nil {
		scfg.Schedules = math.MaxInt32 // the jobs end the search
	}
	if opts.Progress != nil {
		est, _ := st.(strategy.Estimator)
		scfg.Progress = func(n int, elapsed time.Duration) {
			covered := 0.0
			if est != nil {
				covered = est.Covered()
			}
			opts.Progress(n, elapsed, covered)
		}
	}
	res := sched.Explore(scfg, p.body)
	if a, ok := st.(strategy.Abandoner); ok && (opts.jobs != nil || opts.rounds != nil) {
		a.Abandon() // a job the budget cut is the others' to know
	}
	if res.Finding != nil && opts.number != nil {
		n, ok := opts.number()
		if !ok {
			res.Finding = nil // another process's finding is the search's
		}
		res.Last = n
	}
	rep := &Report{
		Test:      name,
		Strategy:  st.Name(),
		Seed:      opts.Seed,
		Schedules: res.Iterations,
		Exhausted: res.Exhausted,
		Skipped:   res.Skipped,
		Diverged:  res.Diverged,
		Logs:      res.Logs,
		Elapsed:   res.Elapsed,
		EventHash: strconv.FormatUint(res.Hash, 16),
		searched:  opts.searched,
	}
	if opts.Replay != nil {
		rep.Strategy = opts.Replay.Strategy
	}
	if len(res.NeverStops) > 0 {
		rep.Notes = neverStops(res.NeverStops)
	}
	rep.leakKeys, rep.held = res.LeakKeys, res.Held
	if res.Timing != nil {
		rep.timingAt = res.TimingIteration
	}
	if f := res.Finding; f != nil && f.Unexplored {
		rep.NotExplored = f.Message
		res.Finding = nil
	}
	f, timing := res.Finding, false
	if f == nil && res.Timing != nil && res.Diverged == "" {
		f, timing = res.Timing, true
	}
	if f != nil && len(f.EarlyTimers) > 0 && opts.stallSearch != "" {
		f.StallSearch = opts.stallSearch
	} else if f != nil && len(f.EarlyTimers) > 0 && opts.Replay == nil && opts.Regress == nil {
		// Does the finding need a goroutine stalled? A search that fires
		// timers only in time, or when nothing else can run, tells.
		idle, err := stallFree(name, opts, scfg, body, f, res.Iterations)
		if err != nil {
			return nil, err
		}
		switch {
		case idle != nil:
			res, opts.Timers, opts.Stall = idle, "idle", 0
			scfg.Timers, scfg.Stall = sched.TimersIdle, 0
			rep.EventHash, rep.Logs = strconv.FormatUint(res.Hash, 16), res.Logs
		case timing:
			// The test's own timeout beat work that could still run:
			// a timing assumption of the test, not a bug.
			rep.Timing = timingNote(f, res.TimingIteration)
		}
	}
	if sum, ok := st.(strategy.Summarizer); ok {
		rep.Coverage = sum.Summary()
	}
	switch st := st.(type) {
	case *regress.Regression:
		rep.Regress = regressResult(st, opts.Regress)
	case *hapset.HaPSet:
		if opts.HaPSetFile != "" {
			if err := st.Store().Save(opts.HaPSetFile); err != nil {
				return nil, fmt.Errorf("interleave: %w", err)
			}
		}
	case *causal.MCR:
		rep.MCR = &wire.MCRStats{
			Queries: st.Queries, Targets: st.Targets, Sat: st.Sat, Unsat: st.Unsat, Unknown: st.Unknown,
			Seconds: st.SolverTime.Seconds(), Diverged: st.Diverged, Incomplete: st.Incomplete(),
		}
		if err := st.Err(); err != nil && res.Finding == nil {
			return nil, fmt.Errorf("interleave: %w", err)
		}
	case *causal.MPC:
		rep.MCR = st.Stats()
		if err := st.Err(); err != nil && res.Finding == nil {
			return nil, fmt.Errorf("interleave: %w", err)
		}
		if p.workers != nil {
			// Runs are numbered as the search made them, here or in a
			// worker.
			rep.Schedules = st.Executions
			if st.Found > 0 {
				return p.workers.report(rep, st.Found), nil
			}
			res.Last = st.Current()
		}
		if res.Finding != nil {
			// The input of the run that found it (set again: the body
			// may have assigned its parameters).
			opts.fuzz.set(st)
			in, err := opts.fuzz.encode()
			if err != nil {
				return nil, err
			}
			opts.Input = in
		}
	case *active.Strategy:
		activeReport(rep, st, res.Finding)
		if f := res.Finding; f != nil && f.Kind == sched.KindRace && rep.Confirms != "" && strings.HasPrefix(rep.Confirms, "This schedule confirms") {
			rep.RaceEffect = runOn(scfg, opts, res, p.body)
			rep.Confirms += "\n" + rep.RaceEffect
		}
	}

	if f := res.Finding; f != nil {
		if opts.Replay == nil {
			rep.Schedules = res.Last // the failing schedule's number
		}
		rep.Kind, rep.Message = f.Kind, f.Message
		rep.Schedule = &wire.Schedule{
			Package:   opts.Package,
			Test:      name,
			Strategy:  rep.Strategy,
			Seed:      opts.Seed,
			Iteration: rep.Schedules,
			Finding:   f.Kind,
			Message:   f.Message,
			Race:      !opts.NoRace,
			Reduce:    opts.Reduce && !opts.NoRace,
			Leaks:     !opts.NoLeaks,
			Timers:    opts.Timers,
			Stall:     wire.Duration(opts.Stall),
			MaxSteps:  opts.MaxSteps,

			MaxGoroutines: opts.MaxGoroutines,
			MaxObjects:    opts.MaxObjects,
			MaxChoices:    opts.MaxChoices,
			Steps:         res.Steps,
			EventHash:     rep.EventHash,
			Choices:       append([]int{}, res.Choices...),
			Input:         opts.Input,
		}
		switch {
		case opts.Replay != nil:
			rep.Schedule.Iteration = opts.Replay.Iteration
		case res.FindingIteration != 0:
			rep.Schedule.Iteration = res.FindingIteration
			fallthrough
		default:
			rep.Schedule.Signature = signature(scfg, res, f, opts, rep.Schedule, p.body)
		}
		if opts.ScheduleDir != "-" {
			rep.Path, err = schedulePath(opts.ScheduleDir, rep.Schedule)
			if err != nil {
				return rep, err
			}
			rep.View = viewPath(rep.Path)
		}
		if opts.View != "" {
			rep.View = opts.View
		}
		rep.Text = reportText(rep, f)
		// The schedule file carries the page's data, so that the page can
		// be written again from the file alone: without the paths of this
		// run (the file may be moved, and interleave merge copies it),
		// which interleave view fills in from where the file is then.
		page := pageOf(rep, f)
		if rep.Path != "" {
			kept := *page
			kept.Schedule, kept.Report = "", pageReport(rep, f)
			if rep.Schedule.View, err = json.Marshal(&kept); err != nil {
				return rep, fmt.Errorf("interleave: encoding the page of the finding: %w", err)
			}
			if err := wire.WriteSchedule(rep.Path, rep.Schedule); err != nil {
				return rep, err
			}
		}
		if rep.View != "" {
			if err := writeView(rep.View, page); err != nil {
				return rep, err
			}
		}
	}
	return rep, nil
}

// activeReport lists the active strategy's predictions in rep, and says
// which one the finding f (if any) confirms.
func activeReport(rep *Report, act *active.Strategy, f *sched.Finding) {
	preds := act.Predictions()
	if f != nil {
		if p, reached := act.Directed(); p != nil {
			ev := active.Evidence{Kind: f.Kind}
			if f.Race != nil {
				ev.Sites = append(ev.Sites, f.Race.Prev.Site, f.Race.Cur.Site)
			}
			for _, g := range f.Goroutines {
				ev.Sites = append(ev.Sites, g.Site)
			}
			n := 0
			for i, q := range preds {
				if q == p {
					n = i + 1
				}
			}
			if p.Confirms(ev, reached) {
				p.Status, p.Finding = active.Confirmed, f.Kind
				rep.Confirms = fmt.Sprintf("This schedule confirms prediction %d of %d (active testing): %s.", n, len(preds), p.Describe(siteString))
			} else {
				p.Status = active.Unconfirmed
				rep.Confirms = fmt.Sprintf("Found while directing the schedule at prediction %d of %d, which it does not confirm: %s.", n, len(preds), p.Describe(siteString))
			}
		}
	}
	rep.Predictions = []wire.Prediction{} // none is a result too
	for _, p := range preds {
		rep.Predictions = append(rep.Predictions, wire.Prediction{
			Kind: p.Kind.String(), Description: p.Describe(siteString), Status: p.Status.String(),
			Schedules: p.Schedules, Reached: p.Reached,
		})
	}
}

// runOn runs the schedule of a race that the active strategy confirmed
// once more, with race detection off, up to the race and then on at
// random, and says how that run ended: what the race does (RaceFuzzer
// resolves a real race and runs on, section 2 of the paper). It changes
// nothing of the finding or its schedule file.
func runOn(scfg sched.Config, opts Options, res *sched.Result, body func()) string {
	scfg.Strategy = active.NewRunOn(res.Choices, opts.Seed)
	scfg.Schedules, scfg.Race, scfg.ExpectHash = 1, false, 0 // the budget, step and stuck bounds stay
	scfg.FirstIteration = res.Iterations
	opts.Replay = &wire.Schedule{Strategy: "active", Iteration: res.Iterations}
	r := sched.Explore(scfg, body)
	const head = "Run on past the race (race detection off, the same choices up to the race, then random): "
	if f := r.Finding; f != nil {
		return head + f.Kind + ": " + f.Message
	}
	return head + "the test passed; the race changed nothing it checks on that run."
}

// siteString renders a site as file:line, relative to the working
// directory when below it.
func siteString(s uint32) string {
	p := site.Pos(s)
	if p.File == "" {
		return "?"
	}
	wd, _ := os.Getwd()
	return fmt.Sprintf("%s:%d", shortPath(wd, p.File), p.Line)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// viewPath is where the HTML page of the finding of the schedule file at
// path goes: next to it.
func viewPath(path string) string {
	return strings.TrimSuffix(path, ".json") + ".html"
}

// removeFinding removes the schedule file at path and its page.
func removeFinding(path string) {
	if path != "" {
		os.Remove(path)
		os.Remove(viewPath(path))
	}
}

// schedulePath returns the path of the file of schedule s in directory
// dir (a temporary directory's when ""), which it creates.
func schedulePath(dir string, s *wire.Schedule) (string, error) {
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "interleave-schedules")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("interleave: schedule directory: %w", err)
	}
	name := unsafeName.ReplaceAllString(s.Test, "_") + "-" + unsafeName.ReplaceAllString(s.Finding, "-") + "-" + s.EventHash + ".json"
	path := filepath.Join(dir, name)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path, nil
}

// reportText is the text report of finding f of rep, with the line that
// says which active prediction it confirms, if any, under the first.
func reportText(rep *Report, f *sched.Finding) string {
	h := report.Header{Schedules: rep.Schedules + rep.searched, Strategy: rep.Strategy, Seed: rep.Seed, Path: rep.Path, View: rep.View}
	text := report.Render(h, f, siteString)
	if rep.Confirms != "" {
		text = strings.Replace(text, "\n", "\n"+rep.Confirms+"\n", 1)
	}
	return text
}

// shortPath gives file relative to dir (the package directory, where go
// test runs the test binary) when it lies below it.
func shortPath(dir, file string) string {
	if dir == "" || !filepath.IsAbs(file) {
		return file
	}
	if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
}

// neverStops writes the notes on goroutines that each schedule run left
// behind (Report.Notes); notesLine ends one with the count of schedules.
func neverStops(gs []sched.GoroutineInfo) []string {
	var notes []string
	for _, g := range gs {
		n := fmt.Sprintf("goroutine started at %s never stops: %s", siteString(g.SpawnSite), g.Status)
		if g.Site != 0 {
			n += " at " + siteString(g.Site)
		}
		if !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	return notes
}

// timingNote is the note on f, a test failure that schedule num showed
// only by firing a timer early.
func timingNote(f *sched.Finding, num int) string {
	msg, _, _ := strings.Cut(strings.TrimSpace(f.Message), "\n")
	return fmt.Sprintf("schedule %d failed the test (%s) only by firing a timer early, a timing assumption of the test, not a finding (-timing=fail reports it); %s",
		num, strings.TrimSpace(msg), report.TimingLine(f, siteString))
}

// noteLine is note n of an exploration of that many schedules, as go
// test -v and the results show it.
func noteLine(n string, schedules int) string {
	every := fmt.Sprintf("on every one of the %d schedules explored", schedules)
	if schedules == 1 {
		every = "on the one schedule explored"
	}
	return n + ", " + every + " (a leak that does not depend on the interleaving; -leaks=all reports it)"
}

// leakReference runs schedule 1 of the exploration that opts describe, with
// a search of its own (a share of a split search does not start with it),
// and returns what it left behind.
func leakReference(name string, opts Options, scfg sched.Config, body func()) (*sched.LeakRef, error) {
	opts.jobs, opts.rounds = nil, nil
	p, err := prepare(name, &opts, body)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	scfg.Strategy, scfg.Schedules, scfg.FirstIteration = p.strategy, 1, 1
	return sched.LeakReference(scfg, p.body), nil
}

// stallFree searches, with timers that fire only in time or when nothing
// else can run, for a finding of f's kind, which a schedule that fired
// timers early while goroutines could still run found after schedules
// schedules. It returns the result of such a schedule, numbered after
// those, or nil, having marked f as needing a stall.
func stallFree(name string, opts Options, scfg sched.Config, body func(), f *sched.Finding, schedules int) (*sched.Result, error) {
	opts.jobs, opts.rounds, opts.number, opts.Next, opts.afresh = nil, nil, nil, nil, false
	opts.Timers, opts.Stall = "idle", 0
	p, err := prepare(name, &opts, body)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	scfg.Strategy, scfg.Next, scfg.FirstIteration = p.strategy, nil, 1
	scfg.Timers, scfg.Stall = p.timers, 0
	limit := scfg.Schedules
	if limit <= 0 || limit == math.MaxInt32 {
		limit = 1000
	}
	scfg.Schedules = min(max(100, 2*schedules), limit)
	scfg.LeakReference = nil
	res := sched.Explore(scfg, p.body)
	if res.Finding != nil && res.Finding.Kind == f.Kind {
		if res.FindingIteration == 0 {
			res.FindingIteration = res.Last
		}
		res.Last += schedules
		return res, nil
	}
	f.StallChecked = res.Iterations
	return nil, nil
}

// Run is Explore, then, when the search passed, stallRaces: what a test
// run by the driver in one process gets.
func Run(name string, opts Options, body func()) (*Report, error) {
	rep, err := Explore(name, opts, body)
	if err != nil {
		return nil, err
	}
	return stallRaces(name, opts, body, rep)
}

// stallRaceSchedules bounds the schedules of stallRaces.
const stallRaceSchedules = 100

// stallRaces looks for the data races a passing search under the default
// timer policy could not show because they need a goroutine stalled: a
// lone wait on a timer (a sleep, a receive from a timer's channel or a
// deadline's Done) ends while another goroutine, which natively a loaded
// machine stalls that long, still has quick work to do. Such a race is
// real whatever the timing (a stall orders nothing, so Go's race detector
// reports it on a machine that stalls the goroutine: go test -race did on
// 209 of 220 runs of a generated program, on a loaded machine), but the
// default policy never lets a sleep's timer fire early, for the sake of
// the other findings, which such a stall may explain (docs/real-modules.md,
// the default timer policy). So when the search kept a timer due within
// -stall from firing early for such a wait (Report.held), some random
// schedules (a tenth of the search's, 30 to stallRaceSchedules) run under
// "stall-all", where it may, keeping only data races as findings. rep is
// the search's report; the result is rep, or the report of the race.
func stallRaces(name string, opts Options, body func(), rep *Report) (*Report, error) {
	if !rep.held || rep.Kind != "" || rep.NotExplored != "" || rep.Diverged != "" || rep.Skipped ||
		opts.NoRace || opts.Replay != nil || opts.Regress != nil || opts.Timers != "" && opts.Timers != "stall" {
		return rep, nil
	}
	budget := opts.Budget
	if budget > 0 {
		if budget -= rep.Elapsed; budget <= 0 {
			return rep, nil
		}
	}
	o := opts
	o.Strategy, o.Timers, o.Budget = "random", "stall-all", budget
	o.Schedules = min(stallRaceSchedules, max(30, rep.Schedules/10))
	o.jobs, o.rounds, o.number, o.Next, o.afresh, o.Progress = nil, nil, nil, nil, false, nil
	o.racesOnly, o.searched = true, rep.Schedules
	o.stallSearch = fmt.Sprintf("the %s search's %d schedules, which let no sleep or lone wait on a timer end early,", rep.Strategy, rep.Schedules)
	r, err := Explore(name, o, body)
	if err != nil {
		return nil, err
	}
	if r.Kind != sched.KindRace {
		return rep, nil
	}
	r.Notes = append(append([]string(nil), rep.Notes...), r.Notes...)
	r.Elapsed += rep.Elapsed
	return r, nil
}
