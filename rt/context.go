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
// the context package documents. A parent from outside the exploration
// that can be canceled is followed for its values and deadline but its
// cancellation is not observed.

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

func newCtx(g *sched.G, parent context.Context) *ctx {
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
	} else if err := parent.Err(); err != nil {
		c.cancel(g.Iteration(), g, err, context.Cause(parent))
	}
	return c
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

// cancelFunc returns the CancelCauseFunc of c.
func (c *ctx) cancelFunc(s Site) context.CancelCauseFunc {
	return func(cause error) {
		g := sched.CurrentNoAdopt()
		if g == nil {
			return // an iteration that has ended
		}
		g.Cancel(c.doneO, uint32(s))
		c.cancel(g.Iteration(), g, context.Canceled, cause)
	}
}

// WithCancel replaces context.WithCancel.
func WithCancel(parent context.Context, s Site) (context.Context, context.CancelFunc) {
	g := sched.CurrentNoAdopt()
	if g == nil {
		return context.WithCancel(parent)
	}
	c := newCtx(g, parent)
	f := c.cancelFunc(s)
	return c, func() { f(nil) }
}

// WithCancelCause replaces context.WithCancelCause.
func WithCancelCause(parent context.Context, s Site) (context.Context, context.CancelCauseFunc) {
	g := sched.CurrentNoAdopt()
	if g == nil {
		return context.WithCancelCause(parent)
	}
	c := newCtx(g, parent)
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
		c := newCtx(g, parent)
		f := c.cancelFunc(s)
		return c, func() { f(nil) }
	}
	c := newCtx(g, parent)
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
	x := ours(c)
	if g == nil || x == nil {
		return context.AfterFunc(c, f)
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
		defer x.mu.Unlock()
		if a.started || a.stopped {
			return false
		}
		a.stopped = true
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
