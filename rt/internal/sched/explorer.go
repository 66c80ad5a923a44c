package sched

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/race"
	"interleave.dev/rt/internal/strategy"
)

// Config configures an exploration.
type Config struct {
	Strategy   strategy.Strategy
	Schedules  int           // iterations at most
	Budget     time.Duration // wall-clock bound (0: none)
	Race       bool          // happens-before race detection
	Leaks      bool          // report goroutines blocked at test end
	MaxSteps   int           // scheduling points per iteration before a livelock
	StuckAfter time.Duration // uncontrolled-code bound (0: none)
	// ExpectHash, when non-zero, is the event hash a replay must reproduce.
	ExpectHash uint64
	// Timers says when a timer may fire before its time, while goroutines
	// could still run; Stall bounds how early under TimersStall.
	Timers TimerPolicy
	Stall  time.Duration
	// MaxGoroutines bounds the live goroutines of an iteration (default
	// 100000).
	MaxGoroutines int
	// MaxChoices bounds the choice points of an iteration, its history
	// (default 10000000).
	MaxChoices int
	// MaxObjects bounds the objects an iteration tracks (memory words,
	// channels, locks...), the memory of the race detector (default
	// 16000000).
	MaxObjects int
	// OrderSeed and FirstIteration choose the orders of map ranges: the
	// n-th iteration (counting from FirstIteration, default 1) draws them
	// from OrderSeed and n, so a schedule file's seed and iteration give
	// them back. With FixedOrder they draw from OrderSeed alone (and the
	// events so far), as a systematic strategy needs: its program must be
	// a function of the choices, whatever the iteration's number.
	OrderSeed      int64
	FirstIteration int
	FixedOrder     bool
	// FixedRand gives every iteration's math/rand sources the seed
	// OrderSeed (Iteration.RandSeed), as a systematic strategy needs;
	// without it the n-th iteration's seed is drawn from OrderSeed and n.
	FixedRand bool
	// Symbolic, when set, is the tracker of symbolic values the
	// instrumented program reports to (strategy mpc): Iteration.Symbolic
	// gives it to the running iteration's hooks, and Symbolic says one
	// runs.
	Symbolic any
	// Next, when set, gives the number of the next schedule to run
	// (increasing; 0: no more), for an exploration split between
	// processes: the strategy must be strategy.Independent, and schedule
	// numbers count from 1 (FirstIteration is ignored). A strategy that
	// must calibrate sees schedule 1 run first, whoever owns it.
	Next func() int
	// Progress, when set, is called between schedules at most every
	// ProgressEvery with the number of schedules run and the time spent
	// so far, so that a long exploration can show how it is going.
	Progress func(schedules int, elapsed time.Duration)
	// LeakNotes tells a leak that depends on the interleaving, a finding,
	// from one that every schedule shows, which it reports in
	// Result.NeverStops instead (leaks.go). LeakReference is what schedule
	// 1 left behind, for a process that does not run schedule 1 first (nil:
	// it is learned from schedule 1, run first, or calibrated by an
	// Independent strategy under Next).
	LeakNotes     bool
	LeakReference *LeakRef
	// NoCalibration: under Next, schedule 1 is not run first to learn
	// what it leaves behind (for a process that explores a test afresh,
	// where running it first would leave the state it avoids).
	NoCalibration bool
	// RacesOnly keeps only data races as findings: a schedule that ends
	// in any other finding counts as passed (the search for races that
	// need a goroutine stalled, under TimersStallAll, whose other
	// findings the default policy does not assume).
	RacesOnly bool
	// TimingNotes tells a test failure that only a schedule firing a
	// timer early shows (the test's timeout beat work that could still
	// run: a timing assumption of the test) from a finding: the first
	// such failure goes to Result.Timing and the exploration goes on.
	TimingNotes bool
	// Reduce leaves out the scheduling points of plain memory accesses
	// when Race is on (Stoller's reduction; see Access): at most
	// QuietRun accesses of a goroutine in a row are no point.
	Reduce bool
}

// QuietRun bounds the plain memory accesses in a row that Config.Reduce
// lets a goroutine make without a scheduling point, so that a goroutine
// that polls a variable still yields.
const QuietRun = 64

