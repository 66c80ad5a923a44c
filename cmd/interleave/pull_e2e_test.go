package main

import (
	"regexp"
	"strings"
	"testing"
)

// pullTests pull sequences with iter.Pull and iter.Pull2 whose code
// reaches scheduling points (a lock, a channel, a goroutine it starts),
// and range over a sequence without pulling it; go test -race passes each
// of the first five. The last two are buggy: a sequence that waits,
// holding a lock, for a goroutine that needs the lock first (a deadlock
// on some schedules), and a sequence that writes a variable a goroutine
// writes too, unordered (a data race).
const pullTests = `package m

import (
	"iter"
	"sync"
	"testing"
)

func TestPull(t *testing.T) {
	var mu sync.Mutex
	n := 0
	seq := func(yield func(int) bool) {
		for i := 0; i < 3; i++ {
			mu.Lock()
			n++
			mu.Unlock()
			if !yield(i) {
				return
			}
		}
	}
	next, stop := iter.Pull(seq)
	defer stop()
	for {
		if _, ok := next(); !ok {
			break
		}
	}
	if n != 3 {
		t.Errorf("n = %d, want 3", n)
	}
}

func TestPull2StartsGoroutines(t *testing.T) {
	var mu sync.Mutex
	sum := 0
	seq := func(yield func(int, int) bool) {
		var wg sync.WaitGroup
		for i := 1; i <= 2; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mu.Lock()
				sum += i
				mu.Unlock()
			}()
		}
		wg.Wait()
		mu.Lock()
		s := sum
		mu.Unlock()
		yield(s, 2)
	}
	next, stop := iter.Pull2(seq)
	s, k, ok := next()
	stop()
	if !ok || s != 3 || k != 2 {
		t.Errorf("next() = %d, %d, %v, want 3, 2, true", s, k, ok)
	}
}

func TestStopEarly(t *testing.T) {
	var mu sync.Mutex
	closed := false
	seq := func(yield func(int) bool) {
		defer func() { mu.Lock(); closed = true; mu.Unlock() }()
		for i := 0; ; i++ {
			if !yield(i) {
				return
			}
		}
	}
	next, stop := iter.Pull(seq)
	next()
	next()
	stop()
	if _, ok := next(); ok {
		t.Error("next after stop returned a value")
	}
	mu.Lock()
	defer mu.Unlock()
	if !closed {
		t.Error("the sequence did not end at stop")
	}
}

func TestRangeOverFunc(t *testing.T) {
	var mu sync.Mutex
	ch := make(chan int, 1)
	seq := func(yield func(int) bool) {
		for i := 0; i < 3; i++ {
			mu.Lock()
			ch <- i
			mu.Unlock()
			if !yield(<-ch) {
				return
			}
		}
	}
	n := 0
	for v := range seq {
		n += v
	}
	if n != 3 {
		t.Errorf("n = %d, want 3", n)
	}
}

func TestPullOrdered(t *testing.T) {
	n := 0
	done := make(chan bool)
	go func() { n++; done <- true }()
	seq := func(yield func(int) bool) {
		<-done
		n++
		yield(n)
	}
	next, stop := iter.Pull(seq)
	defer stop()
	if v, _ := next(); v != 2 {
		t.Errorf("next() = %d, want 2", v)
	}
}

func TestPullDeadlock(t *testing.T) {
	var mu sync.Mutex
	ch := make(chan int)
	go func() {
		mu.Lock()
		mu.Unlock()
		ch <- 1
	}()
	seq := func(yield func(int) bool) {
		mu.Lock()
		v := <-ch
		mu.Unlock()
		yield(v)
	}
	next, stop := iter.Pull(seq)
	defer stop()
	next()
}

func TestPullRace(t *testing.T) {
	n := 0
	done := make(chan bool)
	go func() { n++; done <- true }()
	seq := func(yield func(int) bool) {
		n++
		yield(n)
	}
	next, stop := iter.Pull(seq)
	next()
	stop()
	<-done
}
`

// testSection returns the lines go test -v prints for test name, from its
// "=== RUN" line to its result line.
func testSection(out, name string) string {
	re := regexp.MustCompile(`(?s)=== RUN   ` + name + `\n.*?--- (PASS|FAIL|SKIP): ` + name + ` `)
	return re.FindString(out)
}

// TestPulledSequences: a sequence pulled with iter.Pull or iter.Pull2 runs
// as the goroutine that calls next, as it does natively (the caller waits
// while it runs), so that what it does is explored like the caller's own
// code: the correct tests pass, the buggy ones report their deadlock and
// race. Before, the sequence's first scheduling point found a goroutine
// other than the caller, adopted it as a new one, which waited for the
// schedule the caller held while the caller waited for it: "stuck" after
// 10s.
func TestPulledSequences(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.23\n", "m_test.go": pullTests})
	for _, strategy := range []string{"random", "dfs"} {
		code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy="+strategy, "-schedules=100", "-v", ".")
		if code != 1 {
			t.Fatalf("%s: exit %d, want 1\n%s\n%s", strategy, code, stdout, stderr)
		}
		for name, want := range map[string]string{
			"TestPull":                  "--- PASS",
			"TestPull2StartsGoroutines": "--- PASS",
			"TestStopEarly":             "--- PASS",
			"TestRangeOverFunc":         "--- PASS",
			"TestPullOrdered":           "--- PASS",
			"TestPullDeadlock":          "interleave: deadlock after",
			"TestPullRace":              "interleave: data race after",
		} {
			s := testSection(stdout, name)
			if !strings.Contains(s, want) || strings.Contains(s, "stuck") {
				t.Errorf("%s: %s: want %q, got:\n%s", strategy, name, want, s)
			}
		}
		if strings.Contains(stdout, "stuck") {
			t.Errorf("%s: a test was called stuck:\n%s", strategy, stdout)
		}
	}
}
