package rt

import (
	"unsafe"

	"interleave.dev/rt/internal/sched"
)

// cur returns the calling controlled goroutine, or nil outside an
// exploration (the operation then runs natively).
func cur() *sched.G { return sched.Current() }

// dataPtr returns the data word of an interface holding a pointer-shaped
// value (pointer, map, channel): the identity of what it points to.
func dataPtr(x any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&x))[1]
}
