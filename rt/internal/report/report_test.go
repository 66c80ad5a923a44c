package report

import (
	"fmt"
	"strings"
	"testing"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/race"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/site"
)

const stack = `goroutine 7 [running]:
runtime/debug.Stack()
	/usr/local/go/src/runtime/debug/stack.go:26 +0x5e
interleave.dev/rt/internal/sched.(*G).park(...)
	/cache/rt/internal/sched/goroutine.go:120
interleave.dev/rt.Lock(0xc000012345, 0x3)
	/cache/rt/sync.go:14 +0x45
example.com/store.(*Store).Transfer(0xc0000a8000)
	/src/store/store.go:31 +0x88
created by interleave.dev/rt/internal/sched.(*Iteration).spawn in goroutine 6
	/cache/rt/internal/sched/goroutine.go:93 +0x1a5`

func TestTrimKeepsOnlyUserFrames(t *testing.T) {
	got := Trim(stack)
	want := "example.com/store.(*Store).Transfer(...)\n\t/src/store/store.go:31"
	if got != want {
		t.Errorf("Trim:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenderDeadlock(t *testing.T) {
	f := &sched.Finding{
		Kind:    sched.KindDeadlock,
		Message: "all goroutines are blocked (1, 2) and no timer is pending",
		Goroutines: []sched.GoroutineInfo{
			{ID: 1, Main: true, Status: "blocked in Lock on Mutex", Site: 1, Stack: stack},
			{ID: 2, Status: "blocked in Lock on Mutex", Site: 2, SpawnSite: 3},
		},
		Objects: map[int32]string{4: "Mutex"},
		Trace:   []event.Event{{G: 1, Op: event.OpLock, Obj: 4, Site: 1}, {G: 2, Op: event.OpStart}, {G: 0, Op: event.OpTimerFire}},
	}
	pos := func(s uint32) string { return []string{"?", "a.go:1", "b.go:2", "c.go:3"}[s] }
	got := Render(Header{Schedules: 1, Strategy: "pct", Seed: 9, Path: "/tmp/x.json"}, f, pos)
	wantLines(t, got,
		"interleave: deadlock after 1 schedule (strategy pct, seed 9)\n",
		"goroutine 1 (test): blocked in Lock on Mutex at a.go:1\n",
		"goroutine 2: blocked in Lock on Mutex at b.go:2\n    started at c.go:3\n",
		"/src/store/store.go:31\n",
		"interleaving (2 events):\n",
		"g1     Lock Mutex#4",
		"timer  timer fires",
		"schedule: /tmp/x.json\nreplay: interleave replay /tmp/x.json\n",
	)
	if strings.Contains(got, "start") && strings.Contains(got, "g2     start") {
		t.Errorf("invisible start events are listed:\n%s", got)
	}
	// The report a schedule file keeps names no count and no path: the
	// same finding gives the same file from any run (-workers, -shard).
	for n, want := range map[int]string{0: "interleave: deadlock (strategy pct, seed 9)\n", 3: "interleave: deadlock after 3 schedules (strategy pct, seed 9)\n"} {
		got := Render(Header{Schedules: n, Strategy: "pct", Seed: 9}, f, pos)
		if !strings.HasPrefix(got, want) || strings.Contains(got, "schedule:") {
			t.Errorf("Schedules %d: report starts %q, want %q, and names no schedule file:\n%s", n, got[:strings.IndexByte(got, '\n')+1], want, got)
		}
	}
}

// TestRenderTraceNames: the interleaving names each event's object as the
// source does at the event's site, its number kept ("Lock from.mu#3"), by
// its kind where the site names nothing, and widens its column of
// operations for a long name, every line alike.
func TestRenderTraceNames(t *testing.T) {
	base := site.Register("bank.go", "l*from.mu\nv*accounts[from].pending.balance\n\nk*c", 27, 2, 31, 2, 40, 2, 50, 2)
	f := &sched.Finding{
		Kind:    sched.KindDeadlock,
		Message: "all goroutines are blocked (1, 2) and no timer is pending",
		Objects: map[int32]string{3: "Mutex", -1: "variable", 5: "Cond", 6: "Mutex"},
		Trace: []event.Event{
			{G: 1, Op: event.OpLock, Obj: 3, Site: base},
			{G: 2, Op: event.OpWrite, Obj: -1, Site: base + 1},
			{G: 2, Op: event.OpLock, Obj: 3, Site: base + 2}, // a site without a name
			{G: 2, Op: event.OpCondWait, Obj: 5, Site: base + 3},
			{G: 2, Op: event.OpUnlock, Obj: 6, Site: base + 3}, // Cond.Wait releases c.L
		},
	}
	pos := func(s uint32) string {
		p := site.Pos(s)
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	got := Render(Header{Schedules: 1, Strategy: "dfs", Seed: 1}, f, pos)
	wantLines(t, got,
		"    g1     Lock from.mu#3                         bank.go:27\n",
		"    g2     write accounts[from].pending.balance#1 bank.go:31\n",
		"    g2     Lock Mutex#3                           bank.go:40\n",
		"    g2     Cond.Wait c#5                          bank.go:50\n",
		"    g2     Unlock c.L#6                           bank.go:50\n",
	)
}

// TestRenderOwnMemoryRuns: a run of accesses of one goroutine to memory
// no other goroutine touches is one line; accesses to shared memory, and
// short runs, are listed one by one; a log that only repeats the failure
// is not printed again.
func TestRenderOwnMemoryRuns(t *testing.T) {
	var trace []event.Event
	trace = append(trace, event.Event{G: 1, Op: event.OpWrite, Obj: -1, Site: 1}) // shared with g2
	for i := range 4 {
		trace = append(trace, event.Event{G: 2, Op: event.OpRead, Obj: -2 - int32(i%2), Site: 2 + uint32(i%2)})
	}
	trace = append(trace,
		event.Event{G: 2, Op: event.OpRead, Obj: -1, Site: 2},
		event.Event{G: 1, Op: event.OpRead, Obj: -4, Site: 1},
		event.Event{G: 1, Op: event.OpRead, Obj: -4, Site: 1},
		event.Event{G: 2, Op: event.OpExit},
	)
	f := &sched.Finding{
		Kind: sched.KindTestFailure, Message: "a.go:9: \n\tError: not equal",
		Logs:  []string{"a.go:9: \n\tError: not equal\n"},
		Trace: trace,
	}
	pos := func(s uint32) string { return []string{"?", "a.go:1", "b.go:2", "b.go:3"}[s] }
	got := Render(Header{Schedules: 1, Strategy: "random", Seed: 1}, f, pos)
	wantLines(t, got,
		"interleaving (9 events):\n",
		"g1     write ",
		"g2     4 accesses to its own memory b.go:2-3\n",
		"g2     read ",
		"g2     exit",
	)
	if n := strings.Count(got, "g1     read "); n != 2 {
		t.Errorf("a run of 2 is listed %d times, want 2:\n%s", n, got)
	}
	if strings.Contains(got, "test log") {
		t.Errorf("a log that repeats the failure is printed:\n%s", got)
	}
	// A racing access is never part of a run, though the earlier one
	// is older than the trace.
	f.Race = &race.Race{Cur: race.Access{G: 2, Site: 3}, Prev: race.Access{G: 1, Site: 9}}
	wantLines(t, Render(Header{}, f, pos),
		"g2     read                         b.go:2\n    g2     read                         b.go:3\n",
	)
	f.Race = nil
	// A log that says more than the failure is printed, all of it.
	f.Logs = append(f.Logs, "a.go:7: more\n")
	if got := Render(Header{}, f, pos); !strings.Contains(got, "test log of this schedule:") {
		t.Errorf("a log that says more is not printed:\n%s", got)
	}
}

// wantLines fails t for each of wants the report got lacks.
func wantLines(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}
