package rt_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
	"interleave.dev/rt/wire"
)

func TestReplayFromScheduleFile(t *testing.T) {
	dir := t.TempDir()
	rep, err := rt.Explore("LockOrder", rt.Options{Seed: 7, ScheduleDir: dir}, lockOrder(false))
	if err != nil || rep.Kind != "deadlock" {
		t.Fatalf("got %v %v", rep, err)
	}
	if !strings.Contains(rep.Text, "schedule: "+rep.Path) || !strings.Contains(rep.Text, "replay: interleave replay "+rep.Path) {
		t.Errorf("report does not name the schedule file:\n%s", rep.Text)
	}
	s, err := wire.ReadSchedule(rep.Path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		again, err := rt.Explore("LockOrder", rt.Options{Strategy: "replay", Replay: s, ScheduleDir: "-"}, lockOrder(false))
		if err != nil {
			t.Fatal(err)
		}
		if again.Kind != "deadlock" || again.Schedule.EventHash != s.EventHash || again.Schedules != 1 {
			t.Fatalf("replay %d: %s hash %v", i, again.Kind, again.Schedule)
		}
	}
}

func TestReplayDivergesOnChangedCode(t *testing.T) {
	rep, _ := rt.Explore("LockOrder", rt.Options{Seed: 3, ScheduleDir: "-"}, lockOrder(false))
	// The "changed code": the second goroutine now takes one more lock first.
	changed := func() {
		var a, b, c sync.Mutex
		var wg sync.WaitGroup
		rt.WGAdd(&wg, 2, 0)
		rt.Go(func() { defer rt.WGDone(&wg, 0); rt.Lock(&a, 0); rt.Lock(&b, 0); rt.Unlock(&b, 0); rt.Unlock(&a, 0) }, 0)
		rt.Go(func() {
			defer rt.WGDone(&wg, 0)
			rt.Lock(&c, 0)
			rt.Unlock(&c, 0)
			rt.Lock(&a, 0)
			rt.Unlock(&a, 0)
		}, 0)
		rt.WGWait(&wg, 0)
	}
	again, err := rt.Explore("LockOrder", rt.Options{Strategy: "replay", Replay: rep.Schedule, ScheduleDir: "-"}, changed)
	if err != nil {
		t.Fatal(err)
	}
	if again.Diverged == "" || again.Kind != "" {
		t.Errorf("replay of a schedule on changed code: kind %q, diverged %q; want a divergence and no finding", again.Kind, again.Diverged)
	}
}

func TestReplayDetectsUncontrolledNondeterminism(t *testing.T) {
	rep, _ := rt.Explore("Counter", rt.Options{Seed: 1, ScheduleDir: "-"}, counter(false))
	if rep.Kind != "data race" {
		t.Fatalf("got %q", rep.Kind)
	}
	// The same program, but whether the second goroutine exists depends on
	// a random source of its own (seeded from the real clock), which the
	// tool does not control.
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	diverged := 0
	for i := 0; i < 20; i++ {
		flaky := func() {
			n := 0
			var wg sync.WaitGroup
			inc := func() { defer rt.WGDone(&wg, 0); rt.Read(&n, 0); v := n; rt.Write(&n, 0); n = v + 1 }
			k := 1 + rng.Intn(2)
			rt.WGAdd(&wg, k, 0)
			for j := 0; j < k; j++ {
				rt.Go(inc, 0)
			}
			rt.WGWait(&wg, 0)
		}
		again, _ := rt.Explore("Counter", rt.Options{Strategy: "replay", Replay: rep.Schedule, ScheduleDir: "-"}, flaky)
		if again.Diverged != "" {
			diverged++
		} else if again.Kind != "data race" {
			t.Errorf("replay neither diverged nor reproduced: %q", again.Kind)
		}
	}
	if diverged == 0 {
		t.Errorf("20 replays of a nondeterministic program never reported a divergence")
	}
}

func TestCorruptScheduleFiles(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"garbage.json": "not json at all",
		"foreign.json": `{"format":"something-else","version":1,"test":"T"}`,
		"future.json":  `{"format":"interleave-schedule","version":99,"test":"T"}`,
		"empty.json":   `{"format":"interleave-schedule","version":1}`,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		if _, err := wire.ReadSchedule(p); err == nil {
			t.Errorf("%s: accepted", name)
		} else if !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error does not name the file: %v", name, err)
		}
	}
	if _, err := rt.Explore("T", rt.Options{Strategy: "replay", Replay: &wire.Schedule{Test: "T", EventHash: "zz"}}, func() {}); err == nil {
		t.Errorf("a schedule with a corrupt hash was accepted")
	}
}

