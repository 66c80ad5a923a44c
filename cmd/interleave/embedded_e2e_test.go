package main

import (
	"strings"
	"testing"

	"interleave.dev/internal/driver"
)

// embeddedModule is a module whose tests reach modeled methods by dynamic
// dispatch: a timer in a clock abstraction that embeds *time.Timer (the
// shape of clockwork's realTimer, behind gocron's timers), and a mutex
// embedded in the struct a sync.Locker or the program's own interface
// holds. Package fixed passes natively and must pass under exploration;
// package bug locks twice through an interface, a deadlock.
func embeddedModule(t *testing.T) string {
	const common = `
import (
	"sync"
	"testing"
	"time"
)

type timer interface {
	Stop() bool
	Reset(time.Duration) bool
}

type realTimer struct{ *time.Timer }

type counter struct {
	sync.Mutex
	n int
}

type locker interface {
	Lock()
	Unlock()
}
`
	const fixed = `
func TestStopThroughInterface(t *testing.T) {
	fired := make(chan bool, 1)
	var tm timer = realTimer{time.AfterFunc(time.Hour, func() { fired <- true })}
	if !tm.Stop() {
		t.Error("Stop of a pending timer returned false")
	}
	time.Sleep(2 * time.Hour)
	select {
	case <-fired:
		t.Error("a stopped timer fired")
	default:
	}
	if tm.Reset(time.Minute) {
		t.Error("Reset of a stopped timer returned true")
	}
	time.Sleep(2 * time.Minute)
	if len(fired) != 1 {
		t.Error("a timer reset through an interface did not fire")
	}
}

// A call no rewrite can see (an interface holding the *time.Timer
// itself) reaches the real timer, which must not panic.
func TestTimerItselfThroughInterface(t *testing.T) {
	var tm timer = time.NewTimer(time.Hour)
	tm.Stop()
}

func TestLockerOfEmbeddedMutex(t *testing.T) {
	c := &counter{}
	var l sync.Locker = c
	done := make(chan bool)
	go func() {
		l.Lock()
		c.n++
		l.Unlock()
		done <- true
	}()
	l.Lock()
	c.n++
	l.Unlock()
	<-done
	if c.n != 2 {
		t.Errorf("n = %d", c.n)
	}
}
`
	const bug = `
func TestDoubleLockThroughInterface(t *testing.T) {
	var l locker = &counter{}
	l.Lock()
	defer l.Unlock()
	l.Lock() // the same mutex, twice
}
`
	return writeModule(t, map[string]string{
		"go.mod":              "module example.com/embedded\n\ngo 1.22\n",
		"fixed/fixed_test.go": "package fixed\n" + common + fixed,
		"bug/bug_test.go":     "package bug\n" + common + bug,
	})
}

// TestModeledMethodsThroughEmbeddedFields runs embeddedModule: a timer
// stopped through an interface is stopped (before the fix it panicked,
// "Stop called on uninitialized Timer", on schedule 1), and a mutex
// locked through one is the model's (the double lock is a deadlock, not
// a test that hangs natively).
func TestModeledMethodsThroughEmbeddedFields(t *testing.T) {
	if testing.Short() {
		t.Skip("explores a module")
	}
	dir := embeddedModule(t)
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=50", "./fixed")
	if code != 0 {
		t.Fatalf("fixed: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "3 tests, ") || !strings.Contains(stderr, "3 passed") {
		t.Errorf("not every test passed:\n%s", stderr)
	}
	code, stdout, stderr = cli(t, "test", "-C", dir, "-schedules=50", "./bug")
	if code != driver.ExitFail || !strings.Contains(stdout, "deadlock") || !strings.Contains(stdout, "blocked in Lock on counter.Mutex") {
		t.Fatalf("bug: exit %d, want 1 and a deadlock on counter.Mutex\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
