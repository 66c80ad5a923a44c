// Package strategies is the registry of the exploration strategies: one
// Spec per strategy says what it is (its name, its documentation and
// paper), how the engine runs it (systematic or not, how it splits
// between worker processes and shards, whether it needs a scheduling
// point at every memory access, whether it needs a solver), which flags
// tune it, and how it is made. The engine (rt/internal/explore), the
// command's flag checks and help, and the docs all read it; adding a
// strategy is its own package and one entry of All.
package strategies

import (
	"fmt"
	"time"

	"interleave.dev/rt/internal/active"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/internal/strategy/causal"
	"interleave.dev/rt/internal/strategy/dpor"
	"interleave.dev/rt/internal/strategy/hapset"
	"interleave.dev/rt/internal/strategy/regress"
	"interleave.dev/rt/wire"
)

// Split is how the schedules of one test are shared between worker
// processes (-workers) and machines (-shard).
type Split int

// The ways of splitting.
const (
	// SplitNone: the search runs in one process.
	SplitNone Split = iota
	// SplitNumbers: schedule i is a function of the seed and i alone
	// (strategy.Independent), so processes share out schedule numbers.
	SplitNumbers
	// SplitSubtrees: processes share out subtrees of the search,
	// numbered as one process numbers them, through a log.
	SplitSubtrees
	// SplitRounds: the search runs in rounds of jobs, each process
	// merging a round's results alike, whatever the number of processes
	// (workers only, not shards).
	SplitRounds
)

// Solver is the solver a strategy asks for schedules.
type Solver int

// The solvers.
const (
	NoSolver  Solver = iota
	MCRSolver        // one solver process, one query at a time
	MPCSolver        // a pool of solver processes (-workers)
)

// Spec says what a strategy is.
type Spec struct {
	// Name is its -strategy value.
	Name string
	// Summary is one line for "interleave help test".
	Summary string
	// Doc is its paragraph for "interleave help strategies": what it
	// does, when to use it and the paper it implements.
	Doc string
	// Internal marks a strategy that -strategy does not take: replay and
	// regression, which "interleave replay" and "interleave regress" run.
	Internal bool
	// Systematic says it enumerates a space of schedules, replaying
	// prefixes of earlier ones: the program must then be a function of
	// the choices alone, so math/rand and map orders get one seed for
	// every schedule.
	Systematic bool
	// Covered is what its summary line says when it covered its whole
	// space ("" when it never claims to).
	Covered string
	// Workers is how it splits between worker processes; Shards says
	// whether it also splits between machines (-shard), and NoShard why
	// not when it does not.
	Workers Split
	Shards  bool
	NoShard string
	// MemoryPoints says it needs a scheduling point at every memory
	// access (it pauses or steers goroutines between them), so that
	// -reduce does not apply.
	MemoryPoints bool
	// Solver is the solver it asks (NoSolver: none).
	Solver Solver
	// Seeded says its schedules depend on -seed.
	Seeded bool
	// Learns says it keeps what it learned per package and test in the
	// cache directory, and goes on from there in the next run.
	Learns bool
	// Flags are the flags that tune it, for the help.
	Flags []string
	// New makes it.
	New func(*Setup) (strategy.Strategy, error)
}

