package memstats

import (
	"runtime"
	"testing"
)

var sink *int

// The allocator's counters, less the tool's allocations.
func TestAllocs(t *testing.T) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	n := testing.AllocsPerRun(10, func() { sink = new(int) })
	_ = n
}
