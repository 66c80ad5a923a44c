package explore

import (
	"fmt"
	"strconv"
	"time"

	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/internal/strategy/causal"
	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// plan is an exploration made ready to run: its strategy, the settings of
// sched that depend on it, and the body each schedule runs.
type plan struct {
	spec       *strategies.Spec
	strategy   strategy.Strategy
	body       func()
	hash       uint64 // the event hash a replay must reproduce (0: none)
	first      int    // the number of the first schedule
	fixedOrder bool   // map orders from the seed alone (systematic)
	fixedRand  bool   // math/rand from the seed alone (systematic)
	timers     sched.TimerPolicy
	stuck      time.Duration
	mpc        *causal.MPC // strategy mpc, whose hooks the body reports to
	workers    *mpcWorkers // the processes making mpc's runs (nil: none)
	stops      []func()
}

// stop ends what the plan started (solver processes, workers).
func (p *plan) stop() {
	for i := len(p.stops) - 1; i >= 0; i-- {
		p.stops[i]()
	}
}

// prepare makes the strategy that opts name, and settles the options
// that depend on it: a replay's or a regression's come from their
// schedule file, and a strategy that steers goroutines between memory
// accesses keeps them scheduling points (no -reduce).
func prepare(name string, opts *Options, body func()) (p *plan, err error) {
	spec := strategies.Lookup(opts.Strategy)
	if spec == nil {
		return nil, fmt.Errorf("interleave: unknown strategy %q", opts.Strategy)
	}
	if spec.Name == "mpc" && (opts.fuzz == nil || !opts.fuzz.symbolic()) {
		// A test with no integer, boolean or string inputs: schedules
		// alone, the values of reads as mcr tells them apart.
		spec = strategies.Lookup("mcr")
	}
	p = &plan{spec: spec, body: body, first: 1, fixedOrder: spec.Systematic, fixedRand: spec.Systematic}
	setup := &strategies.Setup{
		Seed: opts.Seed, Schedules: opts.Schedules, PCTDepth: opts.PCTDepth, Preemptions: opts.Preemptions,
		DPOR: opts.DPOR, Jobs: opts.jobs, Rounds: opts.rounds, SolverTimeout: opts.SolverTimeout, MPC: opts.MPC,
	}
	if spec.Name == "replay" {
		if err := p.replay(opts, setup); err != nil {
			return nil, err
		}
	}
	if spec.Name == "regression" {
		if err := regressOptions(opts, setup); err != nil {
			return nil, err
		}
	}
	if spec.MemoryPoints {
		// It pauses or steers goroutines at chosen statements, memory
		// accesses among them: those must stay scheduling points.
		opts.Reduce = false
	}
	if p.timers, err = timerPolicy(opts); err != nil {
		return nil, err
	}
	if spec.Learns {
		if err := hapsetStore(*opts, setup); err != nil {
			return nil, err
		}
	}
	defer func() {
		if err != nil {
			p.stop()
		}
	}()
	switch spec.Solver {
	case strategies.MCRSolver:
		s, err := startSolver(opts.Solver)
		if err != nil {
			return nil, err
		}
		setup.MCRSolver = s
		p.stops = append(p.stops, s.Close)
	case strategies.MPCSolver:
		setup.Inputs, setup.Strings = opts.fuzz.inputs(), opts.fuzz.strings()
		if opts.mpcServe == nil { // a worker's search solves nothing
			s, err := newSolverPool(opts.Solver, opts.Workers)
			if err != nil {
				return nil, err
			}
			setup.MPCSolver = s
			p.stops = append(p.stops, s.Close)
		}
	}
	if p.strategy, err = spec.New(setup); err != nil {
		return nil, fmt.Errorf("interleave: %w", err)
	}
	switch st := p.strategy.(type) {
	case *causal.MCR:
		if opts.Budget > 0 {
			st.Deadline = time.Now().Add(opts.Budget)
		}
	case *causal.MPC:
		if opts.Budget > 0 {
			st.Deadline = time.Now().Add(opts.Budget)
		}
		if err := p.mpcRuns(name, opts, st); err != nil {
			return nil, err
		}
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 1000000
	}
	switch p.stuck = opts.StuckAfter; {
	case p.stuck == 0:
		p.stuck = 10 * time.Second
	case p.stuck < 0:
		p.stuck = 0
	}
	return p, nil
}

// replay sets what a replay of opts.Replay runs with: its choices, its
// event hash, and the detectors, bounds, timer policy and seed it was
// recorded with.
func (p *plan) replay(opts *Options, setup *strategies.Setup) error {
	r := opts.Replay
	if r == nil {
		return fmt.Errorf("interleave: strategy replay needs a schedule")
	}
	setup.Replay = r.Choices
	h, err := strconv.ParseUint(r.EventHash, 16, 64)
	if err != nil {
		return fmt.Errorf("interleave: corrupt schedule: bad event hash %q", r.EventHash)
	}
	p.hash = h
	if v := r.Version; v != 0 && v < 3 {
		// Files before version 3 hashed the numbers of memory words,
		// which this build numbers apart (sched's eventID): they replay
		// by their choices, without the hash check.
		p.hash = 0
	}
	opts.NoRace, opts.NoLeaks, opts.MaxSteps = !r.Race, !r.Leaks, r.MaxSteps
	opts.Reduce = r.Reduce
	opts.Timers, opts.Stall = r.Timers, time.Duration(r.Stall)
	if opts.Timers == "" {
		opts.Timers = "eager" // the default of files written before the stall policy
	}
	opts.MaxGoroutines, opts.MaxChoices, opts.MaxObjects = r.MaxGoroutines, r.MaxChoices, r.MaxObjects
	opts.Seed = r.Seed
	setup.Seed = r.Seed
	p.first = r.Iteration
	// Files before version 4 drew a systematic strategy's map orders from
	// the iteration's number too.
	p.fixedRand = strategies.Systematic(r.Strategy)
	p.fixedOrder = p.fixedRand && (r.Version == 0 || r.Version >= 4)
	return nil
}

// timerPolicy settles opts.Timers and opts.Stall and returns sched's
// policy.
func timerPolicy(opts *Options) (sched.TimerPolicy, error) {
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
	case "stall-all":
		// The search for races that need a stall (stallRaces); a schedule
		// file it wrote replays under it.
		timers = sched.TimersStallAll
		if opts.Stall <= 0 {
			opts.Stall = time.Duration(wire.DefaultStall)
		}
	default:
		return 0, fmt.Errorf("interleave: unknown timer mode %q (want stall, eager or idle)", opts.Timers)
	}
	if opts.Timers != "stall" && opts.Timers != "stall-all" {
		opts.Stall = 0
	}
	return timers, nil
}
