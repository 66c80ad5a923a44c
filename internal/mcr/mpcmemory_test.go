package mcr

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rss returns the resident set size of the process.
func rss(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skipf("no /proc/self/statm: %v", err)
	}
	pages, err := strconv.ParseInt(strings.Fields(string(b))[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// SolveMPC closes what it makes in Z3 (the context, a solver per prefix,
// the models): queries one after another do not add to the resident set.
// The goroutine stays on its thread, as in the solver process (package
// z3's memory tests say why).
func TestMPCDoesNotLeak(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	fig1, _, _, _ := figure1(-1000, 1000)
	q1 := fig1.query(prefix(cut(2, 1, true)), prefix(), prefix(cut(0, 0, false), cut(2, 1, true)))
	q6, _ := figure6Trace()
	solve := func() {
		if a, b := SolveMPC(q1), SolveMPC(q6); a.Error != "" || b.Error != "" {
			t.Fatal(a.Error, b.Error)
		}
	}
	n := 200
	if testing.Short() {
		n = 50
	}
	for range 30 { // warm up the allocators
		solve()
	}
	settle := func() {
		runtime.GC()
		debug.FreeOSMemory()
	}
	settle()
	rss0 := rss(t)
	start := time.Now()
	var rssHalf int64
	for i := range n {
		if i == n/2 {
			settle()
			rssHalf = rss(t)
		}
		solve()
	}
	settle()
	rss1 := rss(t)
	t.Logf("%d query pairs in %v: RSS %d -> %d -> %d", n, time.Since(start), rss0, rssHalf, rss1)
	if d, d2 := rss1-rss0, rss1-rssHalf; d > 20<<20 || d2 > 8<<20 {
		t.Errorf("RSS grew by %d bytes over %d query pairs, %d over the second half", d, n, d2)
	}
}
