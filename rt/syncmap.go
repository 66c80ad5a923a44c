package rt

import (
	"sync"
	"unsafe"
)

// MapLoad replaces (*sync.Map).Load.
func MapLoad(m *sync.Map, key any, s Site) (any, bool) {
	mapPoint(m, false, s)
	return m.Load(key)
}

// MapStore replaces (*sync.Map).Store.
func MapStore(m *sync.Map, key, value any, s Site) {
	mapPoint(m, true, s)
	m.Store(key, value)
}

// MapLoadOrStore replaces (*sync.Map).LoadOrStore.
func MapLoadOrStore(m *sync.Map, key, value any, s Site) (any, bool) {
	mapPoint(m, true, s)
	return m.LoadOrStore(key, value)
}

// MapLoadAndDelete replaces (*sync.Map).LoadAndDelete.
func MapLoadAndDelete(m *sync.Map, key any, s Site) (any, bool) {
	mapPoint(m, true, s)
	return m.LoadAndDelete(key)
}

// MapDelete replaces (*sync.Map).Delete.
func MapDelete(m *sync.Map, key any, s Site) {
	mapPoint(m, true, s)
	m.Delete(key)
}

// MapSwap replaces (*sync.Map).Swap.
func MapSwap(m *sync.Map, key, value any, s Site) (any, bool) {
	mapPoint(m, true, s)
	return m.Swap(key, value)
}

// MapCompareAndSwap replaces (*sync.Map).CompareAndSwap.
func MapCompareAndSwap(m *sync.Map, key, old, new any, s Site) bool {
	mapPoint(m, true, s)
	return m.CompareAndSwap(key, old, new)
}

// MapCompareAndDelete replaces (*sync.Map).CompareAndDelete.
func MapCompareAndDelete(m *sync.Map, key, old any, s Site) bool {
	mapPoint(m, true, s)
	return m.CompareAndDelete(key, old)
}

// MapRange replaces (*sync.Map).Range.
func MapRange(m *sync.Map, f func(key, value any) bool, s Site) {
	mapPoint(m, false, s)
	m.Range(f)
}

// mapPoint reports an operation on a sync.Map to the scheduler; the caller
// then performs it natively.
func mapPoint(m *sync.Map, write bool, s Site) {
	if g := cur(); g != nil {
		g.MapOp(unsafe.Pointer(m), write, uint32(s))
	}
}
