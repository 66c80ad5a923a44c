//line testdata/memstats_test.go:1
package memstats; import __rt "interleave.dev/rt"

import (
	"runtime"
	"testing"
)

var sink *int

// The allocator's counters, less the tool's allocations.
func TestAllocs(t *testing.T) { __rt.Test(t, func(t *testing.T) {
	var m runtime.MemStats
	__rt.ReadMemStats(&m, __rtSites_8cde7d96+0)
	n := __rt.AllocsPerRun(10, func() { __rt.Write(&sink, __rtSites_8cde7d96+2); sink = new(int) }, __rtSites_8cde7d96+1)
	_ = n
})}

var __rtSites_8cde7d96 = __rt.RegisterFile("testdata/memstats_test.go", "\n\nv*sink", 13, 2, 14, 7, 14, 41)
