package sched

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/race"
)

// Kinds of findings.
const (
	KindDeadlock    = "deadlock"
	KindLeak        = "goroutine leak"
	KindRace        = "data race"
	KindPanic       = "panic"
	KindTestFailure = "test failure"
	KindLivelock    = "livelock"
	KindFatal       = "fatal error"
	KindStuck       = "stuck"
	KindExit        = "exit" // os.Exit, log.Fatal: the process would end
	KindLimit       = "resource limit"
)

// GoroutineInfo describes one goroutine involved in a finding.
type GoroutineInfo struct {
	ID        int32
	Main      bool
	Status    string // what it was doing, e.g. "blocked in receive"
	Site      uint32 // where
	SpawnSite uint32 // where it was started (0 for the test goroutine)
	Stack     string // its stack, when captured
	NoStack   bool   // its stack at the end of the run would mislead (an earlier racing access)
	WaitsFor  int32  // the goroutine holding the lock it waits for (0: none known)
}

// Finding is a bug exposed by an iteration.
type Finding struct {
	Kind       string
	Message    string
	Goroutines []GoroutineInfo
	Race       *race.Race
	RaceObject string
	Stack      string // stack of a panic or fatal error
	// Internal marks a panic raised by the tool's own code: a bug of
	// interleave, reported with its whole stack.
	Internal bool
	Logs     []string
	Trace    []event.Event
	// TraceDropped counts the earlier events of the run not in Trace.
	TraceDropped int
	// Preempts are the indices in Trace (plus TraceDropped) of the events
	// the schedule ran while the goroutine before them could have gone on.
	Preempts []int
	// Objects maps the object numbers of Trace's events to their kinds
	// ("Mutex", "channel", ...); ObjectName names an event's object.
	Objects map[int32]string
	// EarlyTimers are the timers the schedule fired while goroutines could
	// still run.
	EarlyTimers []EarlyTimer
	// EarlyTimersDropped counts the early timers not in EarlyTimers (it
	// keeps the first 64); MaxStall is the longest stall among them all.
	EarlyTimersDropped int
	MaxStall           time.Duration
	// Pending holds the operation each goroutine still alive was about to
	// perform or was blocked in when the bug showed (for its signature).
	Pending []event.Event

	leaked []LeakKey // a leak's goroutines (leaks.go)

	// StallChecked, when not 0, is how many schedules of a search that
	// fires no timer early (TimersIdle) were run without showing this
	// finding, which fired timers early: it needs a goroutine stalled.
	StallChecked int
	// StallSearch, when set, names the search without the stalls this
	// finding needs that did not show it (a search under TimersStall,
	// before the one under TimersStallAll that found a data race).
	StallSearch string

	// Unexplored marks the resource limit of a first schedule: still
	// running when Config.Budget ran out, or past one of the bounds of
	// a schedule (-goroutines, -objects, -choices). Not a bug: the test
	// could not be explored within them. The same limit on a later
	// schedule, whose cost depends on the interleaving, is a finding.
	Unexplored bool

	bound bool // a limit of Config.MaxGoroutines, MaxObjects or MaxChoices
}

// limit reports an iteration that reached one of its resource bounds;
// msg names the bound and the flag that raises it.
func (it *Iteration) limit(msg string) *Finding {
	gs := it.stuckGoroutines()
	if len(gs) > 10 {
		gs = gs[:10]
	}
	return &Finding{Kind: KindLimit, Message: msg, Goroutines: gs}
}

// bounded is limit for a bound of the schedule (-goroutines, -objects,
// -choices), which the explorer turns into "not explored" on a first
// schedule.
func (it *Iteration) bounded(msg string) *Finding {
	f := it.limit(msg)
	f.bound = true
	return f
}

