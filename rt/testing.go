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
	takeTestTail()
	explore.Test(t, func() { runTest(t, body) }, func() { body(t) })
}

// The per-iteration state of the test API. Only one exploration runs at a
// time and it is touched only by the running controlled goroutine.
var testState struct {
	cleanups []func()
	ctx      context.Context
	cancel   context.CancelFunc
	// top is the test's own body; frames the subtests running, by the
	// goroutine that runs each.
	top    testFrame
	frames map[*sched.G]*testFrame
}

// A testFrame is a test function running: the test's body, or a
// subtest's, which runs in a goroutine of its own that t.Run waits for,
// as in package testing. A subtest that calls t.Parallel lets its t.Run
// return, and waits until its parent's function has returned; the parent
// then waits for its parallel subtests, which run side by side.
type testFrame struct {
	paused   chan struct{} // closed by t.Parallel (a subtest's)
	release  chan struct{} // closed once the parent's function returned
	done     chan struct{} // closed once the subtest and its own subtests ended
	parallel []*testFrame  // the parallel subtests it started
	cleanups []func()      // a subtest's t.Cleanup functions
	site     Site
	// isParallel says the subtest called t.Parallel.
	isParallel bool
}

// finish releases fr's parallel subtests and waits for them: its
// function has returned.
func (fr *testFrame) finish() {
	for _, c := range fr.parallel {
		Close(c.release, c.site)
	}
	for _, c := range fr.parallel {
		Recv(c.done, c.site)
	}
	fr.parallel = nil
}

func runTest(t *testing.T, body func(t *testing.T)) {
	testState.cleanups, testState.ctx, testState.cancel = nil, nil, nil
	testState.top, testState.frames = testFrame{}, nil
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
	defer testState.top.finish() // the parallel subtests, before the cleanups
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
		skipNow(g, caller()+sprintln(args...))
	}
	t.Helper()
	t.Skip(args...)
}

// TSkipf replaces t.Skipf.
func TSkipf(t testing.TB, format string, args ...any) {
	if g := cur(); g != nil {
		skipNow(g, caller()+fmt.Sprintf(format, args...))
	}
	t.Helper()
	t.Skipf(format, args...)
}

// TSkipNow replaces t.SkipNow.
func TSkipNow(t testing.TB) {
	if g := cur(); g != nil {
		skipNow(g, "")
	}
	t.SkipNow()
}

// skipNow skips the test g runs: a subtest ends alone, as in package
// testing; the test's body skips the schedule.
func skipNow(g *sched.G, msg string) {
	if testState.frames[g] != nil {
		if msg != "" {
			g.Log(msg)
		}
		runtime.Goexit()
	}
	g.SkipNow(msg)
}

// TRun replaces t.Run. Inside an exploration the subtest runs in a
// goroutine of its own, at s, which TRun waits for, as package testing
// does: until it returns, or until it calls t.Parallel (TParallel), and
// then it runs once the caller's test function has returned. TRun
// reports whether the test has not failed so far (every subtest of an
// exploration shares its test's verdict).
func TRun(t *testing.T, name string, f func(t *testing.T), s Site) bool {
	g := cur()
	if g == nil {
		return t.Run(name, f)
	}
	parent := testState.frames[g]
	if parent == nil {
		parent = &testState.top
	}
	sub := &testFrame{paused: MakeChan[struct{}](0, s), release: MakeChan[struct{}](0, s), done: MakeChan[struct{}](0, s), site: s}
	Go(func() {
		sg := cur()
		if testState.frames == nil {
			testState.frames = map[*sched.G]*testFrame{}
		}
		testState.frames[sg] = sub
		defer func() { // also when f calls t.FailNow or t.SkipNow
			sub.finish()
			for i := len(sub.cleanups) - 1; i >= 0; i-- {
				sub.cleanups[i]()
			}
			delete(testState.frames, sg)
			Close(sub.done, s)
		}()
		f(t)
	}, s)
	sel := SelectStart(s)
	SelectRecv(sel, sub.paused)
	SelectRecv(sel, sub.done)
	if sel.Do(false) == 0 {
		parent.parallel = append(parent.parallel, sub)
		return true
	}
	return !g.Failed()
}

// TCleanup replaces t.Cleanup. A subtest's cleanups run when it ends,
// after its parallel subtests; the test's when the schedule's test ends.
func TCleanup(t testing.TB, f func()) {
	if g := cur(); g != nil {
		if fr := testState.frames[g]; fr != nil {
			fr.cleanups = append(fr.cleanups, f)
			return
		}
		testState.cleanups = append(testState.cleanups, f)
		return
	}
	t.Cleanup(f)
}

// TParallel replaces t.Parallel. Inside an exploration a subtest lets its
// t.Run return and waits, at s, until its parent's test function has
// returned; the test's own body goes on (each test is explored alone).
func TParallel(t *testing.T, s Site) {
	g := cur()
	if g == nil {
		t.Parallel()
		return
	}
	if fr := testState.frames[g]; fr != nil && !fr.isParallel {
		fr.isParallel = true // a second call: package testing panics, the model goes on
		Close(fr.paused, s)
		Recv(fr.release, s)
	}
}
