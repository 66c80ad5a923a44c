package rt_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"interleave.dev/rt"
	"interleave.dev/rt/wire"
)

// callerNames returns the functions of the calling goroutine's stack as
// rt.Callers gives them, from the caller of callerNames outward.
func callerNames() []string {
	pcs := make([]uintptr, 64)
	n := rt.Callers(2, pcs)
	var names []string
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		names = append(names, f.Function)
		if !more {
			return names
		}
	}
}

// checkBottom fails t unless names, a stack seen inside an exploration,
// holds none of the tool's frames and ends as natively: under a test or
// subtest's function testing.tRunner and runtime.goexit, under a
// goroutine's runtime.goexit.
func checkBottom(t *testing.T, where string, names []string, test bool) {
	want := []string{"runtime.goexit"}
	if test {
		want = []string{"testing.tRunner", "runtime.goexit"}
	}
	for _, n := range names {
		if strings.HasPrefix(n, "interleave.dev/rt.") || strings.HasPrefix(n, "interleave.dev/rt/") || strings.HasPrefix(n, "iter.") {
			rt.TErrorf(t, "%s: the tool's frame %s in %q", where, n, names)
		}
	}
	if len(names) < len(want)+1 || strings.Join(names[len(names)-len(want):], " ") != strings.Join(want, " ") {
		rt.TErrorf(t, "%s: stack %q does not end in %q", where, names, want)
	}
	if !strings.HasPrefix(names[0], "interleave.dev/rt_test.TestHelperCallers") {
		rt.TErrorf(t, "%s: stack %q does not start at the caller", where, names)
	}
}

func TestHelperCallers(t *testing.T) {
	if os.Getenv(wire.ConfigEnv) == "" {
		t.Skip("run by TestCallersSeeNoTool")
	}
	rt.Test(t, func(t *testing.T) {
		checkBottom(t, "test", callerNames(), true)
		_, _, here, _ := runtime.Caller(0)
		_, file, line, ok := rt.Caller(0) // the line after here
		if !ok || filepath.Base(file) != "callers_test.go" || line != here+1 {
			rt.TErrorf(t, "Caller(0) = %s:%d, %v", file, line, ok)
		}
		for i := 0; ; i++ {
			_, file, _, ok := rt.Caller(i)
			if !ok {
				break
			}
			if strings.Contains(file, "/rt/internal/") || filepath.Base(filepath.Dir(file)) == "rt" && filepath.Base(file) != "callers_test.go" {
				rt.TErrorf(t, "Caller(%d) is the tool's %s", i, file)
			}
		}
		done := rt.MakeChan[bool](0, 0)
		rt.Go(func() {
			checkBottom(t, "goroutine", callerNames(), false)
			rt.Send(done, true, 0)
		}, 0)
		rt.Recv(done, 0)
		rt.TRun(t, "sub", func(t *testing.T) {
			checkBottom(t, "subtest", callerNames(), true)
		}, 0)
	})
}

// TestCallersSeeNoTool: inside an exploration runtime.Caller and
// runtime.Callers (rt.Caller, rt.Callers) show the program's frames and,
// under them, what is there natively, not the scheduler's frames, which
// libraries that walk their callers (testify's "Error Trace") printed.
func TestCallersSeeNoTool(t *testing.T) {
	out, res := runHelper(t, "TestHelperCallers", wire.Config{Schedules: 3})
	if len(res) != 1 || res[0].Outcome != wire.OutcomePass {
		t.Fatalf("results %+v\n%s", res, out)
	}
	// Outside an exploration they are runtime.Caller and runtime.Callers.
	_, file, line, ok := rt.Caller(0)
	if _, f2, l2, _ := runtime.Caller(0); !ok || file != f2 || line != l2-1 {
		t.Errorf("rt.Caller(0) = %s:%d, runtime.Caller(0) = %s:%d", file, line, f2, l2)
	}
	if names := callerNames(); names[len(names)-2] != "testing.tRunner" {
		t.Errorf("outside an exploration: %q", names)
	}
}
