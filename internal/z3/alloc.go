package z3

/*
#include <z3.h>
*/
import "C"

// estimatedAllocSize returns Z3's count of the bytes it has allocated and
// not freed, over all contexts (for the memory tests). Z3 adds each
// thread's allocations to it in steps of about 100 KB.
func estimatedAllocSize() uint64 {
	return uint64(C.Z3_get_estimated_alloc_size())
}
