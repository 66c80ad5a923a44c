package rt

import (
	"context"
	"sync"
	"time"

	"interleave.dev/rt/internal/sched"
)

// Inside an exploration, contexts that can be canceled are the runtime's
// own: their Done channel is a modeled channel (closed through the model,
// and natively too, so standard-library code selecting on it wakes), and
// deadlines are virtual timers. Values, deadlines and Err/Cause behave as
// the context package documents. A parent the runtime does not model (a
// context type of the program's, with its own Done channel, or one made
// outside the exploration) is followed as package context follows it
// (propagate): through its AfterFunc method if it has one, else by a
// goroutine waiting for its Done channel or the child's.

type ctx struct {
	parent context.Context
	done   chan struct{}
	doneO  *sched.ChanObj

	mu       sync.Mutex // guards the fields below for uncontrolled callers
	err      error
	cause    error
	deadline time.Time
	hasDL    bool
	children []*ctx
	afters   []*afterFunc
	timer    *sched.Timer
	stop     func() bool // stops the parent's AfterFunc that cancels c
}

// afterFuncer is what package context looks for in a parent it does not
// know, to be told of its cancellation without a goroutine.
type afterFuncer interface {
	AfterFunc(func()) func() bool
}

type afterFunc struct {
	f       func()
	stopped bool
	started bool
}

var ctxKey int

func (c *ctx) Deadline() (time.Time, bool) {
	if c.hasDL {
		return c.deadline, true
	}
	return c.parent.Deadline()
}

func (c *ctx) Done() <-chan struct{} { return c.done }

