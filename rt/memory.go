package rt

import "reflect"

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
