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

// MapRange replaces (*sync.Map).Range. Inside an exploration it visits
// the keys the map holds when it starts, in an order that is a function
// of the schedule as a map range's is (RangeMap), each with the value it
// holds when visited, skipping the ones deleted by then: one of the
// behaviors Range allows ("Range may reflect any mapping for that key
// from any point during the Range call"). Natively the order follows the
// map's hashes, seeded per process, and f's scheduling points let other
// goroutines change the map in between: a replay in another process saw
// other keys.
func MapRange(m *sync.Map, f func(key, value any) bool, s Site) {
	g := cur()
	if g == nil {
		m.Range(f)
		return
	}
	mapPoint(m, false, s)
	var keys []any
	m.Range(func(k, _ any) bool { keys = append(keys, k); return true })
	for _, i := range permutation(keys, g.MapOrder(uint32(s))) {
		v, ok := m.Load(keys[i])
		if !ok {
			continue
		}
		if !f(keys[i], v) {
			return
		}
	}
}

// mapPoint reports an operation on a sync.Map to the scheduler; the caller
// then performs it natively.
func mapPoint(m *sync.Map, write bool, s Site) {
	if g := cur(); g != nil {
		g.MapOp(unsafe.Pointer(m), write, uint32(s))
	}
}
