package rt

// Read reports a read of possibly shared memory. addr is a pointer to the
// location read, or a map value for a read of a map's contents. The
// instrumenter inserts it before the statement that reads.
func Read(addr any, s Site) {
	if g := cur(); g != nil {
		g.Access(dataPtr(addr), false, uint32(s))
	}
}

// Write reports a write of possibly shared memory, like Read.
func Write(addr any, s Site) {
	if g := cur(); g != nil {
		g.Access(dataPtr(addr), true, uint32(s))
	}
}
