package strategy

import (
	"runtime"
	"strings"
	_ "unsafe" // go:linkname
)

// Context is where an event happens, in terms that survive edits of the
// code around it: the function it is in (without the import path, so a
// package renamed or copied still matches), the line where that function
// begins, and its call stack (innermost function first). Frames of the
// runtime itself, of package runtime and of package testing are left out.
type Context struct {
	Func     string
	FuncLine int
	Stack    []string
}

// maxStack bounds the frames kept of a call stack.
const maxStack = 16

// Callers returns the program counters of the calling goroutine's stack,
// for Resolve. Only the goroutine performing an event can take its stack,
// which is why strategies that need it are told of pending events by the
// goroutine itself (Observer.Pending).
func Callers() []uintptr {
	pcs := make([]uintptr, 64)
	return pcs[:runtime.Callers(2, pcs)]
}

// Resolve turns a stack taken by Callers into a Context.
func Resolve(pcs []uintptr) Context {
	var c Context
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.Function != "" && !HiddenFrame(f.Function) {
			name := ShortFuncName(f.Function)
			if c.Func == "" {
				c.Func, c.FuncLine = name, frameStartLine(&f)
			}
			if len(c.Stack) < maxStack {
				c.Stack = append(c.Stack, name)
			}
		}
		if !more {
			break
		}
	}
	return c
}

// HiddenFrame reports frames that are not the program's: the runtime
// injected by interleave, package runtime, package testing, and package
// iter, whose coroutines run the controlled goroutines.
func HiddenFrame(fn string) bool {
	return strings.HasPrefix(fn, "interleave.dev/rt.") || strings.HasPrefix(fn, "interleave.dev/rt/") ||
		strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "testing.") || strings.HasPrefix(fn, "iter.")
}

// ShortFuncName drops the import path and package name of a function name
// as the runtime spells it: "example.com/a/buggy.(*Counter).Inc" gives
// "(*Counter).Inc".
func ShortFuncName(fn string) string {
	if i := strings.LastIndexByte(fn, '/'); i >= 0 {
		fn = fn[i+1:]
	}
	if i := strings.IndexByte(fn, '.'); i >= 0 {
		fn = fn[i+1:]
	}
	return fn
}

// frameStartLine is the line where the frame's function begins (its func
// keyword), also for inlined frames; package runtime provides it to
// runtime/pprof and keeps it for others (go.dev/issue/67401).
//
//go:linkname frameStartLine runtime/pprof.runtime_FrameStartLine
func frameStartLine(f *runtime.Frame) int
