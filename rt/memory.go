package rt

import (
	"reflect"
	"sync"
	"unsafe"
)

// Read reports a read of possibly shared memory. addr is a pointer to the
// value read, whose type gives the size of the access (a field, a whole
// struct copy), or a map value for a read of a map's contents. The
// instrumenter inserts it before the statement that reads.
func Read(addr any, s Site) {
	if g := cur(); g != nil {
		g.Access(dataPtr(addr), accessSize(addr), false, uint32(s))
	}
}

// Write reports a write of possibly shared memory, like Read.
func Write(addr any, s Site) {
	if g := cur(); g != nil {
		g.Access(dataPtr(addr), accessSize(addr), true, uint32(s))
	}
}

// Wrote reports a write of possibly shared memory right after the
// statement that made it (the instrumenter reports a statement's accesses
// after it when the statement calls a function, so that the call runs
// first): a write, for scheduling and race detection, whose memory holds
// the value written, for strategy mcr.
func Wrote(addr any, s Site) {
	if g := cur(); g != nil {
		g.Wrote(dataPtr(addr), accessSize(addr), uint32(s))
	}
}

// Update reports a statement that reads a location and then writes it
// (x++, x += y, x = x + 1): a write, for scheduling and race detection,
// whose old value was read, for strategy mcr.
func Update(addr any, s Site) {
	if g := cur(); g != nil {
		g.Update(dataPtr(addr), accessSize(addr), uint32(s))
	}
}

// accessSize is the number of bytes an access through addr touches: the
// size of the pointee for a pointer, one word for anything else (a map's
// contents, an unsafe.Pointer). It does not allocate.
func accessSize(addr any) uintptr {
	t := reflect.TypeOf(addr)
	if t != nil && t.Kind() == reflect.Pointer {
		return t.Elem().Size()
	}
	return 8
}

// ReadSlice reports a read of every element of s, as code of the standard
// library that reads a slice the program passed it does (copy's source,
// slices.Index, the elements append copies when it grows a slice): the
// instrumenter inserts it at the call, for the argument.
func ReadSlice[S ~[]E, E any](s S, site Site) {
	elems(s, 0, len(s), readMode, site)
}

// WriteSlice reports a write of every element of s (clear(s), copy's
// destination), like ReadSlice.
func WriteSlice[S ~[]E, E any](s S, site Site) {
	elems(s, 0, len(s), writeMode, site)
}

// UpdateSlice reports a read and then a write of every element of s
// (slices.Sort, slices.Reverse), like ReadSlice.
func UpdateSlice[S ~[]E, E any](s S, site Site) {
	elems(s, 0, len(s), updateMode, site)
}

// Append reports what append(s, ...) with n more elements does to the
// memory of s: when they fit in the capacity it writes them past the end
// of s, in s's array; otherwise it copies s into a new array, which reads
// every element of s. The header of s is read like any variable.
func Append[S ~[]E, E any](s S, n int, site Site) {
	switch {
	case n <= 0:
	case n <= cap(s)-len(s):
		elems(s, len(s), len(s)+n, writeMode, site)
	default:
		elems(s, 0, len(s), readMode, site)
	}
}

// Grow reports what slices.Grow(s, n) does to the memory of s: when n
// more elements do not fit in its capacity, it copies s into a new array.
func Grow[S ~[]E, E any](s S, n int, site Site) {
	if n > cap(s)-len(s) {
		elems(s, 0, len(s), readMode, site)
	}
}

// Copy reports copy(dst, src): a read of the elements of src it copies,
// then a write of those of dst it overwrites.
func Copy[D ~[]E, S ~[]E, E any](dst D, src S, site Site) {
	n := min(len(dst), len(src))
	elems(src, 0, n, readMode, site)
	elems(dst, 0, n, writeMode, site)
}

// CopyString reports copy(dst, src) from a string: a write of the bytes
// of dst it overwrites (a string's bytes are never written).
func CopyString[D ~[]byte, T ~string](dst D, src T, site Site) {
	elems(dst, 0, min(len(dst), len(src)), writeMode, site)
}

// elems reports an access of the elements i to j-1 of s's array, which
// may lie past len(s) up to cap(s).
func elems[S ~[]E, E any](s S, i, j int, m mode, site Site) {
	g := cur()
	var zero E
	size := unsafe.Sizeof(zero)
	if g == nil || i >= j || size == 0 {
		return
	}
	addr := unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(i)*size)
	n := uintptr(j-i) * size
	switch m {
	case readMode:
		g.Access(addr, n, false, uint32(site))
	case writeMode:
		g.Access(addr, n, true, uint32(site))
	default:
		g.Update(addr, n, uint32(site))
	}
}

// mode is what an access of several elements does.
type mode uint8

const (
	readMode mode = iota
	writeMode
	updateMode
)

// ReadRecv reports what calling the method named method on the interface
// value x reads, when x holds a pointer *T and the method has a value
// receiver: the call copies the T it points to (Go's race detector sees
// the read in the wrapper method of *T). The instrumenter inserts it
// before a call of an exported method through an interface; the methods
// of *T that are not methods of T read nothing, and unexported methods,
// which reflection does not see, are not reported.
func ReadRecv(x any, method string, site Site) {
	g := cur()
	if g == nil {
		return
	}
	t := reflect.TypeOf(x)
	if t == nil || t.Kind() != reflect.Pointer {
		return
	}
	p := dataPtr(x)
	if p == nil || !valueMethod(t.Elem(), method) {
		return
	}
	if size := t.Elem().Size(); size > 0 {
		g.Access(p, size, false, uint32(site))
	}
}

// valueMethods caches, for a type and a method name, whether the type has
// the method with a value receiver.
var valueMethods sync.Map // recvKey -> bool

type recvKey struct {
	t    reflect.Type
	name string
}

// valueMethod reports whether t has an exported method name with a value
// receiver (a method of t, not only of *t).
func valueMethod(t reflect.Type, name string) bool {
	k := recvKey{t, name}
	if v, ok := valueMethods.Load(k); ok {
		return v.(bool)
	}
	_, ok := t.MethodByName(name)
	if t.Kind() == reflect.Interface {
		ok = false
	}
	valueMethods.Store(k, ok)
	return ok
}
