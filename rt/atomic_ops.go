package rt

import (
	"sync/atomic"
	"unsafe"
)

// AtomicAddInt32 replaces atomic.AddInt32.
func AtomicAddInt32(addr *int32, delta int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AddInt32(addr, delta)
}

// AtomicLoadInt32 replaces atomic.LoadInt32.
func AtomicLoadInt32(addr *int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicLoad, s)
	return atomic.LoadInt32(addr)
}

// AtomicStoreInt32 replaces atomic.StoreInt32.
func AtomicStoreInt32(addr *int32, val int32, s Site) {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicStore, s)
	atomic.StoreInt32(addr, val)
}

// AtomicSwapInt32 replaces atomic.SwapInt32.
func AtomicSwapInt32(addr *int32, new int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.SwapInt32(addr, new)
}

// AtomicCompareAndSwapInt32 replaces atomic.CompareAndSwapInt32.
func AtomicCompareAndSwapInt32(addr *int32, old, new int32, s Site) bool {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.CompareAndSwapInt32(addr, old, new)
}

// Int32Add replaces (*atomic.Int32).Add.
func Int32Add(v *atomic.Int32, delta int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Add(delta)
}

// Int32Load replaces (*atomic.Int32).Load.
func Int32Load(v *atomic.Int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicLoad, s)
	return v.Load()
}

// Int32Store replaces (*atomic.Int32).Store.
func Int32Store(v *atomic.Int32, val int32, s Site) {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicStore, s)
	v.Store(val)
}

// Int32Swap replaces (*atomic.Int32).Swap.
func Int32Swap(v *atomic.Int32, new int32, s Site) int32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Swap(new)
}

// Int32CompareAndSwap replaces (*atomic.Int32).CompareAndSwap.
func Int32CompareAndSwap(v *atomic.Int32, old, new int32, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.CompareAndSwap(old, new)
}

// AtomicAddInt64 replaces atomic.AddInt64.
func AtomicAddInt64(addr *int64, delta int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AddInt64(addr, delta)
}

// AtomicLoadInt64 replaces atomic.LoadInt64.
func AtomicLoadInt64(addr *int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicLoad, s)
	return atomic.LoadInt64(addr)
}

// AtomicStoreInt64 replaces atomic.StoreInt64.
func AtomicStoreInt64(addr *int64, val int64, s Site) {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicStore, s)
	atomic.StoreInt64(addr, val)
}

// AtomicSwapInt64 replaces atomic.SwapInt64.
func AtomicSwapInt64(addr *int64, new int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.SwapInt64(addr, new)
}

// AtomicCompareAndSwapInt64 replaces atomic.CompareAndSwapInt64.
func AtomicCompareAndSwapInt64(addr *int64, old, new int64, s Site) bool {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.CompareAndSwapInt64(addr, old, new)
}

// Int64Add replaces (*atomic.Int64).Add.
func Int64Add(v *atomic.Int64, delta int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Add(delta)
}

// Int64Load replaces (*atomic.Int64).Load.
func Int64Load(v *atomic.Int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicLoad, s)
	return v.Load()
}

// Int64Store replaces (*atomic.Int64).Store.
func Int64Store(v *atomic.Int64, val int64, s Site) {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicStore, s)
	v.Store(val)
}

// Int64Swap replaces (*atomic.Int64).Swap.
func Int64Swap(v *atomic.Int64, new int64, s Site) int64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Swap(new)
}

// Int64CompareAndSwap replaces (*atomic.Int64).CompareAndSwap.
func Int64CompareAndSwap(v *atomic.Int64, old, new int64, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.CompareAndSwap(old, new)
}

// AtomicAddUint32 replaces atomic.AddUint32.
func AtomicAddUint32(addr *uint32, delta uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AddUint32(addr, delta)
}

// AtomicLoadUint32 replaces atomic.LoadUint32.
func AtomicLoadUint32(addr *uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicLoad, s)
	return atomic.LoadUint32(addr)
}

// AtomicStoreUint32 replaces atomic.StoreUint32.
func AtomicStoreUint32(addr *uint32, val uint32, s Site) {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicStore, s)
	atomic.StoreUint32(addr, val)
}

