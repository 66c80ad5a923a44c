package p

import (
	"sync"
	"sync/atomic"
	"time"
)

// The modeled methods promoted through these embedded fields are
// declared on the structs, so that a call through an interface reaches
// the runtime.

type realTimer struct{ *time.Timer }

func (r realTimer) Chan() <-chan time.Time { return r.C }

type guarded struct {
	sync.Mutex
	n int
}

type tick struct {
	time.Ticker
}

type locked struct {
	sync.Locker
}

type box[T any] struct {
	atomic.Pointer[T]
	sync.RWMutex
}

// own declares its Stop: nothing is promoted.
type own struct{ *time.Timer }

func (o own) Stop() bool { return false }

// ambiguous has two Lock methods at the same depth: none is promoted.
type ambiguous struct {
	sync.Mutex
	sync.RWMutex
}

type clock interface{ Stop() bool }

func use() {
	var c clock = realTimer{time.NewTimer(time.Second)}
	c.Stop()
	var l sync.Locker = &guarded{}
	l.Lock()
	l.Unlock()
}
