package rt

import (
	"math"
	"reflect"
	"sort"
	"unsafe"
)

// RangeMap replaces the operand of a for-range statement over a map (in
// files of Go 1.23 and later, which range over functions): the
// instrumenter rewrites "for k, v := range m" into
// "for k, v := range rt.RangeMap(m, site)", keeping the statement as it
// was otherwise.
//
// Outside an exploration the result ranges over m natively. Inside one,
// the order is a function of the schedule (see sched.MapOrder), so that
// a replay sees the orders the recorded run saw, while different schedules
// see different orders. As the language allows, an entry deleted before
// it is reached is not produced and an entry added during the range is
// not produced either. Keys are put in a canonical order before the
// permutation; keys that are or contain pointers, channels or interface
// values of types with the same name are ordered by address or as Go
// ranged them, which can differ from one process to the next.
//
// The range reads the map's contents where Go's does: when it starts,
// before each iteration, and when it finds no more entries (Go's race
// detector sees a read of the map in each step of the iterator).
func RangeMap[K comparable, V any](m map[K]V, s Site) func(yield func(K, V) bool) {
	g := cur()
	if g == nil {
		return func(yield func(K, V) bool) {
			for k, v := range m {
				if !yield(k, v) {
					return
				}
			}
		}
	}
	read := func() {}
	if m != nil {
		p := dataPtr(m)
		read = func() { g.Access(p, 8, false, uint32(s)) }
	}
	read()
	keys := make([]K, 0, len(m))
	vals := make([]V, 0, len(m))
	for k, v := range m {
		keys = append(keys, k)
		vals = append(vals, v)
	}
	order := permutation(keys, g.MapOrder(uint32(s)))
	return func(yield func(K, V) bool) {
		for _, i := range order {
			read()
			k := keys[i]
			v, ok := m[k]
			if !ok {
				// Deleted, or a NaN, which no lookup finds and only
				// clear removes.
				if k == k || len(m) == 0 {
					continue
				}
				v = vals[i]
			}
			if !yield(k, v) {
				return
			}
		}
		read()
	}
}

// RangeSlice replaces the operand of a for-range statement over a slice,
// or over a pointer to an array (as p[:]), that has an iteration value (in
// files of Go 1.23 and later): "for i, v := range s" becomes
// "for i, v := range rt.RangeSlice(s, site)", so that the read of s[i]
// that gives each iteration its v is reported where Go makes it, at the
// start of the iteration. s is evaluated once, and its length taken once,
// as the range statement does.
func RangeSlice[S ~[]E, E any](s S, site Site) func(yield func(int, E) bool) {
	g := cur()
	var zero E
	size := unsafe.Sizeof(zero)
	return func(yield func(int, E) bool) {
		for i := range s {
			if g != nil && size > 0 {
				g.Access(unsafe.Pointer(&s[i]), size, false, uint32(site))
			}
			if !yield(i, s[i]) {
				return
			}
		}
	}
}

// permutation returns the indexes of keys in canonical order, shuffled by
// seed.
func permutation[K comparable](keys []K, seed uint64) []int {
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	if len(keys) < 2 {
		return order
	}
	vs := make([]reflect.Value, len(keys))
	for i := range keys {
		vs[i] = reflect.ValueOf(&keys[i]).Elem()
	}
	sort.SliceStable(order, func(a, b int) bool { return compareKeys(vs[order[a]], vs[order[b]]) < 0 })
	for i := len(order) - 1; i > 0; i-- {
		seed = seed*6364136223846793005 + 1442695040888963407
		j := int((seed >> 33) % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// compareKeys orders two values of a comparable type canonically: by
// value for basic types, field by field and element by element for
// structs and arrays, by dynamic type name then value for interfaces, by
// address for pointers and channels. NaNs come after every number.
func compareKeys(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.Bool:
		return compareOrdered(boolInt(a.Bool()), boolInt(b.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return compareOrdered(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return compareOrdered(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return compareFloats(a.Float(), b.Float())
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		if c := compareFloats(real(x), real(y)); c != 0 {
			return c
		}
		return compareFloats(imag(x), imag(y))
	case reflect.String:
		return compareOrdered(a.String(), b.String())
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		return compareOrdered(a.Pointer(), b.Pointer())
	case reflect.Interface:
		switch {
		case a.IsNil() || b.IsNil():
			return compareOrdered(boolInt(!a.IsNil()), boolInt(!b.IsNil()))
		case a.Elem().Type() != b.Elem().Type():
			return compareOrdered(a.Elem().Type().String(), b.Elem().Type().String())
		}
		return compareKeys(a.Elem(), b.Elem())
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareKeys(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := compareKeys(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
	}
	return 0
}

func compareOrdered[T int64 | uint64 | uintptr | string](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func compareFloats(x, y float64) int {
	switch xn, yn := math.IsNaN(x), math.IsNaN(y); {
	case xn && yn:
		return compareOrdered(math.Float64bits(x), math.Float64bits(y))
	case xn:
		return 1
	case yn:
		return -1
	}
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
