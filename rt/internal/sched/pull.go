package sched

// Sequences pulled with iter.Pull (rt.Pull, rt/pull.go).
//
// iter.Pull runs a sequence on a coroutine: a goroutine of its own to the
// Go runtime, which only ever runs while the goroutine that called next
// (or stop) waits in the switch to it, and which hands control back
// through the same switch. The two never run at once, so the coroutine is
// the calling controlled goroutine, not a new one: package rt binds the
// coroutine's runtime goroutine to the caller's G each time it is
// switched into, and binds the caller's back when the switch returns.
// current then recognizes the coroutine as g (rather than adopting it as
// a goroutine of uncontrolled code, which would wait for the schedule its
// caller holds), the events of the sequence are g's, and a stack dump
// names the coroutine as g's goroutine (holderAway, stuck) while it runs
// or waits in the scheduler. A coroutine that parks in the scheduler
// parks as g would: on g's channel, or by yielding to the hub that
// resumed g's worker; resuming that worker resumes the coroutine, which
// is the goroutine waiting in the worker's switch.

// A Binding is a runtime goroutine a controlled goroutine runs on: the
// descriptor current checks, and the id stack dumps name it by.
type Binding struct {
	gp   uintptr
	goid int64
}

// Here returns the binding of the calling goroutine. It reads the
// goroutine's id from the header of its stack, a microsecond's work.
func Here() Binding { return Binding{gp: getg(), goid: ownGoid()} }

// Bound returns the runtime goroutine g runs on now.
func (g *G) Bound() Binding { return Binding{gp: g.gp, goid: g.goid} }

// Bind makes g run on the calling goroutine, whose binding is b: the
// coroutine of a sequence g pulled, switched into by g, or g's own
// goroutine (g.Bound() from before the switch) when the switch has
// returned. The calling goroutine carries g's label from then on. On a
// nil g, it clears the calling goroutine's label instead: the coroutine
// was switched into by a goroutine that is not controlled, and runs
// natively as its caller does.
func (g *G) Bind(b Binding) {
	if g == nil {
		setLabel(nil)
		return
	}
	g.gp, g.goid = b.gp, b.goid
	setLabel(&g.lab)
}
