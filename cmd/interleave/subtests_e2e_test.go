package main

import (
	"strings"
	"testing"
)

// subtestTests are table-driven tests whose subtests call t.Parallel, as
// Go tests commonly do: a cache shared by parallel subtests, written
// without its lock (a race go test -race reports when the subtests
// meet) and its fixed twin; a parent that sets what its parallel
// subtests read after starting them (no race: they run once it has
// returned); a parallel subtest that waits for its parent, which waits
// for it (a deadlock: it runs only after the parent returns); subtests
// that skip or fail on their own; a subtest's cleanup, which runs when it
// ends.
const subtestTests = `package m

import (
	"sync"
	"testing"
)

type cache struct {
	mu   sync.Mutex
	data map[string]int
}

func (c *cache) get(k string, locked bool) int {
	c.mu.Lock()
	v, ok := c.data[k]
	c.mu.Unlock()
	if !ok {
		v = len(k)
		if locked {
			c.mu.Lock()
			c.data[k] = v
			c.mu.Unlock()
		} else {
			c.data[k] = v
		}
	}
	return v
}

func table(t *testing.T, locked bool) {
	c := &cache{data: map[string]int{}}
	for _, k := range []string{"a", "bb"} {
		t.Run(k, func(t *testing.T) {
			t.Parallel()
			if c.get(k, locked) != len(k) {
				t.Error("wrong value")
			}
		})
	}
}

func TestParallelUnlocked(t *testing.T) { table(t, false) }

func TestParallelLocked(t *testing.T) { table(t, true) }

func TestParentFirst(t *testing.T) {
	var prefix string
	for _, k := range []string{"a", "b"} {
		t.Run(k, func(t *testing.T) {
			t.Parallel()
			if prefix+k == k {
				t.Error("the parent had not returned")
			}
		})
	}
	prefix = "p-"
}

func TestWaitsForParent(t *testing.T) {
	ch := make(chan int)
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		<-ch
	})
	ch <- 1
}

func TestSkipOne(t *testing.T) {
	ran := 0
	var mu sync.Mutex
	for _, k := range []string{"skip", "run"} {
		t.Run(k, func(t *testing.T) {
			if k == "skip" {
				t.Skip("not this one")
			}
			mu.Lock()
			ran++
			mu.Unlock()
		})
	}
	if ran != 1 {
		t.Errorf("ran %d subtests after the skipped one, want 1", ran)
	}
}

func TestSubtestCleanup(t *testing.T) {
	var order []string
	t.Run("sub", func(t *testing.T) {
		t.Cleanup(func() { order = append(order, "sub cleanup") })
		order = append(order, "sub")
	})
	order = append(order, "after")
	if len(order) != 3 || order[1] != "sub cleanup" {
		t.Errorf("order %v, want the subtest's cleanup before the parent goes on", order)
	}
}

func TestFailNowInSubtest(t *testing.T) {
	t.Run("fails", func(t *testing.T) {
		t.FailNow()
	})
}
`

// TestParallelSubtests: subtests run in goroutines of their own, and
// those that call t.Parallel run side by side once their parent has
// returned, as package testing runs them. Before, a subtest ran inline
// in its parent, so no race or deadlock between parallel subtests was
// ever explored (go test -race reports the cache race when the subtests
// meet).
func TestParallelSubtests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": passingModule, "m_test.go": subtestTests})
	for _, strategy := range []string{"random", "dpor"} {
		code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy="+strategy, "-schedules=200", "-v", ".")
		if code != 1 {
			t.Fatalf("%s: exit %d, want 1\n%s\n%s", strategy, code, stdout, stderr)
		}
		for _, want := range []string{
			"--- FAIL: TestParallelUnlocked", "interleave: data race after",
			"--- PASS: TestParallelLocked", "--- PASS: TestParentFirst", "--- PASS: TestSkipOne", "--- PASS: TestSubtestCleanup",
			"--- FAIL: TestWaitsForParent", "interleave: deadlock after 1 schedule",
			"--- FAIL: TestFailNowInSubtest", "interleave: test failure after 1 schedule",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: output lacks %q:\n%s", strategy, want, stdout)
			}
		}
		if !strings.Contains(stderr, "7 tests") || !strings.Contains(stderr, "4 passed") || !strings.Contains(stderr, "3 with findings") {
			t.Errorf("%s: summary:\n%s", strategy, stderr)
		}
	}
}
