package sched

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
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
}

// Explorer runs iterations.
type Explorer struct {
	cfg   Config
	strat strategy.Strategy
	race  *race.Detector

	// Buffers handed from one iteration to the next, so that the steady
	// state does not allocate.
	choices  []int
	trace    []event.Event
	preempts []int
	opts     []strategy.Option
	tick     *time.Ticker // the watchdog's, reset for each iteration

	hubs hubs // the hubs that run coroutines (handoff.go)
}

// exploring serializes explorations in one process: the controlled world
// is one at a time.
var exploring sync.Mutex

// Explore runs body under the explorer until a finding, the budget, or an
// exhausted space. body runs as the main goroutine of every iteration; hooks
// for the test API (failures, logs, cleanups) are reached through Current.
func Explore(cfg Config, body func()) *Result {
	exploring.Lock()
	defer exploring.Unlock()
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
	x := &Explorer{cfg: cfg, strat: cfg.Strategy}
	x.hubs.work = make(chan *Iteration, 1)
	defer x.stopHubs()
	if cfg.Race {
		x.race = race.New()
	}
	start := time.Now()
	r := &Result{}
	var deadline time.Time
	if cfg.Budget > 0 {
		deadline = start.Add(cfg.Budget)
	}
	ind, split := x.strat.(strategy.Independent)
	split = split && cfg.Next != nil
	reported := start // when Progress was last called
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
			if num > 1 && ind.Calibrate() {
				x.calibrate(ind, body, deadline)
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
		it := x.run(body, num, deadline)
		if it.overBudget.Load() && (r.Iterations > 1 || split && num > 1) {
			// The budget ran out during this schedule: the ones before
			// it are the exploration. Only a first schedule (schedule 1,
			// when split) that does not end within the budget is
			// reported.
			r.Iterations--
			break
		}
		r.Logs, r.Hash, r.Steps, r.Skipped = it.logs, it.hash, it.steps, it.skipped
		r.Choices = append(r.Choices[:0], it.choices...)
		x.strat.End(strategy.Outcome{Finding: it.finding != nil, Points: it.points, Steps: it.steps})
		if rp, ok := x.strat.(*strategy.Replay); ok && it.diverged == "" {
			switch {
			case !rp.Consumed():
				it.diverged = "the run ended before the schedule did"
			case cfg.ExpectHash != 0 && it.hash != cfg.ExpectHash:
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
	r.Elapsed = time.Since(start)
	return r
}

// calibrate runs schedule 1 for a strategy that learns from it, without
// reporting what it finds: the process that owns schedule 1 reports that.
func (x *Explorer) calibrate(s strategy.Independent, body func(), deadline time.Time) {
	s.BeginAt(1)
	it := x.run(body, 1, deadline)
	s.End(strategy.Outcome{Finding: it.finding != nil, Points: it.points, Steps: it.steps})
}

// mapSeed returns the seed of the map orders of schedule number num.
func (x *Explorer) mapSeed(num int) uint64 {
	if x.cfg.FixedOrder {
		num = 0
	}
	return mix(uint64(x.cfg.OrderSeed), uint64(num))
}

// newIteration returns the iteration that runs schedule number num.
func (x *Explorer) newIteration(num int) *Iteration {
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
	it.setCur(it.main)
	it.wake(it.main)
	if x.wait(it, deadline) {
		it.stuck()
	}
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

// wait waits for the iteration to end, watching that it makes progress
// and, from deadline on (if not zero), asking it to stop at its next
// scheduling point. It returns true if the running goroutine stayed in
// uncontrolled code for longer than the bound.
func (x *Explorer) wait(it *Iteration, deadline time.Time) bool {
	var over <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		over = t.C
	}
	bound := x.cfg.StuckAfter
	if x.tick == nil {
		x.tick = time.NewTicker(reapAfter / 4)
	} else {
		x.tick.Reset(reapAfter / 4)
	}
	tick := x.tick
	defer tick.Stop()
	last, since := it.gate.Load(), time.Now()
	for {
		select {
		case <-it.done:
			return false
		case <-over:
			it.overBudget.Store(true)
			over = nil
		case <-tick.C:
			if p := it.gate.Load(); p != last {
				last, since = p, time.Now()
				continue
			}
			idle := time.Since(since)
			if bound > 0 && idle >= bound {
				return true
			}
			if idle >= reapAfter && it.adoptions.Load() > 0 {
				it.reap()
			}
		}
	}
}

// stuck ends an iteration whose running goroutine does not come back from
// uncontrolled code. That goroutine is abandoned: when it comes back, its
// next operation unwinds it.
func (it *Iteration) stuck() {
	g := it.cur
	idle := it.held.Load() == nil
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var stacks []string
	for _, s := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(s, "rt/internal/sched.(*Iteration).run") && !strings.Contains(s, "sched.(*G).park") {
			stacks = append(stacks, s)
		}
	}
	where := "real I/O, a system call, or an uninstrumented package blocking natively"
	if len(stacks) > 0 {
		if w := stuckWhere(stacks[0]); w != "" {
			where = w
		}
	}
	msg := fmt.Sprintf("goroutine %d made no progress for %v inside code the tool does not control (%s)", g.ID, it.x.cfg.StuckAfter, where)
	var gs []GoroutineInfo
	if idle {
		msg = fmt.Sprintf("no goroutine could run for %v: those that could go on are inside code the tool does not control (%s)", it.x.cfg.StuckAfter, where)
		for _, o := range it.live {
			if o.state == gOut {
				gs = append(gs, GoroutineInfo{ID: o.ID, Main: o == it.main, SpawnSite: o.spawnSite, Status: "running code the tool does not control"})
			}
		}
		if len(gs) > 0 {
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
}

// unwind ends every goroutine of a finished iteration. Goroutines parked by
// the scheduler exit through runtime.Goexit, running their deferred calls,
// whose scheduler operations unwind too instead of running.
func (it *Iteration) unwind() {
	for _, g := range it.gs {
		if g.state == gDone || g.state == gOut {
			// One in uncontrolled code unwinds when it comes back, or
			// runs on natively if it was adopted (comeBack).
			continue
		}
		g.abort = true
		ended := g.unwindParked()
		select {
		case <-ended:
		case <-time.After(time.Second):
			// Stuck in uncontrolled code in a deferred call; abandoned.
		}
	}
}
