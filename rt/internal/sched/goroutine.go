package sched

import (
	"bytes"
	"runtime"
	"sync"

	"interleave.dev/rt/internal/event"
)

type gstate uint8

const (
	gReady   gstate = iota // at a scheduling point, or resumable
	gBlocked               // parked on a primitive until another goroutine wakes it
	gDone                  // exited
	gOut                   // in code the tool does not control, without the schedule (adopt.go)
)

// G is a controlled goroutine. The fields every scheduling point reads
// come first, so that with thousands of goroutines a goroutine chosen
// to run costs few cache lines.
type G struct {
	ID  int32
	it  *Iteration
	lab label
	// How it is woken (handoff.go): the worker that runs it is resumed
	// in the slot it is parked in; a goroutine that has none, or that
	// parked while its thread was locked (onChan), waits on wake.
	co     *worker
	gp     uintptr // the runtime's descriptor of its goroutine (0: unknown)
	onChan bool

	state   gstate
	abort   bool // unwinding at the end of its iteration
	out     bool // lost the schedule while in uncontrolled code (adopt.go)
	free    bool // chosen to resume: its next operation runs without a new choice
	pending event.Event
	pendObj *object // object of the pending operation, for enabledness
	// quietRun counts its memory accesses in a row that were no
	// scheduling point (Config.Reduce).
	quietRun int
	// quietEpoch is 1 + the progress epoch in which it last ran
	// (progress.go).
	quietEpoch int
	lastRun    int       // step at which it was last chosen
	set        *gset     // the set of ready goroutines it is in (runq.go)
	idx        int       // its index in set.items
	yieldAt    int       // switches+1 at the time it yielded
	polledAt   int       // switches+1 at the time it polled once (pollFailed)
	polls      [2]uint32 // sites+1 of its last failed polls (pollFailed)

	wake    chan struct{}
	wnote   writeNote // a write whose value a strategy.Valuer is still to get
	adopted bool      // started by code the tool does not control (adopt.go)
	watcher bool      // started by the standard library's model for the program (GoWatcher)
	goid    int64     // the runtime's id of the goroutine running it (0: not known yet)
	exited  chan struct{}

	// What a blocked goroutine waits for, for reports.
	blockOp   event.Op
	blockSite uint32
	blockObj  *object

	// Results handed over by the goroutine that woke this one.
	slot       int32
	ok         bool
	sendClosed bool // woken because the channel was closed under a blocked send
	selChosen  int
	selDone    bool
	selGen     uint32   // counts its blocking selects: a registration of an earlier one is stale
	sudogs     []*sudog // one per channel of its select; each stays where it is, since queues point to it
	sleep      timer
	condWoken  bool

	spawnSite uint32
	parent    int32
	stack     string // captured when the iteration ends with a finding
	rtScratch any
}

// Iteration returns the iteration g belongs to.
func (g *G) Iteration() *Iteration { return g.it }

// Current returns the controlled goroutine running the caller, or nil when
// the caller is not a controlled goroutine of a running exploration (then
// the operation must run natively). A goroutine of an iteration that has
// ended is unwound here. A goroutine started by uncontrolled code inside
// the exploration (it inherited its creator's label) is adopted: it waits
// for the schedule and becomes a controlled goroutine (adopt.go).
func Current() *G { return current(true) }

// CurrentNoAdopt is Current for operations that uncontrolled code calls
// too (the methods of the runtime's contexts, reached from net/http's
// goroutines): a goroutine started by uncontrolled code runs them natively
// instead of being adopted.
func CurrentNoAdopt() *G { return current(false) }

func current(adopt bool) *G {
	g := labeled()
	if g == nil {
		return nil
	}
	it := g.it
	if gp := getg(); gp != g.gp && gp != 0 {
		// A goroutine started natively by g, or by code g called (an
		// httptest server's handler): it inherited g's label but is not
		// g.
		if adopt {
			return it.adopt(gp)
		}
		return nil
	}
	if it.gate.Add(gateStep)&(bitTake|bitYield) != 0 || g.out {
		// The schedule was taken over while g ran uncontrolled code.
		return it.comeBack(g)
	}
	if g.abort || it.ended {
		if g.adopted {
			setLabel(nil) // not ours to unwind: it goes on natively
			return nil
		}
		runtime.Goexit()
	}
	if it.cur != g {
		// The same, on an architecture without getg: g itself is parked,
		// so the caller must be another goroutine.
		return nil
	}
	return g
}

