package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

// fidelityQueue is a generic queue over a channel, shared by the
// fidelity modules.
const fidelityQueue = `package fid

// Queue is a bounded FIFO queue.
type Queue[T any] struct{ c chan T }

// NewQueue returns a queue holding up to n values.
func NewQueue[T any](n int) *Queue[T] { return &Queue[T]{c: make(chan T, n)} }

// Put adds v, waiting for room.
func (q *Queue[T]) Put(v T) { q.c <- v }

// Get removes the oldest value, waiting for one.
func (q *Queue[T]) Get() T { return <-q.c }
`

// fidelityLoopTest is the most common goroutine idiom of modern Go: one
// goroutine per iteration, each using the loop variable.
const fidelityLoopTest = `
func TestGenericQueue(t *testing.T) {
	q := NewQueue[int](1)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); q.Put(i) }()
	}
	for i := 0; i < 3; i++ {
		_ = q.Get()
	}
	wg.Wait()
}
`

// TestFidelityModern runs programs of a go 1.26 module and checks what is
// reported for each: nothing for correct programs, a data race for racy
// ones.
func TestFidelityModern(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	results := runFidelity(t, "1.26", fidelityLoopTest+`
// The goroutine reads this iteration's i, which the body writes later.
func TestLoopVarWrittenInBody(t *testing.T) {
	done := make(chan int)
	for i := 0; i < 1; i++ {
		go func() { done <- i }()
		i += 0
	}
	<-done
}

type worker struct {
	r   chan int
	n   int
	out chan int
}

// start starts a goroutine that reads w.r.
func (w *worker) start() chan int {
	c := make(chan int, 1)
	go func() { w.out <- len(w.r) }()
	return c
}

// The field is written when start returns, while start's goroutine reads it.
func TestWriteAfterStart(t *testing.T) {
	w := &worker{out: make(chan int, 1)}
	w.r = w.start()
	<-w.out
}

func (w *worker) make() chan int { return make(chan int, 1) }

// The goroutine starts after the write.
func TestWriteBeforeStart(t *testing.T) {
	w := &worker{out: make(chan int, 1)}
	w.r = w.make()
	go func() { w.out <- len(w.r) }()
	<-w.out
}

// bump starts a goroutine that writes w.n and returns a channel that says
// when it did.
func (w *worker) bump() chan int {
	done := make(chan int)
	go func() { w.n = 1; done <- 0 }()
	return done
}

// w.n is read after the receive that orders the goroutine's write before it.
func TestReadAfterReceive(t *testing.T) {
	w := &worker{}
	done := w.bump()
	x := <-done + w.n
	if x != 1 {
		t.Errorf("x = %d, want 1", x)
	}
}

// The same in an if statement's init.
func TestReadAfterReceiveInIf(t *testing.T) {
	w := &worker{}
	done := w.bump()
	if x := <-done + w.n; x != 1 {
		t.Errorf("x = %d, want 1", x)
	}
}

// w.n is read after bump returns, while its goroutine writes it.
func TestReadAfterCall(t *testing.T) {
	w := &worker{}
	var done chan int
	x := len(func() chan int { done = w.bump(); return done }()) + w.n
	_ = x
	<-done
}

type entry struct{ f int }

// The index calls a function: the access is still seen, and the function
// called once.
func TestIndexByCall(t *testing.T) {
	s := make([]int, 2)
	calls := 0
	next := func() int { calls++; return 1 }
	done := make(chan bool)
	go func() { _ = s[1]; done <- true }()
	s[next()] = 1
	<-done
	if calls != 1 {
		t.Errorf("next called %d times", calls)
	}
}

// The map key calls a function: the entry's field is still seen.
func TestMapKeyByCall(t *testing.T) {
	m := map[string]*entry{"k": {}}
	calls := 0
	key := func() string { calls++; return "k" }
	e := m["k"]
	done := make(chan bool)
	go func() { _ = e.f; done <- true }()
	m[key()].f = 1
	<-done
	if calls != 1 {
		t.Errorf("key called %d times", calls)
	}
}

// Index and key calls in a correct program: nothing to report.
func TestCallPathsOrdered(t *testing.T) {
	s := make([]int, 2)
	m := map[string]*entry{"k": {}}
	calls := 0
	next := func() int { calls++; return 1 }
	done := make(chan bool)
	go func() { s[1] = 1; m["k"].f = 1; done <- true }()
	<-done
	s[next()]++
	m[func() string { calls++; return "k" }()].f++
	if calls != 2 || s[1] != 2 || m["k"].f != 2 {
		t.Errorf("calls %d, s %v, f %d", calls, s, m["k"].f)
	}
}
`)
	want := map[string]string{
		"TestGenericQueue":         "",
		"TestLoopVarWrittenInBody": "data race",
		"TestWriteAfterStart":      "data race",
		"TestWriteBeforeStart":     "",
		"TestReadAfterReceive":     "",
		"TestReadAfterReceiveInIf": "",
		"TestReadAfterCall":        "data race",
		"TestIndexByCall":          "data race",
		"TestMapKeyByCall":         "data race",
		"TestCallPathsOrdered":     "",
	}
	checkFidelity(t, results, want)
}