// ProgressEvery is the least time between two calls of Config.Progress:
// one clock read per schedule decides, the schedules between calls cost
// nothing more.
const ProgressEvery = 200 * time.Millisecond

// Result is the outcome of an exploration.
type Result struct {
	Iterations int
	Finding    *Finding
	Diverged   string // why a replay no longer matches the program
	Skipped    bool
	Logs       []string // logs of the last iteration
	Exhausted  bool     // a systematic strategy covered its whole space
	Choices    []int    // choices of the last iteration
	Hash       uint64   // event hash of the last iteration
	Steps      int      // scheduling points of the last iteration
	Elapsed    time.Duration
	// Last is the number of the last schedule run (the finding's): with
	// Config.Next, not the count of schedules run.
	Last int
	// FindingIteration, when not 0, is the number of the schedule whose
	// choices (Choices) show the finding, when it is not Last: a leak of
	// schedule 1 that schedule Last showed to depend on the interleaving
	// (Config.LeakNotes).
	FindingIteration int
	// NeverStops are the goroutines that every schedule run left behind,
	// with Config.LeakNotes: a leak that does not depend on the
	// interleaving, not a finding.
	NeverStops []GoroutineInfo
	// LeakKeys are the goroutines schedule 1 left behind, with
	// Config.LeakNotes (leaks.go).
	LeakKeys []LeakKey
	// Timing, with Config.TimingNotes, is the first test failure whose
	// schedule fired a timer early, which did not end the exploration,
	// and TimingIteration the number of its schedule.
	Timing          *Finding
	TimingIteration int
	// Held says a timer due within Config.Stall was kept from firing
	// early, under TimersStall, only because what waited for it was a
	// sleep or a lone wait on it: a search under TimersStallAll may show
	// races this one cannot.
	Held bool
}

// Explorer runs iterations.
type Explorer struct {
	cfg   Config
	strat strategy.Strategy
	race  *race.Detector

	// memRead: an iteration's program read the allocator's counters, so
	// the next iterations keep the depth of the tool's work from their
	// start (alloc.go).
	memRead bool

	// Buffers handed from one iteration to the next, so that the steady
	// state does not allocate.
	choices  []int
	trace    []event.Event
	preempts []int
	opts     []strategy.Option
	tick     *time.Ticker // the watchdog's, reset for each iteration

	hubs hubs // the hubs and workers of the coroutines (handoff.go)

	epoch time.Time // when every iteration starts (epoch.go)

	leaksChecked bool // the test checks for leaks itself (CheckLeaks)
	held         bool // Result.Held
}

// exploring serializes explorations in one process: the controlled world
// is one at a time.
var exploring sync.Mutex

// newExplorer returns the explorer of cfg, with its defaults set.
func newExplorer(cfg Config) *Explorer {
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 1000000
	}
	if cfg.Schedules <= 0 {
		cfg.Schedules = 1000
	}
	if cfg.MaxGoroutines <= 0 {
		cfg.MaxGoroutines = 100000
	}
	if cfg.MaxObjects <= 0 {
		cfg.MaxObjects = 16000000
	}
	if cfg.MaxChoices <= 0 {
		cfg.MaxChoices = 10000000
	}
	x := &Explorer{cfg: cfg, strat: cfg.Strategy, epoch: epochFor(time.Now())}
	x.hubs.work = make(chan hubWork, 1)
	if cfg.Race {
		x.race = race.New()
	}
	return x
}

