package rt

import "unsafe"

type atomicKind uint8

const (
	atomicLoad atomicKind = iota
	atomicStore
	atomicRMW
)

// atomicPoint reports an atomic operation on addr to the scheduler.
func atomicPoint(addr unsafe.Pointer, k atomicKind, s Site) {}