// AtomicSwapUint32 replaces atomic.SwapUint32.
func AtomicSwapUint32(addr *uint32, new uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.SwapUint32(addr, new)
}

// AtomicCompareAndSwapUint32 replaces atomic.CompareAndSwapUint32.
func AtomicCompareAndSwapUint32(addr *uint32, old, new uint32, s Site) bool {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.CompareAndSwapUint32(addr, old, new)
}

// Uint32Add replaces (*atomic.Uint32).Add.
func Uint32Add(v *atomic.Uint32, delta uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Add(delta)
}

// Uint32Load replaces (*atomic.Uint32).Load.
func Uint32Load(v *atomic.Uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicLoad, s)
	return v.Load()
}

// Uint32Store replaces (*atomic.Uint32).Store.
func Uint32Store(v *atomic.Uint32, val uint32, s Site) {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicStore, s)
	v.Store(val)
}

// Uint32Swap replaces (*atomic.Uint32).Swap.
func Uint32Swap(v *atomic.Uint32, new uint32, s Site) uint32 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Swap(new)
}

// Uint32CompareAndSwap replaces (*atomic.Uint32).CompareAndSwap.
func Uint32CompareAndSwap(v *atomic.Uint32, old, new uint32, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.CompareAndSwap(old, new)
}

// AtomicAddUint64 replaces atomic.AddUint64.
func AtomicAddUint64(addr *uint64, delta uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AddUint64(addr, delta)
}

// AtomicLoadUint64 replaces atomic.LoadUint64.
func AtomicLoadUint64(addr *uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicLoad, s)
	return atomic.LoadUint64(addr)
}

// AtomicStoreUint64 replaces atomic.StoreUint64.
func AtomicStoreUint64(addr *uint64, val uint64, s Site) {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicStore, s)
	atomic.StoreUint64(addr, val)
}

// AtomicSwapUint64 replaces atomic.SwapUint64.
func AtomicSwapUint64(addr *uint64, new uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.SwapUint64(addr, new)
}

// AtomicCompareAndSwapUint64 replaces atomic.CompareAndSwapUint64.
func AtomicCompareAndSwapUint64(addr *uint64, old, new uint64, s Site) bool {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.CompareAndSwapUint64(addr, old, new)
}

// Uint64Add replaces (*atomic.Uint64).Add.
func Uint64Add(v *atomic.Uint64, delta uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Add(delta)
}

// Uint64Load replaces (*atomic.Uint64).Load.
func Uint64Load(v *atomic.Uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicLoad, s)
	return v.Load()
}

// Uint64Store replaces (*atomic.Uint64).Store.
func Uint64Store(v *atomic.Uint64, val uint64, s Site) {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicStore, s)
	v.Store(val)
}

// Uint64Swap replaces (*atomic.Uint64).Swap.
func Uint64Swap(v *atomic.Uint64, new uint64, s Site) uint64 {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Swap(new)
}

// Uint64CompareAndSwap replaces (*atomic.Uint64).CompareAndSwap.
func Uint64CompareAndSwap(v *atomic.Uint64, old, new uint64, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.CompareAndSwap(old, new)
}

// AtomicAddUintptr replaces atomic.AddUintptr.
func AtomicAddUintptr(addr *uintptr, delta uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.AddUintptr(addr, delta)
}

// AtomicLoadUintptr replaces atomic.LoadUintptr.
func AtomicLoadUintptr(addr *uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicLoad, s)
	return atomic.LoadUintptr(addr)
}

// AtomicStoreUintptr replaces atomic.StoreUintptr.
func AtomicStoreUintptr(addr *uintptr, val uintptr, s Site) {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicStore, s)
	atomic.StoreUintptr(addr, val)
}

// AtomicSwapUintptr replaces atomic.SwapUintptr.
func AtomicSwapUintptr(addr *uintptr, new uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.SwapUintptr(addr, new)
}

// AtomicCompareAndSwapUintptr replaces atomic.CompareAndSwapUintptr.
func AtomicCompareAndSwapUintptr(addr *uintptr, old, new uintptr, s Site) bool {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.CompareAndSwapUintptr(addr, old, new)
}

// UintptrAdd replaces (*atomic.Uintptr).Add.
func UintptrAdd(v *atomic.Uintptr, delta uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Add(delta)
}