// Explore runs body under the explorer until a finding, the budget, or an
// exhausted space. body runs as the main goroutine of every iteration; hooks
// for the test API (failures, logs, cleanups) are reached through Current.
func Explore(cfg Config, body func()) *Result {
	exploring.Lock()
	defer exploring.Unlock()
	x := newExplorer(cfg)
	cfg = x.cfg
	if cfg.Symbolic != nil {
		symbolic.Store(true)
		defer symbolic.Store(false)
	}
	defer x.stopHubs()
	start := time.Now()
	r := &Result{}
	var deadline time.Time
	if cfg.Budget > 0 {
		deadline = start.Add(cfg.Budget)
	}
	ind, split := x.strat.(strategy.Independent)
	split = split && cfg.Next != nil
	ref := cfg.LeakReference // what schedule 1 left behind (leaks.go)
	reported := start        // when Progress was last called
	// last is the last schedule run: its event hash, read from its trace
	// once the exploration is over, is the result's.
	var last *Iteration
	for r.Iterations < cfg.Schedules {
		if cfg.Progress != nil && r.Iterations > 0 {
			if now := time.Now(); now.Sub(reported) >= ProgressEvery {
				reported = now
				cfg.Progress(r.Iterations, now.Sub(start))
			}
		}
		if cfg.Budget > 0 && time.Since(start) > cfg.Budget {
			break
		}
		num := cfg.FirstIteration
		if num <= 0 {
			num = 1
		}
		num += r.Iterations
		if split {
			if num = cfg.Next(); num <= 0 || num > cfg.Schedules {
				break
			}
			if num > 1 && (ind.Calibrate() || cfg.LeakNotes && ref == nil && !cfg.NoCalibration) {
				if last != nil {
					last.eventHash() // before another run takes its trace
				}
				ref = x.calibrate(ind, body, deadline)
			}
			ind.BeginAt(num)
		} else if !x.strat.Begin() {
			if e, ok := x.strat.(strategy.Exhaustive); ok {
				r.Exhausted = e.Complete()
			}
			break
		}
		r.Iterations++
		r.Last = num
		if last != nil && cfg.Budget > 0 {
			// The next run takes last's trace, and may run out of the
			// budget: last's hash is then the result's.
			last.eventHash()
		}
		it := x.run(body, num, deadline)
		if it.overBudget.Load() && (r.Iterations > 1 || split && num > 1) {
			// The budget ran out during this schedule: the ones before
			// it are the exploration. Only a first schedule (schedule 1,
			// when split) that does not end within the budget is
			// reported.
			r.Iterations--
			break
		}
		if f := it.finding; f != nil && f.bound && num == 1 && it.diverged == "" {
			// Schedule 1 of the test past a bound: not explored, as past
			// the budget. A replay keeps its schedule's number, so that
			// the replay of a later schedule's limit is that limit again.
			f.Unexplored = true
		}
		var fromRef *LeakRef // schedule 1, whose leak this schedule shows depends on the interleaving
		if cfg.LeakNotes && !x.leaksChecked && !leaksEverywhere.Load() && it.diverged == "" && (it.finding == nil || it.finding.Kind == KindLeak) {
			keys := leakKeys(it.finding)
			switch {
			case timedOut(keys):
				// Lost to a timeout: a finding, whatever other
				// schedules do.
				if ref == nil && num == 1 {
					ref = refOf(it)
				}
				it.finding.Message += " (it waits on a channel a select gave up at a timeout: the leak depends on which came first)"
			case ref == nil && num == 1:
				ref = refOf(it)
				it.finding = nil // decided by the schedules to come
			case ref == nil:
				// No reference: a replay, or a share of the schedules
				// that was given none; a leak is a finding, as without
				// LeakNotes.
			case newKeys(keys, ref.Keys):
				// A goroutine schedule 1 did not leave: the finding.
			case !sameKeys(keys, it.startedOf(ref.Keys)) && ref.Finding != nil:
				fromRef, it.finding = ref, nil
			case !sameKeys(keys, it.startedOf(ref.Keys)):
				// It lacks a goroutine schedule 1 left, which another
				// process saw: that process reports it.
				it.finding = nil
			default:
				it.finding = nil // what every schedule so far left
			}
		}
		if cfg.TimingNotes && it.diverged == "" && it.finding != nil && it.finding.Kind == KindTestFailure && len(it.finding.EarlyTimers) > 0 {
			if r.Timing == nil {
				r.Timing, r.TimingIteration = it.finding, num
			}
			it.finding = nil // a note, unless a search without stalls shows it (explore)
		}
		if cfg.RacesOnly && it.diverged == "" && it.finding != nil && it.finding.Kind != KindRace {
			it.finding = nil
		}
		r.Logs, r.Steps, r.Skipped = it.logs, it.steps, it.skipped
		last = it
		r.Choices = append(r.Choices[:0], it.choices...)
		x.strat.End(strategy.Outcome{Finding: it.finding != nil || fromRef != nil, Points: it.points, Steps: it.steps})
		if fromRef != nil {
			f := *fromRef.Finding
			f.Message = fmt.Sprintf("%s on schedule 1, and not on schedule %d: the leak depends on the interleaving", f.Message, num)
			r.Finding, r.Choices, r.Hash, r.Steps, r.Logs = &f, fromRef.Choices, fromRef.Hash, fromRef.Steps, fromRef.Logs
			r.FindingIteration = 1
			last = nil
			break
		}
		if ref != nil && it.finding != nil && it.finding.Kind == KindLeak && num > 1 && !timedOut(leakKeys(it.finding)) {
			it.finding.Message += " (schedule 1 left no such goroutine: the leak depends on the interleaving)"
		}
		if rp, ok := x.strat.(*strategy.Replay); ok && it.diverged == "" {
			switch {
			case !rp.Consumed():
				it.diverged = "the run ended before the schedule did"
			case cfg.ExpectHash != 0 && it.eventHash() != cfg.ExpectHash:
				it.diverged = "the run took the schedule's choices but its events differ"
			}
		}
		if it.diverged != "" {
			r.Diverged = it.diverged
			break
		}
		if it.finding != nil {
			r.Finding = it.finding
			break
		}
		if it.skipped {
			break
		}
	}
	if r.Finding == nil && r.Diverged == "" && !r.Skipped && r.Iterations < cfg.Schedules && !split {
		if e, ok := x.strat.(strategy.Exhaustive); ok {
			r.Exhausted = e.Complete()
		}
	}
	if ref != nil && ref.Finding != nil && r.Finding == nil && r.Diverged == "" {
		r.NeverStops = ref.Finding.Goroutines
	}
	if ref != nil {
		r.LeakKeys = ref.Keys
	}
	if last != nil {
		r.Hash = last.eventHash()
	}
	r.Elapsed = time.Since(start)
	r.Held = x.held
	return r
}