// livelock reports goroutines that polled for Config.MaxSteps scheduling
// points without progress (progress.go) while no timer was pending. After
// the test returned, they are goroutines the test leaves behind, spinning
// for good: a leak, as goleak would see it.
func (it *Iteration) livelock() *Finding {
	gs := it.stuckGoroutines()
	var spinning []string
	for _, g := range gs {
		if gg := it.gs[g.ID-1]; gg.state == gReady {
			spinning = append(spinning, fmt.Sprint(g.ID))
		}
	}
	if it.mainDone {
		var keys []LeakKey
		for _, g := range it.live {
			if g.state != gDone {
				keys = append(keys, leakKey(g))
			}
		}
		return &Finding{
			leaked: keys,
			Kind:   KindLeak,
			Message: fmt.Sprintf("%s still running after the test returned: goroutine %s kept polling for %d scheduling points%s while nothing made progress (no channel operation, lock handoff, write, goroutine start or exit, and no new location read) and no timer was pending",
				goroutinesAre(len(gs)), strings.Join(spinning, ", "), it.quiet(), it.aloneNote()),
			Goroutines: gs,
		}
	}
	return &Finding{
		Kind: KindLivelock,
		Message: fmt.Sprintf("goroutine %s kept polling for %d scheduling points%s while nothing made progress (no channel operation, lock handoff, write, goroutine start or exit, and no new location read) and no timer was pending (-steps raises the bound)",
			strings.Join(spinning, ", "), it.quiet(), it.aloneNote()),
		Goroutines: gs,
	}
}

// aloneNote says, in a livelock's message, which bound it passed when
// that is not -steps: the goroutine polled alone (loneSpin times it), or
// many goroutines shared the spell (quietBound).
func (it *Iteration) aloneNote() string {
	lone := loneSpin * it.x.cfg.MaxSteps
	if it.quiet() > lone && lone >= it.quietBound() {
		return fmt.Sprintf(", alone (no other goroutine could run: the bound is %d times -steps, for a loop that ends by its own count)", loneSpin)
	}
	if n := it.quietBound() / it.x.cfg.MaxSteps; n > 1 {
		return fmt.Sprintf(", shared by %d goroutines (the bound is %d times -steps, for loops that end by their own count)", it.quietGs, n)
	}
	return ""
}

func (it *Iteration) info(g *G) GoroutineInfo {
	gi := GoroutineInfo{ID: g.ID, Main: g == it.main, SpawnSite: g.spawnSite}
	switch {
	case g.state == gOut:
		gi.Status = "running code the tool does not control"
	case g.state == gBlocked:
		what := g.blockOp.String()
		if g.blockObj != nil {
			what += " on " + describe(g.blockObj, g.blockSite, g.blockOp)
		} else if g.blockOp == event.OpSend || g.blockOp == event.OpRecv {
			what += " on nil channel"
		} else if g.blockOp == event.OpSelect {
			what = "select"
			if names := selectNames(g.blockSite); names != "" {
				what += " on " + names
			}
		}
		gi.Status, gi.Site = "blocked in "+what, g.blockSite
		gi.WaitsFor = lockOwner(g.blockObj)
	case g.state == gReady && g.pending.Op == event.OpStart:
		gi.Status = "not started"
	case g.state == gReady && g.pendObj != nil:
		what := g.pending.Op.String() + " on " + describe(g.pendObj, g.pending.Site, g.pending.Op)
		if it.enabled(g) {
			gi.Status = "about to " + what
		} else {
			gi.Status = "blocked in " + what
			gi.WaitsFor = lockOwner(g.pendObj)
		}
		gi.Site = g.pending.Site
	default:
		gi.Status, gi.Site = "about to "+g.pending.Op.String(), g.pending.Site
	}
	return gi
}

// lockOwner returns the goroutine holding o when o is a held lock, and 0
// otherwise.
func lockOwner(o *object) int32 {
	if o != nil && (o.kind == kindMutex || o.kind == kindRWMutex) && o.owner != 0 {
		return o.owner
	}
	return 0
}

// describe names object o, which op acts on at site, for a report: as
// the source names it there, with its kind and number ("from.mu
// (Mutex#3)"), or by its kind and number alone, and who holds it when it
// is a held lock.
func describe(o *object, site uint32, op event.Op) string {
	s := objLabel(o)
	if name := sourceName(site, op, o.kind); name != "" {
		s = name + " (" + s + ")"
	}
	switch {
	case (o.kind == kindMutex || o.kind == kindRWMutex) && o.owner != 0:
		s += fmt.Sprintf(" held by goroutine %d", o.owner)
	case o.kind == kindRWMutex && o.readers > 0:
		s += fmt.Sprintf(" read-locked by %d goroutine(s)", o.readers)
	}
	return s
}

