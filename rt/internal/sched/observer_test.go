package sched

import (
	"testing"
	"time"
	"unsafe"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// observing is DFS that records what the scheduler tells an Observer.
type observing struct {
	*strategy.DFS
	hash     uint64
	pending  map[int32][]event.Event
	executed []event.Event
	woke     []int32
}

func (o *observing) Begin() bool {
	o.hash, o.executed, o.woke, o.pending = fnvOffset, nil, nil, map[int32][]event.Event{}
	return o.DFS.Begin()
}
func (o *observing) Pending(e event.Event) { o.pending[e.G] = append(o.pending[e.G], e) }
func (o *observing) Woke(g int32)          { o.woke = append(o.woke, g) }
func (o *observing) Executed(e event.Event, _ int) {
	o.executed = append(o.executed, e)
	o.hash = hashEvent(o.hash, e)
}

// A strategy that implements Observer sees every executed event (its hash
// is the iteration's event hash), the channels a select waits on and
// every word of a multi-word access as pending, and the goroutines started
// and woken.
func TestObserverSeesEveryEvent(t *testing.T) {
	o := &observing{DFS: strategy.NewDFS(0)}
	var ch, other int
	var words [3]int64
	r := Explore(Config{Strategy: o, Schedules: 1, Leaks: true}, func() {
		g := Current()
		c := g.Chan(unsafe.Pointer(&ch), 0)
		d := g.Chan(unsafe.Pointer(&other), 0)
		g.Go(func() { Current().Send(c, 1, 7) }, 0)
		g.Select([]SelectCase{{Ch: c}, {Ch: d}}, false, 9)
		g.Access(unsafe.Pointer(&words), unsafe.Sizeof(words), true, 11)
	})
	if r.Finding != nil {
		t.Fatalf("finding: %s", r.Finding.Message)
	}
	if o.hash != r.Hash || len(o.executed) == 0 {
		t.Errorf("observed %d events hashing to %x, the iteration's hash is %x", len(o.executed), o.hash, r.Hash)
	}
	var chans, wordsSeen int
	for _, e := range o.pending[1] {
		switch {
		case e.Site == 9 && e.Op == event.OpRecv:
			chans++
		case e.Site == 11 && e.Op == event.OpWrite:
			wordsSeen++
		}
	}
	if chans != 2 || wordsSeen != 3 {
		t.Errorf("pending: %d select channels (want 2), %d words (want 3): %v", chans, wordsSeen, o.pending[1])
	}
	if len(o.woke) < 2 || o.woke[0] != 1 || o.woke[1] != 2 {
		t.Errorf("woke %v, want the main goroutine, then goroutine 2", o.woke)
	}
}

// The event hash, folded in from the trace when read, is the hash of
// every event executed: over a trace longer than the part kept for a
// report, with map ranges reading it on the way, and in a replay that
// checks it.
func TestEventHashOfEveryEvent(t *testing.T) {
	const accesses = traceLimit + traceLimit/3
	body := func() {
		g := Current()
		var x int
		goWrites(g, 20)
		for i := 0; i < accesses; i++ {
			g.Access(unsafe.Pointer(&x), unsafe.Sizeof(x), true, 2)
			if i%(traceLimit/4) == 0 {
				g.MapOrder(3)
			}
		}
	}
	o := &observing{DFS: strategy.NewDFS(0)}
	r := Explore(Config{Strategy: o, Schedules: 1, MaxSteps: 4 * accesses}, body)
	if r.Finding != nil {
		t.Fatalf("finding: %s", r.Finding.Message)
	}
	if o.hash != r.Hash || len(o.executed) <= traceLimit {
		t.Fatalf("observed %d events hashing to %x, the iteration's hash is %x", len(o.executed), o.hash, r.Hash)
	}
	again := Explore(Config{Strategy: strategy.NewReplay(r.Choices), Schedules: 1, MaxSteps: 4 * accesses, ExpectHash: r.Hash}, body)
	if again.Diverged != "" || again.Hash != r.Hash {
		t.Errorf("the replay diverged (%q), hash %x, want %x", again.Diverged, again.Hash, r.Hash)
	}
}

// goWrites starts a goroutine that writes a variable of its own n times.
func goWrites(g *G, n int) {
	g.Go(func() {
		me := Current()
		var y int
		for i := 0; i < n; i++ {
			me.Access(unsafe.Pointer(&y), unsafe.Sizeof(y), true, 1)
		}
	}, 0)
}

// ending keeps the event hash an observer computes for every schedule
// that ends.
type ending struct {
	observing
	begun int
	ended []uint64
}

func (e *ending) Begin() bool {
	e.begun++
	return e.observing.Begin()
}

func (e *ending) End(o strategy.Outcome) {
	e.ended = append(e.ended, e.hash)
	e.observing.End(o)
}

// A schedule cut by the budget does not count: the result's event hash
// is the one of the schedule before it, though the cut one ran over its
// trace.
func TestEventHashOfScheduleBeforeTheBudget(t *testing.T) {
	e := &ending{observing: observing{DFS: strategy.NewDFS(0)}}
	r := Explore(Config{Strategy: e, Schedules: 1000, Budget: 300 * time.Millisecond, MaxSteps: 1 << 30}, func() {
		g := Current()
		var x int
		goWrites(g, 3)
		// Each schedule's events differ from the one before (the site
		// is its number), and the schedule cut by the budget writes over
		// the trace of the one before. The third runs until the budget
		// is over, so that the budget cuts it and not the gap between
		// two schedules.
		for start := time.Now(); time.Since(start) < 40*time.Millisecond || g.it.num >= 3 && !g.it.overBudget.Load(); {
			g.Access(unsafe.Pointer(&x), unsafe.Sizeof(x), true, uint32(g.it.num))
		}
	})
	if r.Finding != nil {
		t.Fatalf("finding: %s", r.Finding.Message)
	}
	if len(e.ended) != r.Iterations || r.Iterations == 0 || e.begun != r.Iterations+1 {
		t.Fatalf("%d schedules begun, %d ended, the result counts %d: none was cut by the budget", e.begun, len(e.ended), r.Iterations)
	}
	if r.Hash != e.ended[len(e.ended)-1] {
		t.Errorf("the result's hash is %x, the last schedule that ended hashed to %x", r.Hash, e.ended[len(e.ended)-1])
	}
}