// calibrate runs schedule 1 for a strategy that learns from it, without
// reporting what it finds: the process that owns schedule 1 reports that.
func (x *Explorer) calibrate(s strategy.Independent, body func(), deadline time.Time) *LeakRef {
	s.BeginAt(1)
	it := x.run(body, 1, deadline)
	s.End(strategy.Outcome{Finding: it.finding != nil, Points: it.points, Steps: it.steps})
	return refOf(it)
}

// mapSeed returns the seed of the map orders of schedule number num.
func (x *Explorer) mapSeed(num int) uint64 {
	if x.cfg.FixedOrder {
		num = 0
	}
	return mix(uint64(x.cfg.OrderSeed), uint64(num))
}

// RandSeed returns the seed of the iteration's math/rand sources: a
// function of the exploration's seed and the iteration's number, or of the
// seed alone under Config.FixedRand.
func (it *Iteration) RandSeed() int64 {
	seed := it.x.cfg.OrderSeed
	if it.x.cfg.FixedRand {
		return seed
	}
	return int64(splitmix(uint64(seed) ^ splitmix(uint64(it.num))))
}

// splitmix is the SplitMix64 finalizer: a bijective mix of x.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// symbolic is set while an exploration with a Config.Symbolic runs.
var symbolic atomic.Bool

// Symbolic reports whether an exploration with a tracker of symbolic
// values runs: the hooks that report such values test it first, so that
// they cost one load when none does.
func Symbolic() bool { return symbolic.Load() }

// Symbolic returns the tracker of symbolic values of the iteration's
// exploration (Config.Symbolic), or nil.
func (it *Iteration) Symbolic() any { return it.x.cfg.Symbolic }