// Setup is what a strategy is made from: the settings of the run and
// what the engine provides.
type Setup struct {
	Seed        int64
	Schedules   int
	PCTDepth    int    // pct's bug depth d (default 3)
	Preemptions int    // pcb's bound (default DefaultPreemptions), dpor's (default none)
	DPOR        string // dpor's reduction: "optimal" (default) or "source"
	MaxDepth    int    // dfs: choice points explored per schedule (default 10000)
	Replay      []int  // the choices to replay
	// Jobs, for dfs and pcb, hands out the parts of a search split
	// between processes; Rounds does for dpor.
	Jobs   strategy.Jobs
	Rounds dpor.Jobs
	// Signature and SitePos configure the regression strategy: the bug
	// signature to steer toward and the source position of a site.
	Signature []regress.SigEvent
	SitePos   func(site uint32) regress.Pos
	// HaPSet configures the hapset strategy: the search it guides
	// ("dpor", the default, or "pcb"), the call sites of a statement (K;
	// 0: hapset.DefaultK, negative: none), the random runs to learn
	// from first when the store is empty (Learn; 0:
	// hapset.DefaultLearn, negative: none), the store (nil: a new
	// one) and SiteKey, which names a site in terms that survive a
	// rebuild.
	HaPSet struct {
		Search  string
		K       int
		Learn   int
		Store   *hapset.HaPSets
		SiteKey func(site uint32) uint64
	}
	// SolverTimeout bounds the solver's work for one run (mcr, mpc).
	SolverTimeout time.Duration
	// MCRSolver and MPCSolver are the solvers the engine started for a
	// strategy whose Spec asks for one.
	MCRSolver causal.MCRSolver
	MPCSolver causal.MPCSolver
	// MPC is mpc's path exploration ("sound", the default, or "simple"),
	// and Inputs the fuzz body's inputs, with Strings the seeds of those
	// that are strings or []byte, in the order of the arguments.
	MPC     string
	Inputs  []wire.MPCInput
	Strings []StringInput
}

// StringInput is the seed of argument Arg of a fuzz body, a string or a
// []byte.
type StringInput struct {
	Arg  int
	Seed []byte
}

// DefaultPreemptions is pcb's bound when none is given.
const DefaultPreemptions = 2

