package rt

import (
	"math"
	"reflect"
	"sort"
	"unsafe"

	"interleave.dev/rt/internal/sched"
)

// RangeMap replaces the operand of a for-range statement over a map (in
// files of Go 1.23 and later, which range over functions): the
// instrumenter rewrites "for k, v := range m" into
// "for k, v := range rt.RangeMap(m, site)", keeping the statement as it
// was otherwise. Earlier files range over a MapIter instead, which
// produces the same entries in the same order.
//
// Outside an exploration the result ranges over m natively. Inside one,
// the order is a function of the schedule (see sched.MapOrder), so that
// a replay sees the orders the recorded run saw, while different schedules
// see different orders. As the language allows, an entry deleted before
// it is reached is not produced and an entry added during the range is
// not produced either; the value produced is the one the map holds when
// the entry is reached. Keys are put in a canonical order before the
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
	r := new(mapRange[K, V])
	r.start(g, m, s)
	return func(yield func(K, V) bool) {
		for {
			k, v, ok := r.next()
			if !ok || !yield(k, v) {
				return
			}
		}
	}
}

// MapIter is a range over a map in a file of a Go version before 1.23,
// which cannot range over a function: the instrumenter rewrites
//
//	for k, v := range m { body }
//
// into the three-clause loop
//
//	for it, k, v := rt.RangeMapIter(m, site); it.Next(); { k, v = it.Entry(); body }
//
// whose variables are declared once for the whole loop before Go 1.22
// and once per iteration from Go 1.22 on, as the range's are. A range
// that assigns to existing variables, for k, v = range m, declares none
// (for it, _, _ := ...) and assigns them at the start of the body in the
// same way. Labels, break, continue, goto, return and defer in the body
// keep their meaning.
//
// Inside an exploration the entries, their order and the reads of the
// map reported are those of RangeMap. Outside one the iterator is Go's
// own (through reflect.MapIter).
type MapIter[K comparable, V any] struct {
	r *mapRange[K, V] // inside an exploration; nil outside
	k K
	v V
	// Outside an exploration: Go's iterator over the map, whose entries
	// are copied into k and v.
	native reflect.MapIter
}

// RangeMapIter starts a range over m (see MapIter) and returns the
// iterator with the zero values of the map's key and value types, which
// declare the range's variables without naming their types.
func RangeMapIter[K comparable, V any](m map[K]V, s Site) (it *MapIter[K, V], zeroKey K, zeroValue V) {
	it = new(MapIter[K, V])
	if g := cur(); g != nil {
		it.r = new(mapRange[K, V])
		it.r.start(g, m, s)
		return it, zeroKey, zeroValue
	}
	it.native.Reset(reflect.ValueOf(m))
	return it, zeroKey, zeroValue
}

// Next advances to the next entry; it reports false, and the range ends,
// when there is none.
func (it *MapIter[K, V]) Next() bool {
	if it.r == nil {
		return it.native.Next()
	}
	var ok bool
	it.k, it.v, ok = it.r.next()
	return ok
}

// Key returns the key of the entry Next advanced to.
func (it *MapIter[K, V]) Key() K {
	if it.r == nil {
		if e := iterEntry(&it.native); e != nil {
			return *(*K)(e[0])
		}
		reflect.ValueOf(&it.k).Elem().SetIterKey(&it.native)
	}
	return it.k
}

// Entry returns the key and the value of the entry Next advanced to.
func (it *MapIter[K, V]) Entry() (K, V) {
	if it.r == nil {
		if e := iterEntry(&it.native); e != nil {
			return *(*K)(e[0]), *(*V)(e[1])
		}
		reflect.ValueOf(&it.k).Elem().SetIterKey(&it.native)
		reflect.ValueOf(&it.v).Elem().SetIterValue(&it.native)
	}
	return it.k, it.v
}

// iterEntry returns the pointers to the key and the value of the entry
// Go's map iterator inside it is at, or nil if they are not where
// iterLayout found them. The compiler's range loops read them in the
// first two words of the runtime's iterator, which reflect.MapIter holds
// after the map; reading them there spares a range outside an exploration
// the cost of reflect.Value.SetIterKey and SetIterValue.
func iterEntry(it *reflect.MapIter) *[2]unsafe.Pointer {
	if !iterLayout {
		return nil
	}
	return (*[2]unsafe.Pointer)(unsafe.Add(unsafe.Pointer(it), unsafe.Sizeof(reflect.Value{})))
}

// iterLayout reports whether the key and the value of reflect.MapIter's
// entry are where iterEntry reads them, for keys and values stored in the
// map and for ones too large, stored indirectly.
var iterLayout = func() bool {
	small := map[int64]string{7: "seven"}
	big := map[[40]int64][40]int64{{1: 8}: {2: 9}}
	var a, b reflect.MapIter
	a.Reset(reflect.ValueOf(small))
	b.Reset(reflect.ValueOf(big))
	if !a.Next() || !b.Next() {
		return false
	}
	off := unsafe.Sizeof(reflect.Value{})
	ea := (*[2]unsafe.Pointer)(unsafe.Add(unsafe.Pointer(&a), off))
	eb := (*[2]unsafe.Pointer)(unsafe.Add(unsafe.Pointer(&b), off))
	return ea[0] != nil && ea[1] != nil && eb[0] != nil && eb[1] != nil &&
		*(*int64)(ea[0]) == 7 && *(*string)(ea[1]) == "seven" &&
		(*(*[40]int64)(eb[0]))[1] == 8 && (*(*[40]int64)(eb[1]))[2] == 9
}()

// mapRange is a range over a map inside an exploration, shared by
// RangeMap and MapIter: the entries the map holds when the range starts,
// in the order of the schedule, each produced if the map still holds it
// when it is reached, with the value it holds then.
type mapRange[K comparable, V any] struct {
	g     *sched.G
	m     map[K]V
	p     unsafe.Pointer // the map's contents (nil for a nil map)
	site  uint32
	keys  []K
	vals  []V
	order []int // indexes in keys, in the order of the range
	i     int   // the next index in order; len(order)+1 once ended
}

// start begins the range over m at site s for the controlled goroutine g:
// it reads the map, takes its entries, and draws their order.
func (r *mapRange[K, V]) start(g *sched.G, m map[K]V, s Site) {
	r.g, r.m, r.site = g, m, uint32(s)
	if m != nil {
		r.p = dataPtr(m)
	}
	r.read()
	r.keys = make([]K, 0, len(m))
	r.vals = make([]V, 0, len(m))
	for k, v := range m {
		r.keys = append(r.keys, k)
		r.vals = append(r.vals, v)
	}
	r.order = permutation(r.keys, g.MapOrder(r.site))
}

// read reports the read of the map's contents that a step of the range
// makes.
func (r *mapRange[K, V]) read() {
	if r.p != nil {
		r.g.Access(r.p, 8, false, r.site)
	}
}

// next returns the next entry, or false when there is none (reading the
// map one last time, the first time).
func (r *mapRange[K, V]) next() (k K, v V, ok bool) {
	for r.i < len(r.order) {
		r.read()
		i := r.order[r.i]
		r.i++
		k = r.keys[i]
		if v, ok = r.m[k]; ok {
			return k, v, true
		}
		// Deleted, or a NaN, which no lookup finds and only clear
		// removes.
		if k != k && len(r.m) > 0 {
			return k, r.vals[i], true
		}
	}
	if r.i == len(r.order) {
		r.i++
		r.read()
	}
	var zk K
	var zv V
	return zk, zv, false
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
