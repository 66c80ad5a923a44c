package rt

import (
	"runtime"
	"strings"
	"sync/atomic"
)

// The stack a program sees. Inside an exploration a controlled goroutine
// runs on a goroutine of the tool's: under the program's own frames lie
// the scheduler's (the worker that runs it, the coroutine handoff,
// iter.Pull), where natively there is testing.tRunner under a test or
// subtest function and runtime.goexit under a goroutine's function.
// Libraries that walk their callers print them: testify's "Error Trace"
// stops at testing.tRunner or at a function named Test*, and the test's
// body under the tool is a literal inside TestXxx, so it listed eight of
// the tool's frames under every failed assertion. Caller and Callers
// (which the instrumenter puts in place of runtime.Caller and
// runtime.Callers) give the frames below the program's outermost one as
// they are natively.

// testTail holds the return addresses under the test function natively
// (testing.tRunner and runtime.goexit, or for a fuzz target the testing
// package's frames that call it), taken by Test and FuzzBody before the
// exploration: the frames the test's body and its subtests see under
// their own. Atomic: a test that starts while another explores (go
// test's parallel tests) sets it; both tails are testing.tRunner's.
var testTail atomic.Pointer[[]uintptr]

// maxCallers bounds the frames Callers walks to find the bottom of a
// stack; a deeper stack is given as it is.
const maxCallers = 4096

// takeTestTail records the frames under the caller of Test or FuzzBody.
func takeTestTail() {
	buf := make([]uintptr, 64)
	// 0 runtime.Callers, 1 takeTestTail, 2 Test, 3 TestXxx: from 4 on.
	n := runtime.Callers(4, buf)
	tail := buf[:n:n]
	testTail.Store(&tail)
}

// Callers replaces runtime.Callers: inside an exploration the frames of
// the tool under the program's outermost frame are given as they are
// natively (see testTail).
func Callers(skip int, pc []uintptr) int {
	if cur() == nil {
		return runtime.Callers(skip+1, pc)
	}
	s, ok := stack(skip)
	if !ok {
		return runtime.Callers(skip+1, pc)
	}
	return copy(pc, s)
}

// Caller replaces runtime.Caller, as Callers does runtime.Callers.
func Caller(skip int) (pc uintptr, file string, line int, ok bool) {
	if cur() == nil {
		return runtime.Caller(skip + 1)
	}
	s, found := stack(skip + 1)
	if !found {
		return runtime.Caller(skip + 1)
	}
	if len(s) == 0 {
		return 0, "", 0, false
	}
	f, _ := runtime.CallersFrames(s[:1]).Next()
	return f.PC, f.File, f.Line, f.PC != 0
}

// stack returns the return addresses of the calling goroutine from the
// frame skip above the function that called stack (0: that function, as
// runtime.Callers counts from itself), the tool's frames at the bottom
// replaced; false when the stack is too deep to see its bottom.
func stack(skip int) ([]uintptr, bool) {
	buf := make([]uintptr, 64)
	for {
		// 0 runtime.Callers, 1 stack, 2 Callers or Caller. The whole
		// stack is taken, since skip may pass the program's frames.
		n := runtime.Callers(2, buf)
		if n < len(buf) {
			s := nativeBottom(buf[:n])
			return s[min(skip, len(s)):], true
		}
		if len(buf) >= maxCallers {
			return nil, false
		}
		buf = make([]uintptr, 2*len(buf))
	}
}

// nativeBottom replaces the frames of the tool under the outermost frame
// of the program in pcs: by testTail under a test's or subtest's
// function, by runtime.goexit under a goroutine's.
func nativeBottom(pcs []uintptr) []uintptr {
	outer, tool, test := -1, false, false
	for i := len(pcs) - 1; i >= 0; i-- {
		name := funcName(pcs[i])
		switch {
		case isTool(name):
			tool = true
			test = test || name == "interleave.dev/rt.runTest" || strings.HasPrefix(name, "interleave.dev/rt.TRun.")
		case strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "iter."):
		default:
			outer = i
		}
		if outer >= 0 {
			break
		}
	}
	if outer < 0 || !tool {
		return pcs
	}
	s := pcs[:outer+1]
	switch last := pcs[len(pcs)-1]; {
	case test && testTail.Load() != nil:
		return append(s, *testTail.Load()...)
	case funcName(last) == "runtime.goexit":
		return append(s, last)
	}
	return s
}

// isTool reports whether a function is the tool's own.
func isTool(name string) bool {
	return strings.HasPrefix(name, "interleave.dev/rt.") || strings.HasPrefix(name, "interleave.dev/rt/")
}

// funcName returns the name of the function of a return address, the
// innermost where calls were inlined.
func funcName(pc uintptr) string {
	f, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	return f.Function
}
