package main

import (
	"regexp"
	"strings"
	"testing"
)

// randomWorkers races only when math/rand/v2 draws a 3, in goroutines
// whose number comes from math/rand, inside pprof.Do.
const randomWorkers = `package m

import (
	"context"
	"math/rand"
	randv2 "math/rand/v2"
	"runtime/pprof"
	"sync"
	"testing"
)

func TestRandomWorkers(t *testing.T) {
	total := 0
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 1 + rand.Intn(4) + randv2.IntN(3)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pprof.Do(context.Background(), pprof.Labels("worker", "x"), func(context.Context) {
				for k := rand.Intn(3); k >= 0; k-- {
					mu.Lock()
					total++
					mu.Unlock()
				}
				if randv2.N(10) == 3 {
					total++ // unlocked: a race
				}
			})
		}()
	}
	wg.Wait()
}
`

// TestRandomFindingReplays: a finding that depends on values drawn from
// math/rand and math/rand/v2, in code run by pprof.Do, is confirmed in a
// fresh process and replays, every time.
func TestRandomFindingReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.23\n", "m_test.go": randomWorkers})
	code, stdout, stderr := cli(t, "test", "-C", dir, ".")
	if code != 1 || !strings.Contains(stdout, "interleave: data race after") || strings.Contains(stdout, "not confirmed") {
		t.Fatalf("exit %d, want 1 and a confirmed data race\n%s\n%s", code, stdout, stderr)
	}
	m := regexp.MustCompile(`replay: interleave replay (\S+)`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no replay line:\n%s", stdout)
	}
	for i := 0; i < 3; i++ {
		code, out, errOut := cli(t, "replay", "-C", dir, m[1])
		if code != 1 || !strings.Contains(out, "interleave: data race after") || strings.Contains(out, "does not match") {
			t.Fatalf("replay %d: exit %d\n%s\n%s", i, code, out, errOut)
		}
	}
}

// procsSeen checks what the program sees of runtime.GOMAXPROCS: the
// value it has natively at the start of every schedule (3, from the
// environment), and what a goroutine of the schedule set after.
const procsSeen = `package m

import (
	"runtime"
	"sync"
	"testing"
)

func TestProcs(t *testing.T) {
	if got := runtime.GOMAXPROCS(0); got != 3 {
		t.Fatalf("GOMAXPROCS(0) = %d at the start, want 3", got)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if prev := runtime.GOMAXPROCS(5); prev != 3 {
			t.Errorf("GOMAXPROCS(5) returned %d, want 3", prev)
		}
	}()
	wg.Wait()
	if got := runtime.GOMAXPROCS(0); got != 5 {
		t.Errorf("GOMAXPROCS(0) = %d after setting 5", got)
	}
}
`

// TestProgramSeesItsGOMAXPROCS: an exploring process runs on one
// processor, but the program sees the GOMAXPROCS it has natively, in
// every schedule, with one worker process or several.
func TestProgramSeesItsGOMAXPROCS(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	t.Setenv("GOMAXPROCS", "3")
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.23\n", "m_test.go": procsSeen})
	for _, workers := range []string{"1", "2"} {
		code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules", "300", "-workers", workers, ".")
		if code != 0 {
			t.Fatalf("-workers %s: exit %d\n%s\n%s", workers, code, stdout, stderr)
		}
	}
}

// goroutinesSeen checks what the program sees of its goroutines: a
// goroutine that returned no longer counts in runtime.NumGoroutine (the
// worker that ran it lives on, unseen), and a dump of every goroutine has
// as many entries as that count says.
const goroutinesSeen = `package m

import (
	"bytes"
	"runtime"
	"sync"
	"testing"
)

func TestGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n++
			mu.Unlock()
		}()
	}
	if got := runtime.NumGoroutine(); got < before+1 {
		t.Errorf("NumGoroutine() = %d with goroutines started, %d before", got, before)
	}
	wg.Wait()
	for runtime.NumGoroutine() > before {
		runtime.Gosched()
	}
	buf := make([]byte, 1<<20)
	dump := buf[:runtime.Stack(buf, true)]
	if entries := bytes.Count(dump, []byte("\ngoroutine ")) + 1; entries != runtime.NumGoroutine() {
		t.Errorf("a dump of every goroutine has %d entries, NumGoroutine() = %d:\n%s", entries, runtime.NumGoroutine(), dump)
	}
	if bytes.Contains(dump, []byte("interleave.dev/rt/internal/sched")) && !bytes.Contains(dump, []byte("sched.(*Iteration).run(")) {
		t.Errorf("the dump shows the scheduler's own goroutines:\n%s", dump)
	}
}
`

// lockedExit has a goroutine end with its thread locked, which ends the
// thread, natively.
const lockedExit = `package locked

import (
	"runtime"
	"testing"
)

func TestLockedExit(t *testing.T) {
	done := make(chan bool)
	go func() {
		runtime.LockOSThread()
		done <- true
	}()
	<-done
}
`

// TestProgramSeesItsGoroutines: the goroutines that run controlled
// goroutines (coroutine workers, which outlive the goroutine they ran,
// and hubs) are not the program's: runtime.NumGoroutine and
// runtime.Stack do not show them, so a test that waits for its goroutines
// to end does not wait forever. A program that leaves a thread locked
// at a goroutine's end runs with channel handoffs and does not crash.
func TestProgramSeesItsGoroutines(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.23\n", "m_test.go": goroutinesSeen, "locked/locked_test.go": lockedExit})
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules", "200", "-steps", "100000", "-v", "./...")
	if code != 0 || strings.Count(stdout, "--- PASS") != 2 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}
