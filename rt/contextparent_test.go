package rt_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// A parent context the runtime does not model, canceled by the program:
// its children must learn of it, as package context's propagateCancel
// makes them (by a goroutine waiting for the parent's Done channel, or
// the parent's own AfterFunc method).

var errExpired = errors.New("mock deadline expired")

// mockCtx is a context of the program's own, as a mock clock makes: its
// own Done channel, closed by expire.
type mockCtx struct {
	context.Context
	mu   sync.Mutex
	done chan struct{}
	err  error
}

func newMockCtx() *mockCtx {
	return &mockCtx{Context: context.Background(), done: rt.MakeChan[struct{}](0, 0)}
}

func (m *mockCtx) Done() <-chan struct{} { return m.done }

func (m *mockCtx) Err() error {
	rt.Lock(&m.mu, 0)
	defer rt.Unlock(&m.mu, 0)
	return m.err
}

func (m *mockCtx) expire() {
	rt.Lock(&m.mu, 0)
	m.err = errExpired
	rt.Unlock(&m.mu, 0)
	rt.Close(m.done, 0)
}

// waitDone waits for ctx to be done, for an hour at most, and says why it
// is.
func waitDone(ctx context.Context) string {
	sel := rt.SelectStart(0)
	rt.SelectRecv(sel, ctx.Done())
	rt.SelectRecv(sel, rt.After(time.Hour, 0))
	if sel.Do(false) == 1 {
		return "not canceled"
	}
	return fmt.Sprint(ctx.Err(), "/", rt.Cause(ctx, 0))
}

func TestContextForeignParent(t *testing.T) {
	far := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	children := map[string]func(context.Context) (context.Context, func()){
		"WithCancel": func(p context.Context) (context.Context, func()) {
			c, cancel := rt.WithCancel(p, 0)
			return c, cancel
		},
		"WithCancelCause": func(p context.Context) (context.Context, func()) {
			c, cancel := rt.WithCancelCause(p, 0)
			return c, func() { cancel(nil) }
		},
		"WithTimeout": func(p context.Context) (context.Context, func()) {
			return rt.WithTimeout(p, 2*time.Hour, 0)
		},
		"WithDeadline": func(p context.Context) (context.Context, func()) {
			return rt.WithDeadline(p, far, 0)
		},
		"WithValue chain": func(p context.Context) (context.Context, func()) {
			return rt.WithTimeout(context.WithValue(p, &errExpired, 1), 2*time.Hour, 0)
		},
		"grandchild": func(p context.Context) (context.Context, func()) {
			c1, cancel1 := rt.WithCancel(p, 0)
			c2, cancel2 := rt.WithDeadline(c1, far, 0)
			return c2, func() { cancel2(); cancel1() }
		},
	}
	for name, child := range children {
		t.Run(name, func(t *testing.T) {
			expect(t, outcomes(t, rt.Options{}, func() string {
				m := newMockCtx()
				c, cancel := child(m)
				defer cancel()
				rt.Go(m.expire, 0)
				return waitDone(c)
			}), "mock deadline expired/mock deadline expired")
		})
	}
}

// The parent already canceled: the child is canceled when made.
func TestContextForeignParentCanceledBefore(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		m := newMockCtx()
		m.expire()
		c, cancel := rt.WithCancel(m, 0)
		defer cancel()
		return fmt.Sprint(c.Err())
	}), "mock deadline expired")
}

func TestContextAfterFuncForeign(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		m := newMockCtx()
		ran := rt.MakeChan[bool](0, 0)
		rt.ContextAfterFunc(m, func() { rt.Send(ran, true, 0) }, 0)
		rt.Go(m.expire, 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv(sel, ran)
		rt.SelectRecv(sel, rt.After(time.Hour, 0))
		if sel.Do(false) == 1 {
			return "AfterFunc did not run"
		}
		return "ran"
	}), "ran")
	// Stopped before the parent is canceled, f never runs; stopped after,
	// stop reports false. (Only dfs: dpor misses the second outcome, as
	// it does on the same program written without contexts.)
	expect(t, outcomeSet(t, "dfs", rt.Options{}, func() string {
		m := newMockCtx()
		ran := false
		stop := rt.ContextAfterFunc(m, func() { ran = true }, 0)
		rt.Go(m.expire, 0)
		stopped := stop()
		rt.Sleep(time.Hour, 0)
		return fmt.Sprint(stopped, ran)
	}), "true false", "false true")
}

// afterFuncCtx is a parent with an AfterFunc method, which package
// context uses instead of a goroutine.
type afterFuncCtx struct {
	*mockCtx
	registered, stopped int
}

func (a *afterFuncCtx) AfterFunc(f func()) func() bool {
	a.registered++
	stop := rt.ContextAfterFunc(a.mockCtx, f, 0)
	return func() bool {
		a.stopped++
		return stop()
	}
}

func TestContextForeignParentAfterFuncMethod(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		a := &afterFuncCtx{mockCtx: newMockCtx()}
		c, cancel := rt.WithCancel(a, 0)
		defer cancel()
		rt.Go(a.expire, 0)
		return fmt.Sprint(waitDone(c), " registered ", a.registered)
	}), "mock deadline expired/mock deadline expired registered 1")
	// The child canceled first stops the parent's AfterFunc.
	expect(t, outcomes(t, rt.Options{}, func() string {
		a := &afterFuncCtx{mockCtx: newMockCtx()}
		c, cancel := rt.WithCancel(a, 0)
		cancel()
		return fmt.Sprint(c.Err(), " stopped ", a.stopped)
	}), "context canceled stopped 1")
}

// A child of a parent that is never canceled, itself never canceled,
// leaves the goroutine that follows the parent waiting when the test
// returns: the standard library's, not a leak of the program's.
func TestContextForeignParentNotCanceled(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		m := newMockCtx()
		c, _ := rt.WithCancel(m, 0)
		return fmt.Sprint(c.Err())
	}), "<nil>")
}