func TestStuckInUncontrolledCode(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	start := time.Now()
	rep, err := rt.Explore("Stuck", rt.Options{StuckAfter: 200 * time.Millisecond, ScheduleDir: "-"}, func() {
		<-block // a native receive the tool does not control
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "stuck" || !strings.Contains(rep.Text, "replay_test.go") {
		t.Errorf("got %q:\n%s", rep.Kind, rep.Text)
	}
	// The report says what the goroutine waits for, and where.
	if !strings.Contains(rep.Message, `the Go runtime says "chan receive", in interleave.dev/rt_test.TestStuckInUncontrolledCode.func1 at replay_test.go:`) {
		t.Errorf("the report does not say where it is stuck: %s", rep.Message)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to notice", d)
	}
}

func TestLivelockBound(t *testing.T) {
	rep, _ := rt.Explore("Spin", rt.Options{MaxSteps: 500, ScheduleDir: "-"}, func() {
		var mu sync.Mutex
		for {
			rt.Lock(&mu, 0)
			rt.Unlock(&mu, 0)
		}
	})
	if rep.Kind != "livelock" {
		t.Errorf("got %q", rep.Kind)
	}
}

func TestLeakReportNamesTheGoroutine(t *testing.T) {
	leak := func() {
		c := rt.MakeChan[int](0, 0)
		rt.Go(func() { rt.Send(c, 1, 0) }, 0)
	}
	rep, _ := rt.Explore("Leak", rt.Options{LeaksAll: true, ScheduleDir: "-"}, leak)
	if rep.Kind != "goroutine leak" || !strings.Contains(rep.Text, "goroutine 2: blocked in send on channel") {
		t.Errorf("got %q:\n%s", rep.Kind, rep.Text)
	}
	// Without LeaksAll, a leak every schedule shows is a note.
	rep, _ = rt.Explore("LeakNote", rt.Options{Schedules: 20, ScheduleDir: "-"}, leak)
	if rep.Kind != "" || rep.Schedules != 20 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "never stops: blocked in send on channel") {
		t.Errorf("got %q after %d schedules, notes %q", rep.Kind, rep.Schedules, rep.Notes)
	}
	rep, _ = rt.Explore("NoLeakCheck", rt.Options{NoLeaks: true, ScheduleDir: "-"}, func() {
		c := rt.MakeChan[int](0, 0)
		rt.Go(func() { rt.Send(c, 1, 0) }, 0)
	})
	if rep.Kind != "" {
		t.Errorf("with leaks off: got %q", rep.Kind)
	}
}

// TestSleepAcrossTheTestsEnd: a goroutine that sleeps a second and ends
// (a circuit breaker's half-open timer, go-resiliency's
// TestBreakerPanicsCountAsErrors) is no leak, whether its sleep began
// before the test returned or after, on any schedule; one that sleeps in
// a loop never stops, on every schedule: a note, or with LeaksAll a
// finding.
func TestSleepAcrossTheTestsEnd(t *testing.T) {
	once := func() {
		var mu sync.Mutex
		rt.Go(func() {
			rt.Sleep(time.Second, 0)
			rt.Lock(&mu, 0)
			rt.Unlock(&mu, 0)
		}, 0)
		rt.Lock(&mu, 0)
		rt.Unlock(&mu, 0)
	}
	loop := func() {
		rt.Go(func() {
			for {
				rt.Sleep(100*time.Millisecond, 0)
			}
		}, 0)
	}
	for _, strategy := range []string{"random", "dfs"} {
		rep, err := rt.Explore("SleepOnce", rt.Options{Strategy: strategy, Schedules: 200, LeaksAll: true, ScheduleDir: "-"}, once)
		if err != nil || rep.Kind != "" || len(rep.Notes) != 0 {
			t.Errorf("%s: a sleep that ends after the test: %q (%s) after %d schedules, notes %q, %v", strategy, rep.Kind, rep.Message, rep.Schedules, rep.Notes, err)
		}
		rep, err = rt.Explore("SleepLoop", rt.Options{Strategy: strategy, Schedules: 20, ScheduleDir: "-"}, loop)
		if err != nil || rep.Kind != "" || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "never stops: blocked in sleep") {
			t.Errorf("%s: a sleeping loop: %q (%s), notes %q, %v", strategy, rep.Kind, rep.Message, rep.Notes, err)
		}
		rep, err = rt.Explore("SleepLoopAll", rt.Options{Strategy: strategy, Schedules: 20, LeaksAll: true, ScheduleDir: "-"}, loop)
		if err != nil || rep.Kind != "goroutine leak" {
			t.Errorf("%s: a sleeping loop with LeaksAll: %q (%s), %v", strategy, rep.Kind, rep.Message, err)
		}
	}
}