// TestFidelityLegacy runs programs of a go 1.21 module, whose loops share
// their variables between iterations, as Go's race detector sees them.
func TestFidelityLegacy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	results := runFidelity(t, "1.21", fidelityLoopTest+`
// The goroutines read the one v that every iteration writes.
func TestRangeVarSlice(t *testing.T) {
	q := NewQueue[int](3)
	for _, v := range []int{1, 2, 3} {
		go func() { q.Put(v) }()
	}
	for i := 0; i < 3; i++ {
		_ = q.Get()
	}
}

func TestRangeVarMap(t *testing.T) {
	q := NewQueue[string](2)
	for k := range map[string]bool{"a": true, "b": true} {
		go func() { q.Put(k) }()
	}
	_, _ = q.Get(), q.Get()
}

func TestRangeVarChan(t *testing.T) {
	c := make(chan int, 2)
	c <- 1
	c <- 2
	close(c)
	q := NewQueue[int](2)
	for v := range c {
		go func() { q.Put(v) }()
	}
	_, _ = q.Get(), q.Get()
}

// Each goroutine gets its own copy: nothing to report.
func TestRangeVarCopied(t *testing.T) {
	q := NewQueue[int](3)
	for _, v := range []int{1, 2, 3} {
		v := v
		go func() { q.Put(v) }()
	}
	for i := 0; i < 3; i++ {
		_ = q.Get()
	}
}
`)
	want := map[string]string{
		"TestGenericQueue":   "data race",
		"TestRangeVarSlice":  "data race",
		"TestRangeVarMap":    "data race",
		"TestRangeVarChan":   "data race",
		"TestRangeVarCopied": "",
	}
	checkFidelity(t, results, want)
}

// runFidelity runs the tests of a module declaring go goLine, made of the
// queue and a test file with tests, under interleave, and returns each
// test's result.
func runFidelity(t *testing.T, goLine, tests string) map[string]wire.Result {
	t.Helper()
	return runFidelityModule(t, map[string]string{
		"go.mod":      "module example.com/fid\n\ngo " + goLine + "\n",
		"queue.go":    fidelityQueue,
		"fid_test.go": "package fid\n\nimport (\n\t\"sync\"\n\t\"testing\"\n)\n\nvar _ sync.Mutex\n" + tests,
	})
}

// runFidelityModule writes a module of files and runs its tests under
// interleave, 200 schedules each, returning each test's result.
func runFidelityModule(t *testing.T, files map[string]string) map[string]wire.Result {
	t.Helper()
	dir := writeModule(t, files)
	var stdout, stderr bytes.Buffer
	out, err := driver.Test(context.Background(), driver.Options{
		Dir:        dir,
		Patterns:   []string{"."},
		Config:     wire.Config{Schedules: 200, Seed: 1},
		Instrument: instrumentFile,
		Stdout:     &stdout,
		Stderr:     &stderr,
	})
	if err != nil {
		t.Fatalf("interleave test: %v\n%s", err, stderr.String())
	}
	results := make(map[string]wire.Result)
	for _, r := range out.Results {
		results[r.Test] = r
	}
	if t.Failed() || testing.Verbose() {
		t.Logf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	return results
}

// checkFidelity compares each test's result with the finding kind wanted
// ("" for none).
func checkFidelity(t *testing.T, results map[string]wire.Result, want map[string]string) {
	t.Helper()
	for name, kind := range want {
		r, ok := results[name]
		switch {
		case !ok:
			t.Errorf("%s: no result", name)
		case kind == "" && r.Outcome != wire.OutcomePass:
			t.Errorf("%s: %s %s (%s), want a pass", name, r.Outcome, r.Kind, r.Message)
		case kind != "" && (r.Outcome != wire.OutcomeFinding || !strings.Contains(r.Kind, kind)):
			t.Errorf("%s: %s %s (%s), want a finding of kind %q", name, r.Outcome, r.Kind, r.Message, kind)
		}
	}
}

// TestFidelitySynctest runs tests written with testing/synctest: inside an
// exploration a bubble is the exploration itself, and synctest.Wait returns
// once the other goroutines are blocked.
func TestFidelitySynctest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	results := runFidelityModule(t, map[string]string{
		"go.mod": "module example.com/bubble\n\ngo 1.26\n",
		"bubble_test.go": `package bubble

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// Wait returns only once the goroutine has set ready and blocked.
func TestSynctestWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		ready := false
		c := make(chan int)
		go func() {
			mu.Lock()
			ready = true
			mu.Unlock()
			<-c
		}()
		synctest.Wait()
		mu.Lock()
		r := ready
		mu.Unlock()
		if !r {
			t.Fatal("Wait returned before the goroutine blocked")
		}
		c <- 1
	})
}

// Time in a bubble moves when every goroutine is blocked.
func TestSynctestSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		time.Sleep(time.Hour)
		if d := time.Since(start); d < time.Hour {
			t.Fatalf("slept %v", d)
		}
	})
}

// In a bubble the clock stands still while code runs.
func TestSynctestClockStill(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var mu sync.Mutex
		for i := 0; i < 100; i++ {
			mu.Lock()
			mu.Unlock()
		}
		if d := time.Since(start); d != 0 {
			t.Fatalf("the clock moved %v while code ran", d)
		}
		time.Sleep(time.Millisecond)
		if d := time.Since(start); d != time.Millisecond {
			t.Fatalf("slept %v", d)
		}
	})
}

// In a bubble a timer fires only when every goroutine is blocked.
func TestSynctestTimeoutAfterWork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := make(chan int)
		go func() { c <- 1 }()
		select {
		case <-c:
		case <-time.After(time.Millisecond):
			t.Fatal("the timeout won while the sender could run")
		}
	})
}

// A data race inside a bubble is found.
func TestSynctestRace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := 0
		done := make(chan bool)
		go func() { n++; done <- true }()
		n++
		<-done
	})
}
`,
	})
	checkFidelity(t, results, map[string]string{
		"TestSynctestWait": "", "TestSynctestSleep": "", "TestSynctestClockStill": "",
		"TestSynctestTimeoutAfterWork": "", "TestSynctestRace": "data race",
	})
}

