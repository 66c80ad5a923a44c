package rt

import (
	"math"
	"sync"
	"time"
	"unsafe"

	"interleave.dev/rt/internal/sched"
)

// Inside an exploration time is virtual: every iteration starts at the
// exploration's epoch (sched's epoch.go) and the clock moves only when a
// timer fires, which the strategy decides.

// Sleep replaces time.Sleep.
func Sleep(d time.Duration, s Site) {
	if g := cur(); g != nil {
		g.Sleep(int64(d), uint32(s))
		return
	}
	time.Sleep(d)
}

// timerChan makes the channel of a virtual timer or ticker and the
// function that delivers a tick on it.
func timerChan(g *sched.G) (chan time.Time, *sched.ChanObj, func(*sched.Iteration, int64)) {
	c := make(chan time.Time, 1)
	o, sl := model[time.Time](g, chanPtr(c), 1)
	fire := func(it *sched.Iteration, now int64) {
		slot := sl.put(it.Wall(now))
		if !it.TimerSend(o, slot) {
			sl.release(slot)
		}
	}
	return c, o, fire
}

// After replaces time.After.
func After(d time.Duration, s Site) <-chan time.Time {
	if cur() != nil {
		return NewTimer(d, s).C
	}
	return time.After(d)
}

// Tick replaces time.Tick.
func Tick(d time.Duration, s Site) <-chan time.Time {
	if cur() != nil {
		if d <= 0 {
			return nil
		}
		return NewTicker(d, s).C
	}
	c := time.Tick(d)
	if c != nil {
		nativeTickers.Store(recvPtr(c), d)
	}
	return c
}

// nativeTickers maps the channel of every ticker made outside an
// exploration (typically "var tick = time.Tick(d)" at package level) to its
// period. Inside an exploration, the first use of such a channel starts a
// virtual ticker of that period on it: the real one would tick in wall
// time, which the explorer does not follow.
var nativeTickers sync.Map

// adoptTicker starts a virtual ticker on channel o if it is the channel of
// a ticker made outside the exploration.
func adoptTicker[T any](g *sched.G, p unsafe.Pointer, o *sched.ChanObj, sl *slab[T]) {
	v, ok := nativeTickers.Load(p)
	if !ok {
		return
	}
	ts, ok := any(sl).(*slab[time.Time])
	if !ok {
		return
	}
	d := int64(v.(time.Duration))
	g.StartTimer(d, d, o, func(it *sched.Iteration, now int64) {
		slot := ts.put(it.Wall(now))
		if !it.TimerSend(o, slot) {
			ts.release(slot)
		}
	})
}

// NewTimer replaces time.NewTimer.
func NewTimer(d time.Duration, s Site) *time.Timer {
	g := cur()
	if g == nil {
		return time.NewTimer(d)
	}
	c, o, fire := timerChan(g)
	t := stoppedTimer()
	t.C = c
	g.NewTimer(unsafe.Pointer(t), int64(d), 0, o, fire, uint32(s))
	return t
}

// stoppedTimer returns a real timer, stopped, for a virtual one to be
// known by. A call the instrumenter cannot see (Stop or Reset through an
// interface whose dynamic type is *time.Timer, or through reflection)
// reaches the real timer's method, which panics on a time.Timer the Go
// runtime did not make; on this one it does nothing a test can observe
// (a Reset arms a timer whose channel nobody has, or whose function does
// nothing). Through a struct that embeds the timer, the instrumenter
// declares the methods so that they reach the virtual timer
// (internal/instrument's embedded.go).
func stoppedTimer() *time.Timer {
	t := time.AfterFunc(time.Duration(math.MaxInt64), func() {})
	t.Stop()
	return t
}

// AfterFunc replaces time.AfterFunc; f runs in a controlled goroutine.
func AfterFunc(d time.Duration, f func(), s Site) *time.Timer {
	g := cur()
	if g == nil {
		return time.AfterFunc(d, f)
	}
	t := stoppedTimer()
	var vt *sched.Timer
	vt = g.NewTimer(unsafe.Pointer(t), int64(d), 0, nil, func(it *sched.Iteration, _ int64) {
		it.SpawnFromTimer(vt, f)
	}, uint32(s))
	return t
}

// TimerStop replaces (*time.Timer).Stop.
func TimerStop(t *time.Timer, s Site) bool {
	if g := cur(); g != nil {
		if vt := g.TimerOf(unsafe.Pointer(t)); vt != nil {
			return g.StopTimer(vt, uint32(s))
		}
	}
	return t.Stop()
}

// TimerReset replaces (*time.Timer).Reset.
func TimerReset(t *time.Timer, d time.Duration, s Site) bool {
	if g := cur(); g != nil {
		if vt := g.TimerOf(unsafe.Pointer(t)); vt != nil {
			return g.ResetTimer(vt, int64(d), false, uint32(s))
		}
	}
	return t.Reset(d)
}

// NewTicker replaces time.NewTicker.
func NewTicker(d time.Duration, s Site) *time.Ticker {
	g := cur()
	if g == nil {
		t := time.NewTicker(d)
		nativeTickers.Store(recvPtr(t.C), d)
		return t
	}
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	c, o, fire := timerChan(g)
	t := time.NewTicker(time.Duration(math.MaxInt64)) // stopped, as stoppedTimer's
	t.Stop()
	t.C = c
	g.NewTimer(unsafe.Pointer(t), int64(d), int64(d), o, fire, uint32(s))
	return t
}

// TickerStop replaces (*time.Ticker).Stop.
func TickerStop(t *time.Ticker, s Site) {
	if g := cur(); g != nil {
		if vt := g.TimerOf(unsafe.Pointer(t)); vt != nil {
			g.StopTimer(vt, uint32(s))
			return
		}
	}
	t.Stop()
}

// TickerReset replaces (*time.Ticker).Reset.
func TickerReset(t *time.Ticker, d time.Duration, s Site) {
	if g := cur(); g != nil {
		if vt := g.TimerOf(unsafe.Pointer(t)); vt != nil {
			if d <= 0 {
				panic("non-positive interval for Ticker.Reset")
			}
			g.ResetTimer(vt, int64(d), true, uint32(s))
			return
		}
	}
	t.Reset(d)
}

// Now replaces time.Now.
func Now(s Site) time.Time {
	if g := cur(); g != nil {
		return g.Iteration().Wall(g.Now(uint32(s)))
	}
	return sched.NativeNow()
}

// Since replaces time.Since.
func Since(t time.Time, s Site) time.Duration { return Now(s).Sub(t) }

// Until replaces time.Until.
func Until(t time.Time, s Site) time.Duration { return t.Sub(Now(s)) }
