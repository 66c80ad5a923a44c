//go:build go1.23

package rt

import (
	"sync/atomic"
	"unsafe"
)

// The And and Or operations exist from Go 1.23 on.

// AtomicAndInt32 replaces atomic.AndInt32.
func AtomicAndInt32(addr *int32, mask int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AndInt32(addr, mask)
}

// AtomicOrInt32 replaces atomic.OrInt32.
func AtomicOrInt32(addr *int32, mask int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.OrInt32(addr, mask)
}

// Int32And replaces (*atomic.Int32).And.
func Int32And(v *atomic.Int32, mask int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.And(mask)
}

// Int32Or replaces (*atomic.Int32).Or.
func Int32Or(v *atomic.Int32, mask int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Or(mask)
}

// AtomicAndInt64 replaces atomic.AndInt64.
func AtomicAndInt64(addr *int64, mask int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AndInt64(addr, mask)
}

// AtomicOrInt64 replaces atomic.OrInt64.
func AtomicOrInt64(addr *int64, mask int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.OrInt64(addr, mask)
}

// Int64And replaces (*atomic.Int64).And.
func Int64And(v *atomic.Int64, mask int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.And(mask)
}

// Int64Or replaces (*atomic.Int64).Or.
func Int64Or(v *atomic.Int64, mask int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Or(mask)
}

// AtomicAndUint32 replaces atomic.AndUint32.
func AtomicAndUint32(addr *uint32, mask uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AndUint32(addr, mask)
}

// AtomicOrUint32 replaces atomic.OrUint32.
func AtomicOrUint32(addr *uint32, mask uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.OrUint32(addr, mask)
}

// Uint32And replaces (*atomic.Uint32).And.
func Uint32And(v *atomic.Uint32, mask uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.And(mask)
}

// Uint32Or replaces (*atomic.Uint32).Or.
func Uint32Or(v *atomic.Uint32, mask uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Or(mask)
}

// AtomicAndUint64 replaces atomic.AndUint64.
func AtomicAndUint64(addr *uint64, mask uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AndUint64(addr, mask)
}

// AtomicOrUint64 replaces atomic.OrUint64.
func AtomicOrUint64(addr *uint64, mask uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.OrUint64(addr, mask)
}

// Uint64And replaces (*atomic.Uint64).And.
func Uint64And(v *atomic.Uint64, mask uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.And(mask)
}

// Uint64Or replaces (*atomic.Uint64).Or.
func Uint64Or(v *atomic.Uint64, mask uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Or(mask)
}

// AtomicAndUintptr replaces atomic.AndUintptr.
func AtomicAndUintptr(addr *uintptr, mask uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AndUintptr(addr, mask)
}

// AtomicOrUintptr replaces atomic.OrUintptr.
func AtomicOrUintptr(addr *uintptr, mask uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.OrUintptr(addr, mask)
}

// UintptrAnd replaces (*atomic.Uintptr).And.
func UintptrAnd(v *atomic.Uintptr, mask uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.And(mask)
}

// UintptrOr replaces (*atomic.Uintptr).Or.
func UintptrOr(v *atomic.Uintptr, mask uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Or(mask)
}