func TestIterationsAreIndependent(t *testing.T) {
	// Goroutines left blocked at the end of an iteration are unwound: their
	// deferred calls run but do not reach the scheduler of the next one.
	var mu sync.Mutex
	started, unwound := 0, 0
	rep, _ := rt.Explore("Unwind", rt.Options{NoLeaks: true, Schedules: 50, ScheduleDir: "-"}, func() {
		c := rt.MakeChan[int](0, 0)
		rt.Go(func() {
			mu.Lock()
			started++
			mu.Unlock()
			defer func() { mu.Lock(); unwound++; mu.Unlock() }()
			defer rt.Send(c, 2, 0) // unwinds instead of running
			rt.Send(c, 1, 0)
		}, 0)
		rt.Sleep(time.Millisecond, 0)
	})
	if rep.Kind != "" || rep.Schedules != 50 {
		t.Fatalf("got %q after %d", rep.Kind, rep.Schedules)
	}
	if started == 0 || unwound != started {
		t.Errorf("%d goroutines started, %d unwound", started, unwound)
	}
}

func TestNativeChildIsAdopted(t *testing.T) {
	// A goroutine started by plain "go" inside an exploration (as an
	// httptest server starts its handlers) inherits its creator's
	// identity; it must not be taken for its creator. When it reaches the
	// runtime while its creator is blocked natively, it is adopted: it
	// becomes a controlled goroutine, and rt.Now is the virtual clock, an
	// hour ahead of the wall clock after a virtual sleep of an hour.
	virtual := 0
	rep, err := rt.Explore("NativeChild", rt.Options{Schedules: 50, StuckAfter: 2 * time.Second, ScheduleDir: "-"}, func() {
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Gosched(0) }, 0)
		rt.Sleep(time.Hour, 0)
		epoch := rt.Epoch()
		now := make(chan time.Time)
		go func() { now <- rt.Now(0) }()
		if (<-now).Sub(epoch) >= time.Hour { // native receive: the test goroutine blocks while it runs; no timer fires
			virtual++
		}
		rt.WGWait(&wg, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || rep.Schedules != 50 || virtual != 50 {
		t.Errorf("got %q after %d schedules; the child ran controlled in %d:\n%s", rep.Kind, rep.Schedules, virtual, rep.Text)
	}
}

func TestLivelockReportShowsTheLastEvents(t *testing.T) {
	// A long run keeps its most recent events: the end of the report's
	// interleaving is where the run ended. Relocking a mutex nobody else
	// wants is no progress, and neither is a Gosched: the run ends
	// 80000 points after its first lock (8 times the bound: the
	// goroutine polls alone).
	rep, _ := rt.Explore("Spin", rt.Options{MaxSteps: 10000, ScheduleDir: "-"}, func() {
		var mu sync.Mutex
		for i := 0; ; i++ {
			rt.Lock(&mu, 0)
			rt.Unlock(&mu, 0)
			if i == 39990 {
				rt.Gosched(0) // an event only near the end of the run
			}
		}
	})
	if rep.Kind != "livelock" || !strings.Contains(rep.Text, "of 80003 events") {
		t.Fatalf("got %q:\n%s", rep.Kind, rep.Text)
	}
	if !strings.Contains(rep.Text, "yield") {
		t.Errorf("the interleaving does not end where the run ended:\n%s", rep.Text)
	}
}

// TestBigCopyIsNotStuck: accounting for the memory of a large copy, a
// word at a time, takes the tool longer than the stuck bound; the
// goroutine is in the tool's own code, not stuck in uncontrolled code
// (libp2p/go-yamux's 32 MiB message was reported stuck).
func TestBigCopyIsNotStuck(t *testing.T) {
	src := make([]byte, 1<<20)
	dst := make([]byte, len(src))
	rep, err := rt.Explore("BigCopy", rt.Options{Schedules: 1, StuckAfter: 50 * time.Millisecond, ScheduleDir: "-"}, func() {
		rt.Copy(dst, src, 0)
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Errorf("got %q:\n%s", rep.Kind, rep.Text)
	}
}
