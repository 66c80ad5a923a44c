package rt_test

import (
	"fmt"
	"iter"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// These tests call rt.Pull and rt.Pull2 as instrumented code does for
// iter.Pull and iter.Pull2: the sequence runs on a coroutine of its own,
// which runs as the goroutine that calls next or stop.

// lockedCount is the reproduction of the defect rt.Pull fixes: a pulled
// sequence that takes a lock. It returns the values pulled and the count
// the sequence kept.
func lockedCount(mu *sync.Mutex, n *int) string {
	seq := func(yield func(int) bool) {
		for i := 0; i < 3; i++ {
			rt.Lock(mu, 0)
			*n++
			rt.Unlock(mu, 0)
			if !yield(i) {
				return
			}
		}
	}
	next, stop := rt.Pull(seq, 0)
	defer stop()
	var got []string
	for {
		v, ok := next()
		if !ok {
			break
		}
		got = append(got, fmt.Sprint(v))
	}
	return strings.Join(got, " ")
}

func TestPullRunsAsTheCaller(t *testing.T) {
	for _, strategy := range []string{"dfs", "random"} {
		var got string
		rep, err := rt.Explore("Pull", rt.Options{Strategy: strategy, Schedules: 20, StuckAfter: 5 * time.Second, ScheduleDir: "-"}, func() {
			var mu sync.Mutex
			n := 0
			got = lockedCount(&mu, &n) + fmt.Sprintf(" n=%d", n)
		})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != "" || got != "0 1 2 n=3" {
			t.Fatalf("%s: %q after %d schedules, got %q:\n%s", strategy, rep.Kind, rep.Schedules, got, rep.Text)
		}
	}
}

// TestPullOutcomes: a sequence that takes a lock a goroutine of the
// caller's takes too, and starts a goroutine of its own, reaches every
// order of the three under dfs, and the reducing strategies reach the
// same (the coroutine's events are the caller's).
func TestPullOutcomes(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		var mu sync.Mutex
		var wg sync.WaitGroup
		var order []string
		add := func(s string) {
			rt.Lock(&mu, 0)
			order = append(order, s)
			rt.Unlock(&mu, 0)
		}
		rt.WGAdd(&wg, 1, 0)
		rt.Go(func() { defer rt.WGDone(&wg, 0); add("g") }, 0)
		seq := func(yield func(string, int) bool) {
			rt.WGAdd(&wg, 1, 0)
			rt.Go(func() { defer rt.WGDone(&wg, 0); add("h") }, 0)
			add("s")
			yield("s", 1)
		}
		next, stop := rt.Pull2(seq, 0)
		if k, v, ok := next(); k != "s" || v != 1 || !ok {
			return fmt.Sprint("next: ", k, v, ok)
		}
		stop()
		rt.WGWait(&wg, 0)
		return strings.Join(order, "")
	}), "ghs", "gsh", "hgs", "hsg", "sgh", "shg")
}

// explorePull explores body under dfs and returns the report.
func explorePull(t *testing.T, body func()) *rt.Report {
	t.Helper()
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Schedules: 50, StuckAfter: 5 * time.Second, ScheduleDir: "-"}, body)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestPullStoppedByAnotherGoroutine: stop, called by a goroutine that
// did not call next, runs the rest of the sequence (its deferred unlock)
// as that goroutine.
func TestPullStoppedByAnotherGoroutine(t *testing.T) {
	var fails []string
	rep := explorePull(t, func() {
		var mu sync.Mutex
		ended := false
		seq := func(yield func(int) bool) {
			defer func() { rt.Lock(&mu, 0); ended = true; rt.Unlock(&mu, 0) }()
			for i := 0; yield(i); i++ {
			}
		}
		next, stop := rt.Pull(seq, 0)
		next()
		done := rt.MakeChan[bool](0, 0)
		rt.Go(func() { stop(); rt.Send(done, true, 0) }, 0)
		rt.Lock(&mu, 0)
		rt.Unlock(&mu, 0)
		rt.Recv(done, 0)
		if !ended {
			fails = append(fails, "the sequence did not end at stop")
		}
		if _, ok := next(); ok {
			fails = append(fails, "next after stop returned a value")
		}
		stop()
	})
	if rep.Kind != "" || len(fails) > 0 {
		t.Fatalf("%q %v:\n%s", rep.Kind, fails, rep.Text)
	}
}

// TestPullPanics: a panic of the sequence, after a scheduling point,
// propagates to the caller of next, which may recover it; not recovered,
// it is the caller's panic.
func TestPullPanics(t *testing.T) {
	var recovered any
	rep := explorePull(t, func() {
		var mu sync.Mutex
		seq := func(yield func(int) bool) {
			rt.Lock(&mu, 0)
			rt.Unlock(&mu, 0)
			panic("boom")
		}
		next, stop := rt.Pull(seq, 0)
		defer stop()
		func() {
			defer func() { recovered = recover() }()
			next()
		}()
		rt.Lock(&mu, 0) // the caller's goroutine goes on in the runtime
		rt.Unlock(&mu, 0)
		if _, ok := next(); ok {
			recovered = "next after the panic returned a value"
		}
	})
	if rep.Kind != "" || recovered != "boom" {
		t.Fatalf("%q, recovered %v:\n%s", rep.Kind, recovered, rep.Text)
	}
	rep = explorePull(t, func() {
		seq := func(yield func(int) bool) {
			rt.Gosched(0)
			panic("boom")
		}
		next, _ := rt.Pull(seq, 0)
		next()
	})
	if rep.Kind != "panic" || !strings.Contains(rep.Text, "boom") {
		t.Fatalf("%q, want a panic:\n%s", rep.Kind, rep.Text)
	}
}