// newIteration returns the iteration that runs schedule number num.
func (x *Explorer) newIteration(num int) *Iteration {
	resetProcs()
	it := &Iteration{
		x:        x,
		num:      num,
		mapSeed:  x.mapSeed(num),
		objs:     make(map[uintptr]*object),
		hash:     fnvOffset,
		epoch:    1,
		done:     make(chan struct{}),
		trace:    x.trace[:0],
		preempts: x.preempts[:0],
		choices:  x.choices[:0],
		opts:     x.opts[:0],
	}
	_, it.indexed = x.strat.(strategy.Indexed)
	it.strat = x.strat
	it.toolTrack = x.memRead
	it.goOn, _ = x.strat.(strategy.GoerOn)
	it.view.it = it
	it.runq.it = it
	if x.race != nil {
		x.race.Reset()
		it.race = x.race
	}
	it.obs, _ = x.strat.(strategy.Observer)
	it.vals, _ = x.strat.(strategy.Valuer)
	return it
}

// run runs schedule number num to its end, or until deadline (if not
// zero), and unwinds it.
func (x *Explorer) run(body func(), num int, deadline time.Time) *Iteration {
	it := x.newIteration(num)
	it.main = it.spawn(nil, 0, body, 0)
	// The watchdog's timers are made before the program runs: made
	// after, the explorer's allocations could fall between two of the
	// program's reads of the allocator's counters (alloc.go).
	var over <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		over = t.C
	}
	if x.tick == nil {
		x.tick = time.NewTicker(reapAfter / reapTicks)
	} else {
		x.tick.Reset(reapAfter / reapTicks)
	}
	it.setCur(it.main)
	it.wake(it.main)
	x.wait(it, over)
	it.unwind()
	if it.finding != nil {
		it.attachStacks(it.finding)
		// The finding keeps the trace; the next iteration gets its own.
		x.trace, x.preempts = nil, nil
	} else {
		x.trace, x.preempts = it.trace, it.preempts
	}
	x.choices, x.opts = it.choices, it.opts
	return it
}

// wait waits for the iteration to end, watching on x.tick that it makes
// progress and, once over fires (if not nil), asking it to stop at its
// next scheduling point. It ends the iteration as stuck when the running
// goroutine stays in uncontrolled code for longer than the bound.
func (x *Explorer) wait(it *Iteration, over <-chan time.Time) {
	bound := x.cfg.StuckAfter
	tick := x.tick
	defer tick.Stop()
	last, since := it.gate.Load(), time.Now()
	// reap dumps every stack, stopping the world for as long as the dump
	// takes (most of a second with thousands of goroutines): the next
	// one waits reapAfter, or ten times as long as the last took. And it
	// waits until the gate has stood still for reapTicks ticks seen, not
	// only for reapAfter: on a busy machine the process may not run for
	// that long, and a ticker drops the ticks it could not deliver, so
	// the holder had its share of the processor before it is taken for
	// blocked.
	var reapedAt, strandedAt time.Time
	var reapGap time.Duration
	still := 0 // ticks seen since the gate last moved
	for {
		select {
		case <-it.done:
			return
		case <-over:
			it.overBudget.Store(true)
			over = nil
		case <-tick.C:
			select {
			case <-it.done:
				// Both were ready and select chose the tick: the
				// holder handed the end on, and is parked, not stuck.
				return
			default:
			}
			if p := it.gate.Load(); p != last || it.reporting.Load() {
				// A finding being built is progress of the tool's own.
				last, since, still = p, time.Now(), 0
				continue
			}
			still++
			idle := time.Since(since)
			// As for a reap, the ticks seen count too: a process
			// descheduled past the bound (a loaded machine) lets the
			// goroutine the holder handed on run before it is judged.
			if bound > 0 && idle >= bound && still >= reapTicks {
				if it.busyInTool() {
					// The tool's own work (a range of millions of words
					// accounted for): the budget bounds it, not this.
					since, still = time.Now(), 0
					continue
				}
				if it.stuck() {
					return
				}
			}
			if idle >= strandAfter && time.Since(strandedAt) >= strandAfter {
				if it.stranded() {
					return
				}
				strandedAt = time.Now() // it dumps every stack
			}
			if idle >= reapAfter && still >= reapTicks && time.Since(reapedAt) >= reapGap {
				start := time.Now()
				it.reap()
				reapedAt = time.Now()
				reapGap = max(reapAfter, 10*reapedAt.Sub(start))
			}
			if idle >= timerGrace && it.timerHeld.Load() {
				it.fireHeldTimer()
			}
		}
	}
}

