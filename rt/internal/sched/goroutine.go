package sched

import (
	"runtime"

	"interleave.dev/rt/internal/event"
)

type gstate uint8

const (
	gReady   gstate = iota // at a scheduling point, or resumable
	gBlocked               // parked on a primitive until another goroutine wakes it
	gDone                  // exited
)

// G is a controlled goroutine.
type G struct {
	ID   int32
	it   *Iteration
	wake chan struct{}
	lab  label
	gp   uintptr // the runtime's descriptor of its goroutine (0: unknown)

	state   gstate
	pending event.Event
	pendObj *object // object of the pending operation, for enabledness
	free    bool    // chosen to resume: its next operation runs without a new choice
	lastRun int     // step at which it was last chosen
	yieldAt int     // switches+1 at the time it yielded
	abort   bool    // unwinding at the end of its iteration
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
	sudogs     []sudog
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
// ended is unwound here.
func Current() *G {
	g := labeled()
	if g == nil {
		return nil
	}
	if gp := getg(); gp != g.gp && gp != 0 {
		// A goroutine started natively by g, or by code g called (an
		// httptest server's handler): it inherited g's label but is not
		// g. It runs uncontrolled.
		return nil
	}
	if g.abort || g.it.ended {
		runtime.Goexit()
	}
	if g.it.cur != g {
		// The same, on an architecture without getg: g itself is parked,
		// so the caller must be another goroutine.
		return nil
	}
	return g
}

// spawn creates goroutine f as a child of parent (nil for the main
// goroutine) and starts its native goroutine, parked until chosen.
func (it *Iteration) spawn(parent *G, hbParent int32, f func(), site uint32) *G {
	g := &G{
		ID:        int32(len(it.gs) + 1),
		it:        it,
		wake:      make(chan struct{}, 1),
		exited:    make(chan struct{}),
		spawnSite: site,
		parent:    hbParent,
	}
	g.lab = label{magic: labelMagic, g: g}
	g.pending = event.Event{G: g.ID, Op: event.OpStart}
	it.gs = append(it.gs, g)
	it.live = append(it.live, g)
	if it.race != nil {
		it.race.Spawn(hbParent, g.ID)
	}
	go it.run(g, f)
	return g
}

// run is the body of every controlled goroutine.
func (it *Iteration) run(g *G, f func()) {
	g.gp = getg()
	setLabel(&g.lab)
	<-g.wake
	if g.abort {
		it.unwound(g)
		return
	}
	completed := false
	defer func() {
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
	f()
	completed = true
}

// unwound marks an aborted goroutine finished.
func (it *Iteration) unwound(g *G) {
	g.state = gDone
	close(g.exited)
}

// park waits until g is chosen again. It unwinds g if its iteration ended
// meanwhile.
func (g *G) park() {
	<-g.wake
	if g.abort {
		if g.it.wantStacks {
			g.stack = stackOf()
		}
		runtime.Goexit()
	}
}

func stackOf() string {
	buf := make([]byte, 16<<10)
	n := runtime.Stack(buf, false)
	return string(buf[:n])
}