func (it *Iteration) stuckGoroutines() []GoroutineInfo {
	var out []GoroutineInfo
	for _, g := range it.live {
		if g.state != gDone {
			out = append(out, it.info(g))
		}
	}
	return out
}

func (it *Iteration) deadlock() *Finding {
	gs := it.stuckGoroutines()
	ids := make([]string, len(gs))
	for i, g := range gs {
		ids[i] = fmt.Sprint(g.ID)
	}
	return &Finding{
		Kind:       KindDeadlock,
		Message:    fmt.Sprintf("all goroutines are blocked (%s) and no timer is pending", strings.Join(ids, ", ")),
		Goroutines: gs,
	}
}

func (it *Iteration) leak(leaked []*G) *Finding {
	f := &Finding{Kind: KindLeak}
	for _, g := range leaked {
		f.Goroutines = append(f.Goroutines, it.info(g))
		f.leaked = append(f.leaked, leakKey(g))
	}
	f.Message = goroutinesAre(len(leaked)) + " still blocked after the test returned"
	return f
}

// leakKey identifies g, left behind by a schedule: where it was started
// and where it waits (a goroutine still running waits nowhere).
func leakKey(g *G) LeakKey {
	switch {
	case g.state == gBlocked:
		timeout := g.blockObj != nil && g.blockObj.kind == kindChan && g.blockObj.ch.abandoned
		return LeakKey{Spawn: g.spawnSite, Site: g.blockSite, Op: g.blockOp, Timeout: timeout}
	case g.state == gReady && g.pendObj != nil: // waiting for a lock, a WaitGroup...
		return LeakKey{Spawn: g.spawnSite, Site: g.pending.Site, Op: g.pending.Op}
	case g.state == gOut: // blocked in uncontrolled code (stranded)
		return LeakKey{Spawn: g.spawnSite, Op: event.OpEnter}
	}
	return LeakKey{Spawn: g.spawnSite, Op: event.OpYield}
}

// goroutinesAre is "n goroutines are", or "1 goroutine is".
func goroutinesAre(n int) string {
	if n == 1 {
		return "1 goroutine is"
	}
	return fmt.Sprintf("%d goroutines are", n)
}

func (it *Iteration) panicked(g *G, p any) *Finding {
	msg := fmt.Sprint(p)
	if e, ok := p.(error); ok {
		msg = e.Error()
	}
	gi := it.info(g)
	gi.Status = "panicked"
	stack := string(debug.Stack())
	// The models raise the program's own run-time errors (send on a
	// closed channel) as RuntimeError; any other run-time error raised in
	// the tool's frames is a bug of the tool.
	_, isRuntimeErr := p.(runtime.Error)
	_, modeled := p.(RuntimeError)
	internal := isRuntimeErr && !modeled && faultedInRuntime(stack)
	if internal {
		msg = "internal error of interleave, not of the test (please report it, with this stack): " + msg
	}
	return &Finding{
		Kind:       KindPanic,
		Message:    msg,
		Goroutines: []GoroutineInfo{gi},
		Stack:      stack,
		Internal:   internal,
		Logs:       it.logs,
	}
}

// faultedInRuntime reports whether the run-time error whose panic stack
// is stack was raised by the tool's own code, the frame right under the Go
// runtime's panic machinery, rather than by the program. Only the
// packages below rt count (scheduler, strategies, detectors): package rt
// performs the program's operations natively too (a close of a channel
// that an earlier schedule closed panics there, and is the program's). A panic re-raised by a deferred function (sync.OnceFunc's)
// counts where it was first raised: the deepest panic of the stack.
func faultedInRuntime(stack string) bool {
	lines := strings.Split(stack, "\n")
	first := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") || strings.HasPrefix(l, "runtime.gopanic") {
			first = i
		}
	}
	if first < 0 {
		return false
	}
	for _, l := range lines[first+1:] {
		if strings.HasPrefix(l, "\t") || l == "" || strings.HasPrefix(l, "runtime.") {
			continue // positions, and goPanicIndex, panicmem, sigpanic...
		}
		return strings.HasPrefix(l, "interleave.dev/rt/internal/")
	}
	return false
}