// stuck ends an iteration whose running goroutine does not come back from
// uncontrolled code. That goroutine is abandoned: when it comes back, its
// next operation unwinds it. It reports false, doing nothing, when a
// goroutine has begun to report a finding of its own (fail).
func (it *Iteration) stuck() bool {
	if !it.reporting.CompareAndSwap(false, true) {
		return false
	}
	g := it.cur
	idle := it.held.Load() == nil
	// The goroutines to show: the holder, or, when nobody holds the
	// schedule, those of this iteration that are out. A dump also has
	// goroutines abandoned by earlier iterations and tests, still blocked
	// where they were left: they are told apart by their ids.
	want := make(map[int64]bool)
	if idle {
		for _, o := range it.live {
			if o.state == gOut && o.goid != 0 {
				want[o.goid] = true
			}
		}
	} else if g.goid != 0 {
		want[g.goid] = true
	}
	buf := AllStacks(1 << 20)
	var stacks []string
	for _, s := range strings.Split(string(buf), "\n\n") {
		if len(want) > 0 {
			if id, _ := parseHeader([]byte(s)); want[id] {
				stacks = append(stacks, s)
			}
			continue
		}
		if strings.Contains(s, "rt/internal/sched.(*Iteration).run") && !strings.Contains(s, "sched.(*G).park") {
			stacks = append(stacks, s)
		}
	}
	where := "real I/O, a system call, or an uninstrumented package blocking natively"
	if len(stacks) > 0 {
		first := stacks[0]
		if m := stackByID(stacks, it.main.goid); m != "" {
			first = m // the test's own goroutine, when it is among them
		}
		if w := stuckWhere(first); w != "" {
			where = w
		}
	}
	msg := fmt.Sprintf("goroutine %d made no progress for %v inside code the tool does not control (%s)", g.ID, it.x.cfg.StuckAfter, where)
	var gs []GoroutineInfo
	if idle {
		msg = fmt.Sprintf("no goroutine could run for %v: those that could go on are inside code the tool does not control (%s)", it.x.cfg.StuckAfter, where)
		for _, o := range it.live {
			if o.state == gOut {
				gs = append(gs, GoroutineInfo{ID: o.ID, Main: o == it.main, SpawnSite: o.spawnSite, Status: "running code the tool does not control", Stack: stackByID(stacks, o.goid)})
			}
		}
		if len(gs) > 0 && len(want) == 0 {
			gs[0].Stack = strings.Join(stacks, "\n\n")
		}
	} else {
		gs = []GoroutineInfo{{ID: g.ID, Main: g == it.main, SpawnSite: g.spawnSite, Status: "running code the tool does not control", Stack: strings.Join(stacks, "\n\n")}}
	}
	it.finding = &Finding{
		Kind:       KindStuck,
		Message:    msg,
		Goroutines: gs,
		Trace:      it.trace,
	}
	it.wantStacks = true
	it.ended = true
	it.over.Store(true)
	it.closeDone() // arrivals from uncontrolled code stop waiting
	if !idle {
		g.abort = true
		g.state = gDone // not waited for
	}
	return true
}

// stackByID returns the entry of goroutine id among stacks, or "".
func stackByID(stacks []string, id int64) string {
	for _, s := range stacks {
		if i, _ := parseHeader([]byte(s)); i == id && id != 0 {
			return s
		}
	}
	return ""
}

// unwind ends every goroutine of a finished iteration. Goroutines parked by
// the scheduler exit through runtime.Goexit, running their deferred calls,
// whose scheduler operations unwind too instead of running.
func (it *Iteration) unwind() {
	for _, g := range it.gs {
		ended := it.unwindG(g)
		if ended == nil {
			continue
		}
		select {
		case <-ended:
		case <-time.After(time.Second):
			// Stuck in uncontrolled code in a deferred call; abandoned.
		}
	}
}
