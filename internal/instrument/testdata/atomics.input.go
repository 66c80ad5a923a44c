package atomics

import (
	"sync/atomic"
	"unsafe"
)

type config struct{ name string }

type stats struct {
	hits   atomic.Int64
	misses atomic.Uint32
	ready  atomic.Bool
	cfg    atomic.Pointer[config]
	any    atomic.Value
}

var counter int32

func Funcs(p *uint64, ptr *unsafe.Pointer) {
	atomic.AddInt32(&counter, 1)
	_ = atomic.LoadInt32(&counter)
	atomic.StoreUint64(p, 5)
	old := atomic.SwapUint64(p, 6)
	if atomic.CompareAndSwapUint64(p, old, 7) {
		atomic.OrUint64(p, 1)
		atomic.AndUint64(p, 3)
	}
	_ = atomic.LoadPointer(ptr)
}

func Typed(s *stats) {
	s.hits.Add(1)
	_ = s.hits.Load()
	s.misses.Store(2)
	s.misses.CompareAndSwap(2, 3)
	s.ready.Store(true)
	if s.ready.Load() {
		s.cfg.Store(&config{name: "x"})
	}
	c := s.cfg.Load()
	s.cfg.CompareAndSwap(c, nil)
	s.any.Store(1)
	_ = s.any.Load()
	var local atomic.Int32
	local.Add(1)
	add := local.Add
	add(2)
}