// TestPullGoexit: runtime.Goexit in the sequence ends the goroutine that
// called next, running its deferred calls, as natively.
func TestPullGoexit(t *testing.T) {
	var got string
	rep := explorePull(t, func() {
		var mu sync.Mutex
		done := rt.MakeChan[string](1, 0)
		rt.Go(func() {
			defer func() { rt.Send(done, "deferred", 0) }()
			seq := func(yield func(int) bool) {
				rt.Lock(&mu, 0)
				defer rt.Unlock(&mu, 0)
				rt.Goexit(0)
			}
			next, stop := rt.Pull(seq, 0)
			defer stop()
			next()
			rt.Send(done, "went on", 0)
		}, 0)
		rt.Lock(&mu, 0)
		rt.Unlock(&mu, 0)
		got = rt.Recv(done, 0)
	})
	if rep.Kind != "" || got != "deferred" {
		t.Fatalf("%q, got %q:\n%s", rep.Kind, got, rep.Text)
	}
}

// TestPullNested: a sequence that pulls another; each runs as the
// goroutine that resumed it.
func TestPullNested(t *testing.T) {
	var got string
	rep := explorePull(t, func() {
		var mu sync.Mutex
		ch := rt.MakeChan[int](0, 0)
		rt.Go(func() {
			for i := 1; i <= 2; i++ {
				rt.Lock(&mu, 0)
				rt.Unlock(&mu, 0)
				rt.Send(ch, i, 0)
			}
		}, 0)
		inner := func(yield func(int) bool) {
			for i := 0; i < 2; i++ {
				if !yield(rt.Recv(ch, 0)) {
					return
				}
			}
		}
		outer := func(yield func(string) bool) {
			next, stop := rt.Pull(iter.Seq[int](inner), 0)
			defer stop()
			for {
				rt.Lock(&mu, 0)
				rt.Unlock(&mu, 0)
				v, ok := next()
				if !ok || !yield(fmt.Sprint(v*10)) {
					return
				}
			}
		}
		next, stop := rt.Pull(iter.Seq[string](outer), 0)
		defer stop()
		var out []string
		for v, ok := next(); ok; v, ok = next() {
			out = append(out, v)
		}
		got = strings.Join(out, " ")
	})
	if rep.Kind != "" || got != "10 20" {
		t.Fatalf("%q, got %q:\n%s", rep.Kind, got, rep.Text)
	}
}

// TestPullDeadlockReported: a sequence that waits, holding a lock, for a
// goroutine that needs the lock first is a deadlock, not "stuck".
func TestPullDeadlockReported(t *testing.T) {
	rep := explorePull(t, func() {
		var mu sync.Mutex
		ch := rt.MakeChan[int](0, 0)
		rt.Go(func() {
			rt.Lock(&mu, 0)
			rt.Unlock(&mu, 0)
			rt.Send(ch, 1, 0)
		}, 0)
		seq := func(yield func(int) bool) {
			rt.Lock(&mu, 0)
			v := rt.Recv(ch, 0)
			rt.Unlock(&mu, 0)
			yield(v)
		}
		next, stop := rt.Pull(seq, 0)
		defer stop()
		next()
	})
	if rep.Kind != "deadlock" {
		t.Fatalf("%q, want a deadlock:\n%s", rep.Kind, rep.Text)
	}
}

// TestPullRaceReported: a write of the sequence unordered with a
// goroutine's write races; the same write ordered by a channel does not.
func TestPullRaceReported(t *testing.T) {
	for _, ordered := range []bool{false, true} {
		rep := explorePull(t, func() {
			n := 0
			done := rt.MakeChan[bool](1, 0)
			rt.Go(func() {
				rt.Write(&n, 0)
				n++
				rt.Send(done, true, 0)
			}, 0)
			seq := func(yield func(int) bool) {
				if ordered {
					rt.Recv(done, 0)
				}
				rt.Write(&n, 0)
				n++
				yield(n)
			}
			next, stop := rt.Pull(seq, 0)
			next()
			stop()
			if !ordered {
				rt.Recv(done, 0)
			}
		})
		want := "data race"
		if ordered {
			want = ""
		}
		if rep.Kind != want {
			t.Fatalf("ordered %v: %q, want %q:\n%s", ordered, rep.Kind, want, rep.Text)
		}
	}
}

// TestPullBlockedNatively: a sequence blocked natively (a read of an OS
// pipe) for a goroutine the scheduler keeps parked is away in uncontrolled
// code, as its caller would be: the explorer hands the schedule on, the
// writer runs, and the sequence comes back.
func TestPullBlockedNatively(t *testing.T) {
	var got string
	rep := explorePull(t, func() {
		r, w, err := os.Pipe()
		if err != nil {
			got = err.Error()
			return
		}
		defer r.Close()
		defer w.Close()
		rt.Go(func() {
			rt.Gosched(0)
			w.Write([]byte("x"))
		}, 0)
		seq := func(yield func(string) bool) {
			b := make([]byte, 1)
			n, _ := r.Read(b)
			yield(string(b[:n]))
		}
		next, stop := rt.Pull(seq, 0)
		defer stop()
		got, _ = next()
	})
	if rep.Kind != "" || got != "x" {
		t.Fatalf("%q, got %q:\n%s", rep.Kind, got, rep.Text)
	}
}

// TestPullOutsideAnExploration: outside an exploration rt.Pull is
// iter.Pull.
func TestPullOutsideAnExploration(t *testing.T) {
	next, stop := rt.Pull2(func(yield func(int, string) bool) { yield(1, "a") }, 0)
	defer stop()
	if k, v, ok := next(); k != 1 || v != "a" || !ok {
		t.Fatalf("next() = %v, %q, %v", k, v, ok)
	}
	if _, _, ok := next(); ok {
		t.Fatal("a second value")
	}
}
