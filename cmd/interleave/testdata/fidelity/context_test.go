package fidelity

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

var errExpired = errors.New("mock deadline expired")

// mockCtx is the deadline context of a mock clock: its own Done channel.
type mockCtx struct {
	context.Context
	mu   sync.Mutex
	done chan struct{}
	err  error
}

func newMockCtx() *mockCtx {
	return &mockCtx{Context: context.Background(), done: make(chan struct{})}
}

func (m *mockCtx) Done() <-chan struct{} { return m.done }

func (m *mockCtx) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

func (m *mockCtx) expire() {
	m.mu.Lock()
	m.err = errExpired
	m.mu.Unlock()
	close(m.done)
}

func waitDone(t *testing.T, ctx context.Context) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
		t.Fatal("the child of a canceled context is not canceled")
	}
	if ctx.Err() != errExpired || context.Cause(ctx) != errExpired {
		t.Fatalf("Err %v, Cause %v", ctx.Err(), context.Cause(ctx))
	}
}

func TestContextChildOfMock(t *testing.T) {
	m := newMockCtx()
	ctx, cancel := context.WithCancel(m)
	defer cancel()
	go m.expire()
	waitDone(t, ctx)
}

func TestContextTimeoutChildOfMockValue(t *testing.T) {
	m := newMockCtx()
	ctx, cancel := context.WithTimeout(context.WithValue(m, &errExpired, 1), time.Hour)
	defer cancel()
	go m.expire()
	waitDone(t, ctx)
}

func TestContextAfterFuncOfMock(t *testing.T) {
	m := newMockCtx()
	ran := make(chan bool)
	context.AfterFunc(m, func() { ran <- true })
	go m.expire()
	select {
	case <-ran:
	case <-time.After(time.Second):
		t.Fatal("AfterFunc did not run")
	}
}