func (c *ctx) Err() error {
	if g := sched.CurrentNoAdopt(); g != nil {
		// A read of the cancellation state: an event on the done channel
		// that conflicts with the cancel, so that a strategy that reorders
		// only conflicting events (dpor) tries both orders.
		g.Len(c.doneO, 0)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *ctx) Value(key any) any {
	if key == &ctxKey {
		return c
	}
	return c.parent.Value(key)
}

func (c *ctx) String() string { return "interleave.context" }

// ours returns the runtime context behind c, if any.
func ours(c context.Context) *ctx {
	if c == nil {
		return nil
	}
	x, _ := c.Value(&ctxKey).(*ctx)
	if x == nil || c.Done() != x.Done() {
		return nil // not ours, or cut off by context.WithoutCancel
	}
	return x
}

func newCtx(g *sched.G, parent context.Context, s Site) *ctx {
	if parent == nil {
		panic("cannot create context from nil parent")
	}
	done := make(chan struct{})
	o, _ := model[struct{}](g, chanPtr(done), 0)
	c := &ctx{parent: parent, done: done, doneO: o}
	if p := ours(parent); p != nil {
		p.mu.Lock()
		perr, pcause := p.err, p.cause
		if perr == nil {
			p.children = append(p.children, c)
		}
		p.mu.Unlock()
		if perr != nil {
			c.cancel(g.Iteration(), g, perr, pcause)
		}
	} else {
		c.propagate(g, parent, s)
	}
	return c
}

// propagate arranges for c to be canceled with parent, a context the
// runtime does not model, as context.propagateCancel does: nothing if
// parent cannot be canceled, at once if it is, else through parent's
// AfterFunc method or, without one, a goroutine that waits for parent's
// Done channel or c's. The program calls parent's methods and receives
// from its channel as natively, at the same points.
func (c *ctx) propagate(g *sched.G, parent context.Context, s Site) {
	pdone := parent.Done()
	if pdone == nil {
		return
	}
	fromParent := func() {
		c.cancelBy(s, parent.Err(), context.Cause(parent))
	}
	sel := SelectStart(s)
	SelectRecv(sel, pdone)
	if sel.Do(true) == 0 || parent.Err() != nil {
		// Err too: a channel closed before the exploration began looks
		// open to the model.
		c.cancel(g.Iteration(), g, parent.Err(), context.Cause(parent))
		return
	}
	if a, ok := parent.(afterFuncer); ok {
		stop := a.AfterFunc(fromParent)
		c.mu.Lock()
		c.stop = stop
		c.mu.Unlock()
		return
	}
	g.GoWatcher(func() {
		sel := SelectStart(s)
		SelectRecv(sel, pdone)
		SelectRecv(sel, c.done)
		if sel.Do(false) == 0 {
			fromParent()
		}
	}, uint32(s))
}

// cancel cancels c and its children on behalf of g (nil for a deadline),
// closing their Done channels in the model and natively. It does not reach
// a scheduling point.
func (c *ctx) cancel(it *sched.Iteration, g *sched.G, err, cause error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	if cause == nil {
		cause = err
	}
	c.err, c.cause = err, cause
	children, afters := c.children, c.afters
	c.children, c.afters = nil, nil
	c.mu.Unlock()
	it.CloseChan(g, c.doneO)
	close(c.done)
	for _, ch := range children {
		ch.cancel(it, g, err, cause)
	}
	var creator int32
	if g != nil {
		creator = g.ID
	}
	for _, a := range afters {
		if !a.stopped {
			a.started = true
			it.Spawn(creator, a.f)
		}
	}
}

// cancelFunc returns the CancelCauseFunc of c. Canceling c also stops
// the AfterFunc of a parent the runtime does not model that was to cancel
// it, as package context does.
func (c *ctx) cancelFunc(s Site) context.CancelCauseFunc {
	return func(cause error) {
		if c.cancelBy(s, context.Canceled, cause) {
			c.mu.Lock()
			stop := c.stop
			c.stop = nil
			c.mu.Unlock()
			if stop != nil {
				stop()
			}
		}
	}
}

// cancelBy cancels c with err and cause on behalf of the calling
// goroutine, a scheduling point. It reports false when there is no
// calling goroutine (an iteration that has ended).
func (c *ctx) cancelBy(s Site, err, cause error) bool {
	g := sched.CurrentNoAdopt()
	if g == nil {
		return false
	}
	g.Cancel(c.doneO, uint32(s))
	c.cancel(g.Iteration(), g, err, cause)
	return true
}

// WithCancel replaces context.WithCancel.
func WithCancel(parent context.Context, s Site) (context.Context, context.CancelFunc) {
	g := sched.CurrentNoAdopt()
	if g == nil {
		return context.WithCancel(parent)
	}
	c := newCtx(g, parent, s)
	f := c.cancelFunc(s)
	return c, func() { f(nil) }
}

// WithCancelCause replaces context.WithCancelCause.
func WithCancelCause(parent context.Context, s Site) (context.Context, context.CancelCauseFunc) {
	g := sched.CurrentNoAdopt()
	if g == nil {
		return context.WithCancelCause(parent)
	}
	c := newCtx(g, parent, s)
	return c, c.cancelFunc(s)
}

// WithTimeout replaces context.WithTimeout.
func WithTimeout(parent context.Context, d time.Duration, s Site) (context.Context, context.CancelFunc) {
	return WithDeadline(parent, Now(s).Add(d), s)
}

// WithTimeoutCause replaces context.WithTimeoutCause.
func WithTimeoutCause(parent context.Context, d time.Duration, cause error, s Site) (context.Context, context.CancelFunc) {
	return WithDeadlineCause(parent, Now(s).Add(d), cause, s)
}

// WithDeadline replaces context.WithDeadline.
func WithDeadline(parent context.Context, t time.Time, s Site) (context.Context, context.CancelFunc) {
	if sched.CurrentNoAdopt() == nil {
		return context.WithDeadline(parent, t)
	}
	return WithDeadlineCause(parent, t, nil, s)
}

// WithDeadlineCause replaces context.WithDeadlineCause.
func WithDeadlineCause(parent context.Context, t time.Time, cause error, s Site) (context.Context, context.CancelFunc) {
	g := sched.CurrentNoAdopt()
	if g == nil {
		return context.WithDeadlineCause(parent, t, cause)
	}
	if cur, ok := parent.Deadline(); ok && cur.Before(t) {
		// The parent's deadline is earlier: it cancels the child.
		c := newCtx(g, parent, s)
		f := c.cancelFunc(s)
		return c, func() { f(nil) }
	}
	c := newCtx(g, parent, s)
	c.deadline, c.hasDL = t, true
	it := g.Iteration()
	d := t.Sub(it.Wall(it.Clock()))
	if d <= 0 {
		c.cancel(it, g, context.DeadlineExceeded, cause)
	} else {
		c.timer = g.NewTimer(nil, int64(d), 0, nil, func(it *sched.Iteration, _ int64) {
			c.cancel(it, nil, context.DeadlineExceeded, cause)
		}, uint32(s))
		c.timer.Wakes(c.doneO)
	}
	f := c.cancelFunc(s)
	return c, func() {
		f(nil)
		if g := sched.CurrentNoAdopt(); g != nil && c.timer != nil {
			g.StopTimer(c.timer, uint32(s))
		}
	}
}

// ContextAfterFunc replaces context.AfterFunc; f runs in a controlled
// goroutine.
func ContextAfterFunc(c context.Context, f func(), s Site) (stop func() bool) {
	g := sched.CurrentNoAdopt()
	if g == nil {
		return context.AfterFunc(c, f)
	}
	x := ours(c)
	foreign := x == nil
	if foreign {
		// A context the runtime does not model: f hangs on a context of
		// its own, canceled with c (context.AfterFunc does the same).
		x = newCtx(g, c, s)
	}
	a := &afterFunc{f: f}
	x.mu.Lock()
	if x.err != nil {
		x.mu.Unlock()
		a.started = true
		g.Go(f, uint32(s))
	} else {
		x.afters = append(x.afters, a)
		x.mu.Unlock()
	}
	return func() bool {
		if g := sched.CurrentNoAdopt(); g != nil {
			g.Len(x.doneO, uint32(s)) // conflicts with the cancel that would start f
		}
		x.mu.Lock()
		if a.started || a.stopped {
			x.mu.Unlock()
			return false
		}
		a.stopped = true
		x.mu.Unlock()
		if foreign {
			x.cancelFunc(s)(nil) // lets go of c
		}
		return true
	}
}

// WithoutCancel replaces context.WithoutCancel.
func WithoutCancel(parent context.Context, s Site) context.Context {
	return context.WithoutCancel(parent)
}

// Cause replaces context.Cause.
func Cause(c context.Context, s Site) error {
	if x := ours(c); x != nil {
		if g := sched.CurrentNoAdopt(); g != nil {
			g.Len(x.doneO, uint32(s)) // a read of the cancellation state, as in Err
		}
		x.mu.Lock()
		defer x.mu.Unlock()
		return x.cause
	}
	return context.Cause(c)
}
