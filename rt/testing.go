package rt

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"interleave.dev/rt/internal/explore"
	"interleave.dev/rt/internal/sched"
)

// Test runs body, the original body of a TestXxx function, under the
// explorer: many times, each under a different interleaving chosen by the
// strategy configured by the driver in the INTERLEAVE_CONFIG environment
// variable (see package wire). The instrumenter rewrites
//
//	func TestXxx(t *testing.T) { body }
//
// into
//
//	func TestXxx(t *testing.T) { rt.Test(t, func(t *testing.T) { body }) }
//
// A finding fails t with the report; a replay that no longer matches the
// code fails t saying so. Without a configuration from the driver (a test
// binary re-executed by one of its tests), body runs as the original test.
func Test(t *testing.T, body func(t *testing.T)) {
	t.Helper()
	explore.Test(t, func() { runTest(t, body) }, func() { body(t) })
}

// The per-iteration state of the test API. Only one exploration runs at a
// time and it is touched only by the running controlled goroutine.
var testState struct {
	cleanups []func()
	ctx      context.Context
	cancel   context.CancelFunc
}

func runTest(t *testing.T, body func(t *testing.T)) {
	testState.cleanups, testState.ctx, testState.cancel = nil, nil, nil
	failed := t.Failed()
	defer func() {
		// A helper library that fails the test through an interface of
		// its own (testify's assert.TestingT) reaches *testing.T
		// natively, past the T functions: its messages are printed as
		// they come, but the schedule that failed it is a finding too.
		if g := cur(); g != nil && !failed && !g.Failed() && t.Failed() {
			g.Fail("the test was failed through its *testing.T directly (by a helper that takes an interface, such as testify's assert and require), in this schedule; its messages are printed above the report")
		}
	}()
	defer runCleanups()
	body(t)
}

func runCleanups() {
	if testState.cancel != nil {
		testState.cancel()
	}
	for len(testState.cleanups) > 0 {
		n := len(testState.cleanups) - 1
		f := testState.cleanups[n]
		testState.cleanups = testState.cleanups[:n]
		f()
	}
}

// caller returns "file:line: " of the test code that called a T function.
func caller() string {
	_, file, line, ok := runtime.Caller(2)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s:%d: ", filepath.Base(file), line)
}

func sprintln(args ...any) string { return strings.TrimSuffix(fmt.Sprintln(args...), "\n") }

// The T functions replace the methods of testing.T, testing.B and
// testing.TB, so that inside an exploration failures and logs belong to the
// schedule being run: only the failing schedule's logs are shown.

// lateFail panics as the testing package does when a goroutine fails t
// after the test returned. A late log alone does not panic in Go while the
// test binary runs (it goes to the parent, the binary's root test), so the
// Log family keeps logging.
func lateFail(g *sched.G, t testing.TB) {
	if g.TestReturned() {
		panic("Fail in goroutine after " + t.Name() + " has completed")
	}
}

// TError replaces t.Error.
func TError(t testing.TB, args ...any) {
	if g := cur(); g != nil {
		lateFail(g, t)
		g.Fail(caller() + sprintln(args...))
		return
	}
	t.Helper()
	t.Error(args...)
}

// TErrorf replaces t.Errorf.
func TErrorf(t testing.TB, format string, args ...any) {
	if g := cur(); g != nil {
		lateFail(g, t)
		g.Fail(caller() + fmt.Sprintf(format, args...))
		return
	}
	t.Helper()
	t.Errorf(format, args...)
}

// TFatal replaces t.Fatal.
func TFatal(t testing.TB, args ...any) {
	if g := cur(); g != nil {
		lateFail(g, t)
		g.FailNow(caller() + sprintln(args...))
	}
	t.Helper()
	t.Fatal(args...)
}

// TFatalf replaces t.Fatalf.
func TFatalf(t testing.TB, format string, args ...any) {
	if g := cur(); g != nil {
		lateFail(g, t)
		g.FailNow(caller() + fmt.Sprintf(format, args...))
	}
	t.Helper()
	t.Fatalf(format, args...)
}

// TFail replaces t.Fail.
func TFail(t testing.TB) {
	if g := cur(); g != nil {
		lateFail(g, t)
		g.Fail("")
		return
	}
	t.Fail()
}

// TFailNow replaces t.FailNow.
func TFailNow(t testing.TB) {
	if g := cur(); g != nil {
		lateFail(g, t)
		g.FailNow("")
	}
	t.FailNow()
}

// TFailed replaces t.Failed.
func TFailed(t testing.TB) bool {
	if g := cur(); g != nil {
		return g.Failed()
	}
	return t.Failed()
}

// TLog replaces t.Log.
func TLog(t testing.TB, args ...any) {
	if g := cur(); g != nil {
		g.Log(caller() + sprintln(args...))
		return
	}
	t.Helper()
	t.Log(args...)
}

// TLogf replaces t.Logf.
func TLogf(t testing.TB, format string, args ...any) {
	if g := cur(); g != nil {
		g.Log(caller() + fmt.Sprintf(format, args...))
		return
	}
	t.Helper()
	t.Logf(format, args...)
}

// TSkip replaces t.Skip.
func TSkip(t testing.TB, args ...any) {
	if g := cur(); g != nil {
		g.SkipNow(caller() + sprintln(args...))
	}
	t.Helper()
	t.Skip(args...)
}

// TSkipf replaces t.Skipf.
func TSkipf(t testing.TB, format string, args ...any) {
	if g := cur(); g != nil {
		g.SkipNow(caller() + fmt.Sprintf(format, args...))
	}
	t.Helper()
	t.Skipf(format, args...)
}

// TSkipNow replaces t.SkipNow.
func TSkipNow(t testing.TB) {
	if g := cur(); g != nil {
		g.SkipNow("")
	}
	t.SkipNow()
}

// TRun replaces t.Run. Inside an exploration the subtest runs in the calling
// goroutine, as part of the parent's schedule, and reports whether the test
// has not failed so far.
func TRun(t *testing.T, name string, f func(t *testing.T)) bool {
	if g := cur(); g != nil {
		f(t)
		return !g.Failed()
	}
	return t.Run(name, f)
}

// TCleanup replaces t.Cleanup.
func TCleanup(t testing.TB, f func()) {
	if cur() != nil {
		testState.cleanups = append(testState.cleanups, f)
		return
	}
	t.Cleanup(f)
}

// TParallel replaces t.Parallel; inside an exploration it does nothing.
func TParallel(t *testing.T) {
	if cur() != nil {
		return
	}
	t.Parallel()
}