// All lists the strategies, in the order the help lists them.
var All = []*Spec{
	{
		Name:    "random",
		Seeded:  true,
		Summary: "a goroutine chosen at random at every point (the default)",
		Doc: `random is randomized scheduling (Stoller, "Testing concurrent Java
programs using randomized scheduling", 2002): at every scheduling point
the goroutine that runs next is chosen at random among those that can, so
that every interleaving the language allows can be reached. Each schedule
draws how often it switches: one in three chooses uniformly at every
point, the others mostly let the running goroutine go on, as the Go
scheduler does, so that long stretches of one goroutine are tried too.
Schedule i is a function of the seed and i, so any process can run any
schedule.`,
		Workers: SplitNumbers,
		Shards:  true,
		New: func(s *Setup) (strategy.Strategy, error) {
			return strategy.NewRandom(s.Seed), nil
		},
	},
	{
		Name:    "coverage",
		Seeded:  true,
		Summary: "random, preferring context switches no schedule made yet",
		Doc: `coverage is random scheduling with Stoller's coverage heuristic (the
same paper): it remembers the pairs of sites between which a context
switch happened in earlier schedules and, where a switch no schedule made
yet is possible, prefers it. It runs in one process: each schedule
depends on what the ones before it covered.`,
		NoShard: "each schedule depends on what the schedules before it covered",
		New: func(s *Setup) (strategy.Strategy, error) {
			return strategy.NewCoverage(s.Seed), nil
		},
	},
	{
		Name:    "pct",
		Seeded:  true,
		Summary: "random priorities with d-1 change points (-pct-depth d)",
		Doc: `pct is probabilistic concurrency testing (Burckhardt, Kothari,
Musuvathi and Nagarakatte, ASPLOS 2010): goroutines run by random
priorities, lowered at d-1 random change points (-pct-depth d, default
3), which finds a bug of depth d with probability at least 1/(n k^(d-1))
per schedule. Schedule 1 calibrates k, the number of points.`,
		Workers: SplitNumbers,
		Shards:  true,
		Flags:   []string{"-pct-depth"},
		New: func(s *Setup) (strategy.Strategy, error) {
			d := s.PCTDepth
			if d <= 0 {
				d = 3
			}
			return strategy.NewPCT(s.Seed, d), nil
		},
	},
	{
		Name:    "dfs",
		Summary: "every schedule, depth first; says when it covered them all",
		Doc: `dfs explores every schedule, depth first, and says when it covered the
whole space ("verified" for that input): exact, and exponential. Use it
on small tests; dpor covers the same outcomes in far fewer schedules.`,
		Systematic: true,
		Covered:    "every interleaving covered",
		Workers:    SplitSubtrees,
		Shards:     true,
		New: func(s *Setup) (strategy.Strategy, error) {
			if s.Jobs != nil {
				return strategy.NewDFSJobs(s.Jobs, s.MaxDepth), nil
			}
			return strategy.NewDFS(s.MaxDepth), nil
		},
	},
	{
		Name:    "dpor",
		Summary: "one schedule per class of equivalent ones (partial-order reduction)",
		Doc: `dpor is dynamic partial-order reduction: it explores one schedule per
class of equivalent ones (those that order every pair of conflicting
operations alike) and says when it covered them all. By default with
wakeup trees (optimal DPOR, Abdulla, Aronis, Jonsson and Sagonas, POPL
2014), which run each sequence that reverses a race once; -dpor source
uses source sets alone (Flanagan and Godefroid, POPL 2005, with source
sets), and -preemptions K bounds it to K preemptions (source sets).
Under -workers it runs in rounds of jobs, whatever their number, one too.`,
		Systematic: true,
		Covered:    "every interleaving covered up to the order of independent operations",
		Workers:    SplitRounds,
		NoShard:    "what one part of its search finds (the races to reverse) decides what others explore, and shards do not hear from one another",
		Flags:      []string{"-dpor", "-preemptions"},
		New:        newDPOR,
	},
	{
		Name:    "pcb",
		Summary: "every schedule with at most -preemptions preemptions",
		Doc: `pcb is preemption-bounded search (Musuvathi and Qadeer, PLDI 2007):
every schedule with at most -preemptions K preemptions (default 2),
fewest first, and it says when it covered them all. Most bugs need few
preemptions.`,
		Systematic: true,
		Covered:    "every interleaving covered",
		Workers:    SplitSubtrees,
		Shards:     true,
		Flags:      []string{"-preemptions"},
		New: func(s *Setup) (strategy.Strategy, error) {
			k := s.Preemptions
			if k <= 0 {
				k = DefaultPreemptions
			}
			if s.Jobs != nil {
				return strategy.NewPCBJobs(s.Jobs, k, s.MaxDepth), nil
			}
			return strategy.NewPCB(k, s.MaxDepth), nil
		},
	},
	{
		Name:    "hapset",
		Seeded:  true,
		Learns:  true,
		Summary: "dpor that skips orderings passing schedules covered (HaPSets)",
		Doc: `hapset is dpor (or pcb, -hapset-search) guided by HaPSets (Wang, Said
and Gupta, "Coverage guided systematic concurrency testing", ICSE 2011):
it reorders two conflicting operations only when that order was never
seen in a passing schedule, so it skips schedules that show nothing new.
It learns from -hapset-learn random schedules first (default 10), then
from every passing one, and keeps what it learned per package and test in
the cache directory, so that the next run goes on from there
(-hapset-reset forgets it); -hapset-k sets the call sites of a statement.
Unsound by design, it never says the space was covered
(docs/systematic.md).`,
		Systematic: true,
		NoShard:    "what one part of its search finds (the races to reverse, and the orderings learned) decides what others explore, and shards do not hear from one another",
		Flags:      []string{"-hapset-search", "-hapset-k", "-hapset-learn", "-hapset-reset", "-preemptions"},
		New:        newHaPSet,
	},
	{
		Name:    "mcr",
		Summary: "a solver finds schedules where a read gets a new value",
		Doc: `mcr is maximal causality reduction (Huang, PLDI 2015): after each
schedule, a solver (Z3) finds schedules in which a read returns a value it
never returned, so every schedule reaches a new state. It reorders memory
accesses, Mutex critical sections (and looks for states where a goroutine
waits for a lock another holds: deadlocks) and channel operations as far
as each receive gets the same send, and keeps the order of the operations
on other objects. -v says how many queries it made and, when it did not
cover every state, why; -solver-timeout bounds the solver per schedule.
The solver links Z3's C library: the first run builds it into the cache
directory, and exits 2 naming the package to install (libz3-dev) where
Z3 is missing (docs/mpc.md).`,
		Systematic:   true,
		Covered:      "every state covered (each read's every value)",
		NoShard:      "each schedule comes from what the solver made of the schedules before it",
		MemoryPoints: true,
		Solver:       MCRSolver,
		Flags:        []string{"-solver-timeout"},
		New: func(s *Setup) (strategy.Strategy, error) {
			if s.MCRSolver == nil {
				return nil, fmt.Errorf("strategy mcr needs a solver")
			}
			return causal.NewMCR(s.MCRSolver, s.SolverTimeout), nil
		},
	},
	{
		Name:    "mpc",
		Summary: "a solver finds inputs and schedules for every new path",
		Doc: `mpc is maximal path causality (Yi and Huang, "Concurrency verification
with maximal path causality", FSE 2018): in a fuzz test's body (f.Fuzz),
the integer, boolean, string and []byte arguments are symbolic, and the
branches on them and on values read from shared memory are recorded; the
solver finds, from each run, inputs and schedules together that take each
new path once, starting from each seed of the corpus, and a finding's
schedule file holds its input. A test without such arguments runs under
mcr. Its search stays in the test binary, which hands the next runs of its
queue to -workers processes, and its solver checks go to a pool of solver
processes. -mpc simple gives up paths an unsatisfiable core blocks
(faster, and misses paths).`,
		Systematic:   true,
		Covered:      "every path covered (inputs and schedules)",
		NoShard:      "each schedule comes from what the solver made of the schedules before it",
		MemoryPoints: true,
		Solver:       MPCSolver,
		Flags:        []string{"-mpc", "-solver-timeout"},
		New: func(s *Setup) (strategy.Strategy, error) {
			if s.MPCSolver == nil && s.Inputs == nil {
				return nil, fmt.Errorf("strategy mpc needs a solver")
			}
			m := causal.NewMPC(s.MPCSolver, s.Inputs, s.SolverTimeout)
			for _, in := range s.Strings {
				m.StringInput(in.Arg, in.Seed, int(s.Inputs[in.Arg].Max))
			}
			m.Sound = s.MPC != "simple"
			return m, nil
		},
	},
	{
		Name:    "active",
		Seeded:  true,
		Summary: "analyses predict bugs; directed schedules confirm them",
		Doc: `active is active testing (CalFuzzer: Joshi, Naik, Park and Sen, CAV
2009; RaceFuzzer, Sen PLDI 2008; DeadlockFuzzer, Joshi et al. PLDI 2009;
AtomFuzzer, Park and Sen FSE 2008): 5 random schedules observed by
analyses that predict races, deadlocks (lock cycles, a lock held across a
channel, WaitGroup or Cond wait) and atomicity violations, then for each
prediction up to 100 schedules that pause goroutines at its statements
until the bug can happen. -v and -json list every prediction as
potential, confirmed or unconfirmed (never a failure)
(docs/active-testing.md).`,
		NoShard:      "its directed schedules come from what its observed schedules predicted",
		MemoryPoints: true,
		New: func(s *Setup) (strategy.Strategy, error) {
			return active.New(active.Config{Seed: s.Seed, Schedules: s.Schedules}), nil
		},
	},
	{
		Name:     "replay",
		Summary:  "the choices of a schedule file, again",
		Doc:      `replay runs the choices of a schedule file again ("interleave replay").`,
		Internal: true,
		New: func(s *Setup) (strategy.Strategy, error) {
			return strategy.NewReplay(s.Replay), nil
		},
	},
	{
		Name:    "regression",
		Summary: "steers toward events similar to a bug's signature",
		Doc: `regression steers the scheduler toward events similar to a fixed bug's
signature ("interleave regress"; RegressionMaple: Tsui, Wu and Chan,
"Toward a methodology to expose partially fixed concurrency bugs in
modified multithreaded programs").`,
		Internal:     true,
		MemoryPoints: true,
		New: func(s *Setup) (strategy.Strategy, error) {
			if len(s.Signature) == 0 || s.SitePos == nil {
				return nil, fmt.Errorf("strategy regression needs a bug signature")
			}
			return regress.NewRegression(s.Seed, s.Signature, s.SitePos), nil
		},
	},
}

