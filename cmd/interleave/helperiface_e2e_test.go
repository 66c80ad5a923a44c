package main

import (
	"strings"
	"testing"

	"interleave.dev/internal/driver"
)

// helperIfaceModule is a module whose tests reach testing.T's methods
// through interfaces of their helpers' own, as coder/quartz's mock clock
// does (its TestingT): a cleanup that stops a goroutine of the schedule
// and waits for it, and a wrapper that embeds testing.TB and declares
// Errorf to record a failure rather than fail (quartz tests that its mock
// fails a test so). Package fixed passes natively and must pass under
// exploration; package bug fails through a wrapper that does not declare
// Errorf, whose promoted method is testing's.
func helperIfaceModule(t *testing.T) string {
	const common = `
import (
	"testing"
	"time"
)

type cleaner interface{ Cleanup(func()) }

type reporter interface{ Errorf(string, ...any) }

func check(r reporter, ok bool) {
	if !ok {
		r.Errorf("check failed")
	}
}
`
	const fixed = `
func stopper(c cleaner) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() { <-stop; close(done) }()
	c.Cleanup(func() {
		close(stop)
		select {
		case <-done:
		case <-time.After(time.Second):
			panic("the worker did not stop: the cleanup ran outside its schedule")
		}
	})
}

func TestCleanupThroughInterface(t *testing.T) { stopper(t) }

type captureTB struct {
	testing.TB
	failed bool
}

func (c *captureTB) Errorf(format string, args ...any) {
	c.Logf(format, args...)
	c.failed = true
}

func TestWrapperRecordsFailure(t *testing.T) {
	c := &captureTB{TB: t}
	check(c, false)
	if !c.failed {
		t.Error("the wrapper's own Errorf did not run")
	}
}
`
	const bug = `
type plainTB struct{ testing.TB }

var _ = time.Second

func TestPromotedErrorf(t *testing.T) { check(plainTB{t}, false) }
`
	return writeModule(t, map[string]string{
		"go.mod":              "module example.com/helperiface\n\ngo 1.22\n",
		"fixed/fixed_test.go": "package fixed\n" + common + fixed,
		"bug/bug_test.go":     "package bug\n" + common + bug,
	})
}

// TestTestingMethodsThroughHelperInterfaces runs helperIfaceModule. A
// cleanup registered through a helper's interface runs at the end of its
// schedule, while the goroutine it stops still runs (before the fix it
// went to the real *testing.T and ran after the exploration, once per
// schedule, waiting for a goroutine nothing would run again: quartz's
// tests hung until go test's timeout, here the cleanup panics after a
// second). A wrapper's own Errorf runs (before the fix the schedule
// failed in its stead); testing's, promoted through a wrapper, still
// fails the schedule.
func TestTestingMethodsThroughHelperInterfaces(t *testing.T) {
	if testing.Short() {
		t.Skip("explores a module")
	}
	dir := helperIfaceModule(t)
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=5", "-v", "./fixed")
	if code != 0 || !strings.Contains(stderr, "2 tests, ") || !strings.Contains(stderr, "2 passed") {
		t.Fatalf("fixed: exit %d, want 0 and both tests passed\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "never stops") {
		t.Errorf("the goroutine the cleanup stops was left running:\n%s", stdout)
	}
	code, stdout, stderr = cli(t, "test", "-C", dir, "-schedules=5", "./bug")
	if code != driver.ExitFail || !strings.Contains(stdout, "test failure") || !strings.Contains(stdout, "check failed") {
		t.Fatalf("bug: exit %d, want 1 and a test failure\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
