package sched

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

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
	// IdleTimers lets a timer fire only when no goroutine can run.
	IdleTimers bool
}

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
}

// Explorer runs iterations.
type Explorer struct {
	cfg   Config
	strat strategy.Strategy
	race  *race.Detector

	// Buffers handed from one iteration to the next, so that the steady
	// state does not allocate.
	choices []int
	trace   []event.Event
	opts    []strategy.Option
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
	x := &Explorer{cfg: cfg, strat: cfg.Strategy}
	if cfg.Race {
		x.race = race.New()
	}
	start := time.Now()
	r := &Result{}
	for r.Iterations < cfg.Schedules {
		if cfg.Budget > 0 && time.Since(start) > cfg.Budget {
			break
		}
		if !x.strat.Begin() {
			if e, ok := x.strat.(strategy.Exhaustive); ok {
				r.Exhausted = e.Complete()
			}
			break
		}
		r.Iterations++
		it := x.run(body)
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
	if r.Finding == nil && r.Diverged == "" && !r.Skipped && r.Iterations < cfg.Schedules {
		if e, ok := x.strat.(strategy.Exhaustive); ok {
			r.Exhausted = e.Complete()
		}
	}
	r.Elapsed = time.Since(start)
	return r
}

func (x *Explorer) newIteration() *Iteration {
	it := &Iteration{
		x:       x,
		objs:    make(map[unsafe.Pointer]*object),
		hash:    fnvOffset,
		done:    make(chan struct{}),
		trace:   x.trace[:0],
		choices: x.choices[:0],
		opts:    x.opts[:0],
	}
	if x.race != nil {
		x.race.Reset()
		it.race = x.race
	}
	return it
}

// run runs one iteration to its end and unwinds it.
func (x *Explorer) run(body func()) *Iteration {
	it := x.newIteration()
	it.main = it.spawn(nil, 0, body, 0)
	it.cur = it.main
	it.main.wake <- struct{}{}
	if x.wait(it) {
		it.stuck()
	}
	it.unwind()
	if it.finding != nil {
		it.attachStacks(it.finding)
		// The finding keeps the trace; the next iteration gets its own.
		x.trace = nil
	} else {
		x.trace = it.trace
	}
	x.choices, x.opts = it.choices, it.opts
	return it
}

// wait waits for the iteration to end, watching that it makes progress.
// It returns true if the running goroutine stayed in uncontrolled code for
// longer than the bound.
func (x *Explorer) wait(it *Iteration) bool {
	bound := x.cfg.StuckAfter
	if bound <= 0 {
		<-it.done
		return false
	}
	tick := time.NewTicker(bound / 4)
	defer tick.Stop()
	last, since := it.progress.Load(), time.Now()
	for {
		select {
		case <-it.done:
			return false
		case <-tick.C:
			if p := it.progress.Load(); p != last {
				last, since = p, time.Now()
			} else if time.Since(since) >= bound {
				return true
			}
		}
	}
}

// stuck ends an iteration whose running goroutine does not come back from
// uncontrolled code. That goroutine is abandoned: when it comes back, its
// next operation unwinds it.
func (it *Iteration) stuck() {
	g := it.cur
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var stacks []string
	for _, s := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(s, "rt/internal/sched.(*Iteration).run") && !strings.Contains(s, "sched.(*G).park") {
			stacks = append(stacks, s)
		}
	}
	gi := GoroutineInfo{ID: g.ID, Main: g == it.main, SpawnSite: g.spawnSite, Status: "running code the tool does not control", Stack: strings.Join(stacks, "\n\n")}
	where := "real I/O, a system call, or an uninstrumented package blocking natively"
	if len(stacks) > 0 {
		if w := stuckWhere(stacks[0]); w != "" {
			where = w
		}
	}
	it.finding = &Finding{
		Kind:       KindStuck,
		Message:    fmt.Sprintf("goroutine %d made no progress for %v inside code the tool does not control (%s)", g.ID, it.x.cfg.StuckAfter, where),
		Goroutines: []GoroutineInfo{gi},
		Trace:      it.trace,
	}
	it.wantStacks = true
	it.ended = true
	g.abort = true
	g.state = gDone // not waited for
}

// unwind ends every goroutine of a finished iteration. Goroutines parked by
// the scheduler exit through runtime.Goexit, running their deferred calls,
// whose scheduler operations unwind too instead of running.
func (it *Iteration) unwind() {
	for _, g := range it.gs {
		if g.state == gDone {
			continue
		}
		g.abort = true
		select {
		case g.wake <- struct{}{}:
		default:
		}
		select {
		case <-g.exited:
		case <-time.After(time.Second):
			// Stuck in uncontrolled code in a deferred call; abandoned.
		}
	}
}