// fidelitySeedTest asserts what rand.Seed(1) does to the global source of
// math/rand: it seeds it when the module's GODEBUG default keeps
// randseednop=0 (go lines before 1.24), and does nothing after.
const fidelitySeedTest = `package seed

import (
	"math/rand"
	"testing"
)

func TestSeed(t *testing.T) {
	want := rand.New(rand.NewSource(1))
	rand.Seed(1)
	same := 0
	for i := 0; i < 3; i++ {
		if rand.Int63() == want.Int63() {
			same++
		}
	}
	if seeds := same == 3; seeds != SEEDS {
		t.Fatalf("%d of 3 draws after rand.Seed(1) were those of rand.NewSource(1)", same)
	}
}
`

// TestFidelityRandSeed: rand.Seed seeds the source the global functions
// of math/rand draw from in an exploration, as it seeds the global one
// natively, and does nothing where it does nothing natively (GODEBUG
// randseednop, from the module's go line).
func TestFidelityRandSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	for _, c := range []struct{ goLine, seeds string }{{"1.16", "true"}, {"1.26", "false"}} {
		results := runFidelityModule(t, map[string]string{
			"go.mod":       "module example.com/seed\n\ngo " + c.goLine + "\n",
			"seed_test.go": strings.ReplaceAll(fidelitySeedTest, "SEEDS", c.seeds),
		})
		checkFidelity(t, results, map[string]string{"TestSeed": ""})
	}
}

// TestFidelityNativeValues runs testdata/fidelity, whose tests check
// values a program computes (what a select returns after its channels are
// touched, the cancellation of a child of the program's own context, a
// channel's length through reflect, ...), natively and under interleave
// with each timer policy: every test passes natively, so it must pass
// under the tool on every schedule.
func TestFidelityNativeValues(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "fidelity"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("go", "-C", dir, "test", "-count=1", "./...").CombinedOutput(); err != nil {
		t.Fatalf("the tests fail natively: %v\n%s", err, out)
	}
	for _, timers := range []string{"stall", "idle"} {
		code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=100", "-timers="+timers, "./...")
		if code != 0 {
			t.Errorf("-timers=%s: exit %d, want 0\n%s\n%s", timers, code, stdout, stderr)
		}
	}
}

// TestGCWaitIsNotAway runs testdata/gcwait, whose runtime.GC waits
// natively, for seconds, for a cleanup the runtime's busy cleanup
// goroutine cannot hand over yet. The goroutine holding the schedule was
// taken for one away in uncontrolled code, the other goroutine ran, and
// the first then went on without the schedule: both parked, "stuck" on
// schedule 2, as otter's TestCache_GCWithCallbackHoldingTheCache was
// once in the real-module corpus.
func TestGCWaitIsNotAway(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	code, stdout, stderr := cli(t, "test", "-C", filepath.Join("testdata", "gcwait"), "-schedules=3", "./...")
	if code != 0 {
		t.Errorf("exit %d, want 0\n%s\n%s", code, stdout, stderr)
	}
}
