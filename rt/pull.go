//go:build go1.23

package rt

import (
	"iter"

	"interleave.dev/rt/internal/sched"
)

// Pull replaces iter.Pull. The sequence runs on a coroutine, a goroutine
// of its own to the Go runtime, but only while the goroutine that calls
// next or stop waits for it in the switch: inside an exploration the
// coroutine runs as that controlled goroutine (rt/internal/sched/pull.go).
// Its events are the caller's, ordered with the caller's own as the
// switches order them; a go statement inside the sequence still starts a
// goroutine of its own. Outside an exploration it is iter.Pull.
func Pull[V any](seq iter.Seq[V], s Site) (next func() (V, bool), stop func()) {
	g := cur()
	if g == nil {
		return iter.Pull(seq)
	}
	// The wrappers are the tool's allocations; iter.Pull's are the
	// program's, as natively.
	g.ToolBegin()
	p := &pull[V]{seq: seq}
	p.wrapped, p.yieldFn, p.next, p.stopFn = p.run, p.yieldV, p.nextV, p.stopSeq
	g.ToolEnd()
	p.pnext, p.stop = iter.Pull(p.wrapped)
	return p.next, p.stopFn
}

// Pull2 replaces iter.Pull2, as Pull does iter.Pull.
func Pull2[K, V any](seq iter.Seq2[K, V], s Site) (next func() (K, V, bool), stop func()) {
	g := cur()
	if g == nil {
		return iter.Pull2(seq)
	}
	g.ToolBegin()
	p := &pull2[K, V]{seq: seq}
	p.wrapped, p.yieldFn, p.next, p.stopFn = p.run, p.yieldKV, p.nextKV, p.stopSeq
	g.ToolEnd()
	p.pnext, p.stop = iter.Pull2(p.wrapped)
	return p.next, p.stopFn
}

// puller binds the coroutine of a pulled sequence to the controlled
// goroutine that switched into it last.
type puller struct {
	owner  *sched.G      // the goroutine that called next or stop (nil: not a controlled one)
	here   sched.Binding // the coroutine's runtime goroutine
	known  bool          // here is set: the coroutine has run
	stop   func()        // iter.Pull's
	stopFn func()        // stopSeq, returned as stop
}

// enter is called by next and stop, on the caller's goroutine, before
// they switch to the coroutine: the caller is the one it runs as.
func (p *puller) enter() *sched.G {
	g := cur()
	p.owner = g
	return g
}

// resumed is called on the coroutine each time it runs again: first, and
// each time a yield returns.
func (p *puller) resumed() {
	if p.owner != nil && !p.known {
		p.here, p.known = sched.Here(), true
	}
	p.owner.Bind(p.here)
}

// stopSeq is the stop function returned: the sequence, if it is still
// suspended in a yield, runs on to its end as the caller.
func (p *puller) stopSeq() {
	g := p.enter()
	if g == nil {
		p.stop()
		return
	}
	defer g.Bind(g.Bound()) // the caller's goroutine again, however the switch returns
	p.stop()
}

// pull is the state of a sequence pulled by Pull.
type pull[V any] struct {
	puller
	seq     iter.Seq[V]
	wrapped iter.Seq[V]
	yield   func(V) bool // iter.Pull's
	yieldFn func(V) bool // yieldV, handed to seq
	pnext   func() (V, bool)
	next    func() (V, bool)
}

func (p *pull[V]) run(yield func(V) bool) {
	p.yield = yield
	p.resumed()
	p.seq(p.yieldFn)
}

func (p *pull[V]) yieldV(v V) bool {
	more := p.yield(v)
	p.resumed()
	return more
}

func (p *pull[V]) nextV() (V, bool) {
	g := p.enter()
	if g == nil {
		return p.pnext()
	}
	defer g.Bind(g.Bound())
	return p.pnext()
}

// pull2 is the state of a sequence pulled by Pull2.
type pull2[K, V any] struct {
	puller
	seq     iter.Seq2[K, V]
	wrapped iter.Seq2[K, V]
	yield   func(K, V) bool
	yieldFn func(K, V) bool
	pnext   func() (K, V, bool)
	next    func() (K, V, bool)
}

func (p *pull2[K, V]) run(yield func(K, V) bool) {
	p.yield = yield
	p.resumed()
	p.seq(p.yieldFn)
}

func (p *pull2[K, V]) yieldKV(k K, v V) bool {
	more := p.yield(k, v)
	p.resumed()
	return more
}

func (p *pull2[K, V]) nextKV() (K, V, bool) {
	g := p.enter()
	if g == nil {
		return p.pnext()
	}
	defer g.Bind(g.Bound())
	return p.pnext()
}
