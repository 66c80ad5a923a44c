package explore

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"interleave.dev/rt/internal/active"
	"interleave.dev/rt/internal/report"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/site"
	"interleave.dev/rt/internal/strategy"
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
	rounds strategy.DPORJobs
	number func() (int, bool)
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
	Workers   int
	mcrSolver strategy.MCRSolver // a solver in this process (tests)
	mpcSolver strategy.MPCSolver // the same, for mpc
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

	parts []wire.Part // a shard's parts of a dfs or pcb search
}

// Explore runs body many times, each under a different interleaving, as
// the main goroutine of the iteration, until a finding, the budget, or an
// exhausted space. name identifies the test in reports and schedule files.
func Explore(name string, opts Options, body func()) (*Report, error) {
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	sc := strategy.Config{Name: opts.Strategy, Seed: opts.Seed, PCTDepth: opts.PCTDepth, Preemptions: opts.Preemptions, DPOR: opts.DPOR, Jobs: opts.jobs, Rounds: opts.rounds}
	var hash uint64
	first := 1
	fixedOrder := strategy.Systematic(opts.Strategy)
	fixedRand := fixedOrder
	if opts.Strategy == "replay" {
		if opts.Replay == nil {
			return nil, fmt.Errorf("interleave: strategy replay needs a schedule")
		}
		sc.Replay = opts.Replay.Choices
		h, err := strconv.ParseUint(opts.Replay.EventHash, 16, 64)
		if err != nil {
			return nil, fmt.Errorf("interleave: corrupt schedule: bad event hash %q", opts.Replay.EventHash)
		}
		hash = h
		if v := opts.Replay.Version; v != 0 && v < 3 {
			// Files before version 3 hashed the numbers of memory words,
			// which this build numbers apart (sched's eventID): they
			// replay by their choices, without the hash check.
			hash = 0
		}
		opts.NoRace, opts.NoLeaks, opts.MaxSteps = !opts.Replay.Race, !opts.Replay.Leaks, opts.Replay.MaxSteps
		opts.Reduce = opts.Replay.Reduce
		opts.Timers, opts.Stall = opts.Replay.Timers, time.Duration(opts.Replay.Stall)
		if opts.Timers == "" {
			opts.Timers = "eager" // the default of files written before the stall policy
		}
		opts.MaxGoroutines, opts.MaxChoices, opts.MaxObjects = opts.Replay.MaxGoroutines, opts.Replay.MaxChoices, opts.Replay.MaxObjects
		opts.Seed = opts.Replay.Seed
		first = opts.Replay.Iteration
		// Files before version 4 drew a systematic strategy's map orders
		// from the iteration's number too.
		fixedRand = strategy.Systematic(opts.Replay.Strategy)
		fixedOrder = fixedRand && (opts.Replay.Version == 0 || opts.Replay.Version >= 4)
	}
	if opts.Strategy == "regression" {
		if err := regressOptions(&opts, &sc); err != nil {
			return nil, err
		}
	}
	if opts.Strategy == "mpc" && (opts.fuzz == nil || !opts.fuzz.symbolic()) {
		// A test with no integer or boolean inputs: schedules alone, the
		// values of reads as mcr tells them apart.
		opts.Strategy = "mcr"
	}
	if opts.Strategy == "active" || opts.Strategy == "regression" || opts.Strategy == "mcr" || opts.Strategy == "mpc" {
		// Active and regression pause goroutines at chosen statements,
		// memory accesses among them; mcr steers goroutines between
		// accesses: those must stay scheduling points.
		opts.Reduce = false
	}
	var timers sched.TimerPolicy
	switch opts.Timers {
	case "", "stall":
		opts.Timers = "stall"
		if opts.Stall <= 0 {
			opts.Stall = time.Duration(wire.DefaultStall)
		}
	case "eager":
		timers = sched.TimersEager
	case "idle":
		timers = sched.TimersIdle
	default:
		return nil, fmt.Errorf("interleave: unknown timer mode %q (want stall, eager or idle)", opts.Timers)
	}
	if opts.Timers != "stall" {
		opts.Stall = 0
	}
	var st strategy.Strategy
	var act *active.Strategy
	var haps *strategy.HaPSets
	if opts.Strategy == "hapset" {
		var err error
		if haps, err = hapsetStore(opts, &sc); err != nil {
			return nil, err
		}
	}
	var mcr *strategy.MCR
	var mpc *strategy.MPC
	var workers *mpcWorkers // mpc's
	switch opts.Strategy {
	case "active":
		act = active.New(active.Config{Seed: opts.Seed, Schedules: opts.Schedules})
		st = act
	case "mcr":
		var stop func()
		var err error
		if mcr, stop, err = mcrStrategy(opts); err != nil {
			return nil, err
		}
		defer stop()
		if opts.Budget > 0 {
			mcr.Deadline = time.Now().Add(opts.Budget)
		}
		st = mcr
	case "mpc":
		var stop func()
		var err error
		if mpc, stop, err = mpcStrategy(opts, opts.fuzz); err != nil {
			return nil, err
		}
		defer stop()
		if opts.Budget > 0 {
			mpc.Deadline = time.Now().Add(opts.Budget)
		}
		switch {
		case opts.mpcServe != nil:
			if err := mpc.Serve(opts.mpcServe); err != nil {
				return nil, fmt.Errorf("interleave: %w", err)
			}
			first = opts.mpcServe.Run
			defer func() { *opts.mpcServed = mpc.Served }()
		case opts.mpcWorker != nil && opts.Workers > 1:
			workers = newMPCWorkers(name, *opts.mpcWorker, opts.Workers-1)
			defer workers.close()
			mpc.Workers, mpc.Limit = workers, opts.Schedules
		}
		body = opts.fuzz.following(mpc, body)
		st = mpc
	default:
		var err error
		st, err = strategy.New(sc)
		if err != nil {
			return nil, fmt.Errorf("interleave: %w", err)
		}
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 1000000
	}
	stuck := opts.StuckAfter
	if stuck == 0 {
		stuck = 10 * time.Second
	} else if stuck < 0 {
		stuck = 0
	}
	scfg := sched.Config{
		Strategy:   st,
		Schedules:  opts.Schedules,
		Budget:     opts.Budget,
		Race:       !opts.NoRace,
		Reduce:     opts.Reduce,
		Leaks:      !opts.NoLeaks,
		MaxSteps:   opts.MaxSteps,
		StuckAfter: stuck,
		ExpectHash: hash,
		Timers:     timers,
		Stall:      opts.Stall,

		MaxGoroutines:  opts.MaxGoroutines,
		MaxObjects:     opts.MaxObjects,
		MaxChoices:     opts.MaxChoices,
		OrderSeed:      opts.Seed,
		FirstIteration: first,
		FixedOrder:     fixedOrder,
		FixedRand:      fixedRand,
		Next:           opts.Next,
	}
	if mpc != nil {
		scfg.Symbolic = mpc
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
	res := sched.Explore(scfg, body)
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
	}
	if opts.Strategy == "replay" {
		rep.Strategy = opts.Replay.Strategy
	}
	if rs, ok := st.(*strategy.Regression); ok {
		rep.Regress = regressResult(rs, opts.Regress)
	}
	if hs, ok := st.(*strategy.HaPSet); ok {
		rep.Coverage = hapsetCoverage(hs, haps)
		if opts.HaPSetFile != "" {
			if err := haps.Save(opts.HaPSetFile); err != nil {
				return nil, fmt.Errorf("interleave: %w", err)
			}
		}
	}
	if mcr != nil {
		rep.Coverage = mcrCoverage(mcr)
		rep.MCR = &wire.MCRStats{
			Queries: mcr.Queries, Targets: mcr.Targets, Sat: mcr.Sat, Unsat: mcr.Unsat, Unknown: mcr.Unknown,
			Seconds: mcr.SolverTime.Seconds(), Diverged: mcr.Diverged, Incomplete: mcr.Incomplete(),
		}
		if err := mcr.Err(); err != nil && res.Finding == nil {
			return nil, fmt.Errorf("interleave: %w", err)
		}
	}
	if mpc != nil {
		rep.Coverage = mpcCoverage(mpc)
		rep.MCR = mpc.Stats()
		if err := mpc.Err(); err != nil && res.Finding == nil {
			return nil, fmt.Errorf("interleave: %w", err)
		}
		if workers != nil {
			// Runs are numbered as the search made them, here or in a
			// worker.
			rep.Schedules = mpc.Executions
			if mpc.Found > 0 {
				return workers.report(rep, mpc.Found), nil
			}
			res.Last = mpc.Current()
		}
		if res.Finding != nil {
			// The input of the run that found it (set again: the body
			// may have assigned its parameters).
			opts.fuzz.set(mpc)
			in, err := opts.fuzz.encode()
			if err != nil {
				return nil, err
			}
			opts.Input = in
		}
	}
	if act != nil {
		activeReport(rep, act, res.Finding)
		if f := res.Finding; f != nil && f.Kind == sched.KindRace && rep.Confirms != "" && strings.HasPrefix(rep.Confirms, "This schedule confirms") {
			rep.RaceEffect = runOn(scfg, opts, res, body)
			rep.Confirms += "\n" + rep.RaceEffect
		}
	}
	var err error
	if f := res.Finding; f != nil {
		if opts.Strategy != "replay" {
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
		if opts.Strategy == "replay" {
			rep.Schedule.Iteration = opts.Replay.Iteration
		} else {
			rep.Schedule.Signature = signature(scfg, res, f, opts, rep.Schedule, body)
		}
		if opts.ScheduleDir != "-" {
			rep.Path, err = writeSchedule(opts.ScheduleDir, rep.Schedule)
			if err != nil {
				return rep, err
			}
			rep.View = viewPath(rep.Path)
		}
		if opts.View != "" {
			rep.View = opts.View
		}
		rep.Text = render(rep, f)
		if rep.Confirms != "" {
			rep.Text = strings.Replace(rep.Text, "\n", "\n"+rep.Confirms+"\n", 1)
		}
		if rep.View != "" {
			if err := writeView(rep.View, rep, f); err != nil {
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

func writeSchedule(dir string, s *wire.Schedule) (string, error) {
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
	return path, wire.WriteSchedule(path, s)
}

func render(rep *Report, f *sched.Finding) string {
	h := report.Header{Schedules: rep.Schedules, Strategy: rep.Strategy, Seed: rep.Seed, Path: rep.Path, View: rep.View}
	return report.Render(h, f, siteString)
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