func (it *Iteration) fatal(g *G, msg string) *Finding {
	gi := it.info(g)
	gi.Status = "fatal error"
	return &Finding{Kind: KindFatal, Message: msg, Goroutines: []GoroutineInfo{gi}, Stack: string(debug.Stack())}
}

func (it *Iteration) testFailure() *Finding {
	msg := "the test failed"
	if it.failMsg != "" {
		msg = it.failMsg
	}
	return &Finding{Kind: KindTestFailure, Message: msg, Logs: it.logs}
}

// raceFinding describes race r: what each access did, to what, as the
// source names it at the access's site ("read of c.n (variable#12) by
// goroutine 1 races with earlier write of c.n by goroutine 2"), and
// where.
func (it *Iteration) raceFinding(r *race.Race) *Finding {
	f := &Finding{Kind: KindRace, Race: r}
	// verb says what an access did, and op which operation it was, for
	// the name its site gives the object; of goes before the name (send
	// takes "on").
	verb := func(a race.Access) string {
		v := "read"
		if a.Write {
			v = "write"
		}
		if a.Atomic {
			v = "atomic " + v
		}
		return v
	}
	op := func(a race.Access) event.Op {
		switch {
		case a.Write && a.Atomic:
			return event.OpAtomicStore
		case a.Write:
			return event.OpWrite
		case a.Atomic:
			return event.OpAtomicLoad
		}
		return event.OpRead
	}
	of := " of "
	o := it.objectByID(r.Var)
	if o != nil {
		switch {
		case o.kind == kindChan:
			verb = func(a race.Access) string {
				if a.Write {
					return "close"
				}
				return "send"
			}
			op = func(a race.Access) event.Op {
				if a.Write {
					return event.OpClose
				}
				return event.OpSend
			}
		case o.kind == kindWaitGroup && r.Var == o.id2:
			// The WaitGroup's semaphore: Wait writes it, an Add from
			// zero reads it.
			verb = func(a race.Access) string {
				if a.Write {
					return "Wait"
				}
				return "Add from zero"
			}
			op = func(a race.Access) event.Op {
				if a.Write {
					return event.OpWGWait
				}
				return event.OpWGAdd
			}
			of = " on "
		}
	}
	name := func(a race.Access) string {
		if o == nil {
			return ""
		}
		return sourceName(a.Site, op(a), o.kind)
	}
	what := func(a race.Access) string {
		v := verb(a)
		if n := name(a); n != "" {
			if v == "send" {
				return v + " on " + n
			}
			return v + of + n
		}
		return v
	}
	cur := what(r.Cur)
	if o != nil {
		named := name(r.Cur)
		if named == "" {
			named = name(r.Prev)
		}
		at := "" // the model forgot the address in a collection (gc.go)
		if o.addr != nil {
			at = fmt.Sprintf(" at %p", o.addr)
		}
		f.RaceObject = objLabel(o) + at
		if named != "" {
			cur += " (" + objLabel(o) + ")"
			f.RaceObject = fmt.Sprintf("%s (%s%s)", named, objLabel(o), at)
		}
	}
	f.Message = fmt.Sprintf("%s by goroutine %d races with earlier %s by goroutine %d", cur, r.Cur.G, what(r.Prev), r.Prev.G)
	for i, a := range []race.Access{r.Cur, r.Prev} {
		g := it.gs[a.G-1]
		gi := GoroutineInfo{ID: g.ID, Main: g == it.main, SpawnSite: g.spawnSite, Site: a.Site, Status: what(a), NoStack: i == 1}
		if i == 1 {
			gi.Status = "earlier " + gi.Status
		}
		f.Goroutines = append(f.Goroutines, gi)
	}
	return f
}

// attachStacks copies the stacks captured while unwinding into f.
func (it *Iteration) attachStacks(f *Finding) {
	for i := range f.Goroutines {
		gi := &f.Goroutines[i]
		if gi.Stack == "" && !gi.NoStack && gi.ID > 0 && int(gi.ID) <= len(it.gs) {
			gi.Stack = it.gs[gi.ID-1].stack
		}
	}
}
