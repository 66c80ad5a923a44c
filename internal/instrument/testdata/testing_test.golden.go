//line testdata/testing_test.go:1
package testingpkg; import __rt "interleave.dev/rt"

import (
	"testing"
	"time"
)

type helper struct {
	*testing.T
	name string
}

func TestSimple(t *testing.T) { __rt.Test(t, func(t *testing.T) {
	__rt.TLog(t, "start")
	__rt.TLogf(t, "%d", 1)
	if __rt.TFailed(t) {
		__rt.TFatal(t, "failed")
	}
	__rt.TCleanup(t, func() { __rt.TLog(t, "cleanup") })
	ctx := __rt.TContext(t)
	_ = ctx
	__rt.TRun(t, "sub", func(t *testing.T) {
		__rt.TParallel(t, __rtSites_633c6020+1)
		__rt.TError(t, "sub")
		__rt.TErrorf(t, "sub %d", 2)
	}, __rtSites_633c6020+0)
	h := helper{T: t}
	__rt.TSkipf(h.T, "skip %s", h.name)
	args := []any{1, 2}
	__rt.TSkip(t, args...)
	__rt.TSkipNow(t)
	__rt.TFail(t)
	__rt.TFailNow(t)
	__rt.TFatalf(t, "%v", time.Second)
})}

func TestUnnamed(__rtT *testing.T) { __rt.Test(__rtT, func(_ *testing.T) {})}

func TestBlank(__rtT *testing.T) { __rt.Test(__rtT, func(_ *testing.T) {
	done := __rt.MakeChan[bool](0, __rtSites_633c6020+2)
	__rt.Go(func() { __rt.Send[bool](done, true, __rtSites_633c6020+4) }, __rtSites_633c6020+3)
	__rt.Recv[bool](done, __rtSites_633c6020+5)
})}

func TestMain(m *testing.M) { m.Run() }

func BenchmarkX(b *testing.B) {
	__rt.TLog(b, "bench")
	b.Run("x", func(b *testing.B) {})
}

func check(tb testing.TB) {
	tb.Helper()
	__rt.TError(tb, "via TB")
}

func FuzzParse(f *testing.F) {
	f.Add(1, "a")
	f.Fuzz(func(t *testing.T, n int, s string) { __rt.FuzzBody(t, func(t *testing.T) {
		if __rt.Branch(n < 0, __rtSites_633c6020+12, "(< i0 0)", nil) {
			__rt.TError(t, s)
		}
	}, &n, &s)})
}

func FuzzUnnamed(f *testing.F) {
	f.Fuzz(func(__rtIn0 *testing.T, __rtIn1 []byte, __rtIn2 int) { __rt.FuzzBody(__rtIn0, func(_ *testing.T) {}, &__rtIn1, &__rtIn2)})
	f.Fuzz(func(__rtIn0 *testing.T, __rtIn1 string, b bool) { __rt.FuzzBody(__rtIn0, func(_ *testing.T) { _ = b }, &__rtIn1, &b)})
	body := func(t *testing.T, s string) {}
	__rt.FFuzz(f, body)
}

// TestingT is a helper library's interface to the test, as testify's.
type TestingT interface {
	Errorf(format string, args ...interface{})
}

type failNower interface{ FailNow() }

// logger has Errorf's name with another signature: left as it is.
type logger interface{ Errorf(format string, args ...any) error }

func assertEqual(t TestingT, a, b int) bool {
	if a != b {
		__rt.ReadRecv(t, "Errorf", __rtSites_633c6020+6); __rt.IErrorf(t, "%d != %d", a, b)
		if f, ok := t.(failNower); ok {
			__rt.ReadRecv(f, "FailNow", __rtSites_633c6020+7); __rt.IFailNow(f)
		}
		return false
	}
	return true
}

func logVia(l logger, args []any) error { __rt.ReadRecv(l, "Errorf", __rtSites_633c6020+8); return l.Errorf("x %v", args...) }

// cleaner is a mock clock's interface to the test, whose cleanups stop
// goroutines the schedule started.
type cleaner interface{ Cleanup(func()) }

// cleanupFunc is a parameter of another type: left as it is.
type cleanupFunc func()

type namedCleaner interface{ Cleanup(f cleanupFunc) }

func cleanVia(n namedCleaner) { __rt.ReadRecv(n, "Cleanup", __rtSites_633c6020+9); n.Cleanup(nil) }

func TestHelperLibrary(t *testing.T) { __rt.Test(t, func(t *testing.T) {
	assertEqual(t, 1, 2)
	var l interface{ Logf(string, ...any) } = t
	args := []any{1}
	__rt.ReadRecv(l, "Logf", __rtSites_633c6020+10); __rt.ILogf(l, "%d", args...)
	var c cleaner = t
	__rt.ReadRecv(c, "Cleanup", __rtSites_633c6020+11); __rt.ICleanup(c, func() {})
})}

var __rtSites_633c6020 = __rt.RegisterFile("testdata/testing_test.go", "\n\nc*done\n\nc*done\nc*done\nv*t\nv*f\nv*l\nv*n\nv*l\nv*c", 22, 2, 23, 3, 40, 10, 41, 2, 41, 19, 42, 2, 85, 5, 87, 6, 94, 52, 105, 35, 111, 4, 113, 4, 60, 6)
