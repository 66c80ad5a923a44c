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