// spawn creates goroutine f as a child of parent (nil for the main
// goroutine): a coroutine, or a native goroutine parked on its channel,
// until chosen (handoff.go).
func (it *Iteration) spawn(parent *G, hbParent int32, f func(), site uint32) *G {
	it.toolBegin()
	defer it.toolEnd()
	g := &G{
		ID:        int32(len(it.gs) + 1),
		it:        it,
		exited:    make(chan struct{}),
		spawnSite: site,
		parent:    hbParent,
	}
	g.lab = label{magic: labelMagic, g: g}
	g.pending = event.Event{G: g.ID, Op: event.OpStart}
	it.addLive(g)
	it.place(g)
	if it.race != nil {
		it.race.Spawn(hbParent, g.ID)
	}
	if it.obs != nil {
		it.obs.Woke(g.ID)
	}
	if coroutinesSupported && !coroutinesOff.Load() && !lockedOSThread() {
		it.x.spawnCoroutine(g, f)
	} else {
		g.wake = make(chan struct{}, 1)
		go it.run(g, f)
	}
	return g
}

// run is the body of every controlled goroutine.
func (it *Iteration) run(g *G, f func()) {
	g.gp = getg()
	setLabel(&g.lab)
	if g.co == nil {
		g.goid = ownGoid()
		g.parkStart()
	} else {
		g.goid = g.co.goid
	}
	if g.abort {
		it.unwound(g)
		return
	}
	it.toolBegin() // the start of g, up to f (alloc.go)
	completed := false
	defer func() {
		if !g.abort {
			// f may have returned from uncontrolled code after losing
			// the schedule: take it back before touching the state.
			g.reenter()
		}
		if completed {
			it.exit(g, nil, false)
			return
		}
		r := recover()
		if g.abort || it.ended {
			it.unwound(g)
			return
		}
		it.exit(g, r, true)
	}()
	it.toolEnd()
	headroom(0)
	f()
	completed = true
}

// addLive adds g to the iteration's goroutines, and notes for step when
// the live ones are more than their bound.
func (it *Iteration) addLive(g *G) {
	it.gs = append(it.gs, g)
	it.live = append(it.live, g)
	if len(it.live)-it.dead > it.x.cfg.MaxGoroutines {
		it.overLimit = true // step fails the iteration (checkLimits)
	}
}

// headroom grows the stack of the goroutine that calls it to 8 KiB before
// the program's code runs there: every scheduling point adds the tool's
// frames on top of the program's, and a stack that grows is copied
// elsewhere. A program that hashes the address of a local to pick a
// stripe (a striped counter) must see it stay where it was, as natively,
// where its goroutine's shallow frames fit in the stack it started with.
//
//go:noinline
func headroom(i int) byte {
	var frame [6 << 10]byte
	return touch(frame[:], i)
}

// touch keeps headroom's frame: the compiler cannot see through it.
//
//go:noinline
func touch(b []byte, i int) byte { return b[i] }

// unwound marks an aborted goroutine finished.
func (it *Iteration) unwound(g *G) {
	g.state = gDone
	close(g.exited)
}

// ownGoid returns the runtime's id of the calling goroutine, from the
// header of its stack trace: a stack dump names goroutines by it, so that
// the explorer can tell which entry of a dump is which controlled
// goroutine (holderAway, stuck).
//
// It allocates nothing, so that a goroutine's start, which may run while
// another goroutine runs the program (the channel handoff), does not show
// in the allocator's counters the program reads (alloc.go).
func ownGoid() int64 {
	goidBuf.Lock()
	defer goidBuf.Unlock()
	b := goidBuf.b[:runtime.Stack(goidBuf.b[:], false)]
	b, ok := bytes.CutPrefix(b, []byte("goroutine "))
	if !ok {
		return 0
	}
	var id int64
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}

// goidBuf is ownGoid's buffer for the header of a stack dump.
var goidBuf struct {
	sync.Mutex
	b [64]byte
}

func stackOf() string {
	buf := make([]byte, 16<<10)
	n := runtime.Stack(buf, false)
	return string(buf[:n])
}
