package rt

import (
	"unsafe"

	"interleave.dev/rt/internal/sched"
)

type atomicKind uint8

const (
	atomicLoad atomicKind = iota
	atomicStore
	atomicRMW
)

// atomicPoint reports an atomic operation on the size bytes at addr to the
// scheduler; the caller then performs it natively.
func atomicPoint(addr unsafe.Pointer, size uintptr, k atomicKind, s Site) {
	if g := cur(); g != nil {
		g.Atomic(addr, size, sched.AtomicKind(k), uint32(s))
	}
}