// Lookup returns the strategy named name ("" is random), or nil.
func Lookup(name string) *Spec {
	if name == "" {
		name = "random"
	}
	for _, s := range All {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Names returns the names -strategy takes, in order.
func Names() []string {
	var names []string
	for _, s := range All {
		if !s.Internal {
			names = append(names, s.Name)
		}
	}
	return names
}

// Systematic reports whether the strategy named name is systematic
// (Spec.Systematic).
func Systematic(name string) bool {
	s := Lookup(name)
	return s != nil && s.Systematic
}

// New makes the strategy named name.
func New(name string, s *Setup) (strategy.Strategy, error) {
	spec := Lookup(name)
	if spec == nil {
		return nil, fmt.Errorf("unknown strategy %q (want %s)", name, orList(Names()))
	}
	return spec.New(s)
}

// orList spells names as "a, b or c".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	out := ""
	for i, n := range names[:len(names)-1] {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out + " or " + names[len(names)-1]
}

func newDPOR(s *Setup) (strategy.Strategy, error) {
	switch {
	case s.DPOR != "" && s.DPOR != "optimal" && s.DPOR != "source":
		return nil, fmt.Errorf("strategy dpor: unknown reduction %q (want optimal or source)", s.DPOR)
	case s.Preemptions > 0 && s.DPOR == "optimal":
		return nil, fmt.Errorf("strategy dpor: a preemption bound uses source sets, not wakeup trees (optimal)")
	case s.Rounds != nil:
		optimal, bound := s.DPOR != "source" && s.Preemptions <= 0, -1
		if s.Preemptions > 0 {
			bound = s.Preemptions
		}
		return dpor.NewJobs(s.Rounds, optimal, bound, s.MaxDepth), nil
	case s.Preemptions > 0:
		return dpor.NewBounded(s.Preemptions, s.MaxDepth), nil
	case s.DPOR == "source":
		return dpor.NewSource(s.MaxDepth), nil
	}
	return dpor.NewOptimal(s.MaxDepth), nil
}

func newHaPSet(s *Setup) (strategy.Strategy, error) {
	h := s.HaPSet
	var search *dpor.DPOR
	switch h.Search {
	case "", "dpor":
		search = dpor.NewSource(s.MaxDepth)
	case "pcb":
		// The paper's preemption bounding backtracks at races, as dpor
		// does: dpor bounded to K preemptions.
		k := s.Preemptions
		if k <= 0 {
			k = DefaultPreemptions
		}
		search = dpor.NewBounded(k, s.MaxDepth)
	default:
		return nil, fmt.Errorf("strategy hapset: unknown search %q (want dpor or pcb)", h.Search)
	}
	k, learn := defaultTo(h.K, hapset.DefaultK), defaultTo(h.Learn, hapset.DefaultLearn)
	store := h.Store
	if store == nil {
		store = hapset.NewHaPSets()
	}
	siteKey := h.SiteKey
	if siteKey == nil {
		siteKey = func(site uint32) uint64 { return uint64(site) }
	}
	return hapset.NewHaPSet(search, store, k, learn, s.Seed, siteKey), nil
}

// defaultTo reads a count whose zero means def and whose negative values
// mean none.
func defaultTo(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}