// UintptrLoad replaces (*atomic.Uintptr).Load.
func UintptrLoad(v *atomic.Uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicLoad, s)
	return v.Load()
}

// UintptrStore replaces (*atomic.Uintptr).Store.
func UintptrStore(v *atomic.Uintptr, val uintptr, s Site) {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicStore, s)
	v.Store(val)
}

// UintptrSwap replaces (*atomic.Uintptr).Swap.
func UintptrSwap(v *atomic.Uintptr, new uintptr, s Site) uintptr {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Swap(new)
}

// UintptrCompareAndSwap replaces (*atomic.Uintptr).CompareAndSwap.
func UintptrCompareAndSwap(v *atomic.Uintptr, old, new uintptr, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.CompareAndSwap(old, new)
}

// AtomicLoadPointer replaces atomic.LoadPointer.
func AtomicLoadPointer(addr *unsafe.Pointer, s Site) unsafe.Pointer {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicLoad, s)
	return atomic.LoadPointer(addr)
}

// AtomicStorePointer replaces atomic.StorePointer.
func AtomicStorePointer(addr *unsafe.Pointer, val unsafe.Pointer, s Site) {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicStore, s)
	atomic.StorePointer(addr, val)
}

// AtomicSwapPointer replaces atomic.SwapPointer.
func AtomicSwapPointer(addr *unsafe.Pointer, new unsafe.Pointer, s Site) unsafe.Pointer {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.SwapPointer(addr, new)
}

// AtomicCompareAndSwapPointer replaces atomic.CompareAndSwapPointer.
func AtomicCompareAndSwapPointer(addr *unsafe.Pointer, old, new unsafe.Pointer, s Site) bool {
	atomicPoint(unsafe.Pointer(addr), unsafe.Sizeof(*addr), atomicRMW, s)
	return atomic.CompareAndSwapPointer(addr, old, new)
}

// BoolLoad replaces (*atomic.Bool).Load.
func BoolLoad(v *atomic.Bool, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicLoad, s)
	return v.Load()
}

// BoolStore replaces (*atomic.Bool).Store.
func BoolStore(v *atomic.Bool, val bool, s Site) {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicStore, s)
	v.Store(val)
}

// BoolSwap replaces (*atomic.Bool).Swap.
func BoolSwap(v *atomic.Bool, new bool, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Swap(new)
}

// BoolCompareAndSwap replaces (*atomic.Bool).CompareAndSwap.
func BoolCompareAndSwap(v *atomic.Bool, old, new bool, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.CompareAndSwap(old, new)
}

// PointerLoad replaces (*atomic.Pointer[T]).Load.
func PointerLoad[T any](v *atomic.Pointer[T], s Site) *T {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicLoad, s)
	return v.Load()
}

// PointerStore replaces (*atomic.Pointer[T]).Store.
func PointerStore[T any](v *atomic.Pointer[T], val *T, s Site) {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicStore, s)
	v.Store(val)
}

// PointerSwap replaces (*atomic.Pointer[T]).Swap.
func PointerSwap[T any](v *atomic.Pointer[T], new *T, s Site) *T {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Swap(new)
}

// PointerCompareAndSwap replaces (*atomic.Pointer[T]).CompareAndSwap.
func PointerCompareAndSwap[T any](v *atomic.Pointer[T], old, new *T, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.CompareAndSwap(old, new)
}

// ValueLoad replaces (*atomic.Value).Load.
func ValueLoad(v *atomic.Value, s Site) any {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicLoad, s)
	return v.Load()
}

// ValueStore replaces (*atomic.Value).Store.
func ValueStore(v *atomic.Value, val any, s Site) {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicStore, s)
	v.Store(val)
}

// ValueSwap replaces (*atomic.Value).Swap.
func ValueSwap(v *atomic.Value, new any, s Site) any {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.Swap(new)
}

// ValueCompareAndSwap replaces (*atomic.Value).CompareAndSwap.
func ValueCompareAndSwap(v *atomic.Value, old, new any, s Site) bool {
	atomicPoint(unsafe.Pointer(v), unsafe.Sizeof(*v), atomicRMW, s)
	return v.CompareAndSwap(old, new)
}
