package testingpkg

import (
	"testing"
	"time"
)

type helper struct {
	*testing.T
	name string
}

func TestSimple(t *testing.T) {
	t.Log("start")
	t.Logf("%d", 1)
	if t.Failed() {
		t.Fatal("failed")
	}
	t.Cleanup(func() { t.Log("cleanup") })
	ctx := t.Context()
	_ = ctx
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		t.Error("sub")
		t.Errorf("sub %d", 2)
	})
	h := helper{T: t}
	h.Skipf("skip %s", h.name)
	args := []any{1, 2}
	t.Skip(args...)
	t.SkipNow()
	t.Fail()
	t.FailNow()
	t.Fatalf("%v", time.Second)
}

func TestUnnamed(*testing.T) {}

func TestBlank(_ *testing.T) {
	done := make(chan bool)
	go func() { done <- true }()
	<-done
}

func TestMain(m *testing.M) { m.Run() }

func BenchmarkX(b *testing.B) {
	b.Log("bench")
	b.Run("x", func(b *testing.B) {})
}

func check(tb testing.TB) {
	tb.Helper()
	tb.Error("via TB")
}

func FuzzParse(f *testing.F) {
	f.Add(1, "a")
	f.Fuzz(func(t *testing.T, n int, s string) {
		if n < 0 {
			t.Error(s)
		}
	})
}

func FuzzUnnamed(f *testing.F) {
	f.Fuzz(func(*testing.T, []byte, int) {})
	f.Fuzz(func(_ *testing.T, _ string, b bool) { _ = b })
	body := func(t *testing.T, s string) {}
	f.Fuzz(body)
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
		t.Errorf("%d != %d", a, b)
		if f, ok := t.(failNower); ok {
			f.FailNow()
		}
		return false
	}
	return true
}

func logVia(l logger, args []any) error { return l.Errorf("x %v", args...) }

// cleaner is a mock clock's interface to the test, whose cleanups stop
// goroutines the schedule started.
type cleaner interface{ Cleanup(func()) }

// cleanupFunc is a parameter of another type: left as it is.
type cleanupFunc func()

type namedCleaner interface{ Cleanup(f cleanupFunc) }

func cleanVia(n namedCleaner) { n.Cleanup(nil) }

func TestHelperLibrary(t *testing.T) {
	assertEqual(t, 1, 2)
	var l interface{ Logf(string, ...any) } = t
	args := []any{1}
	l.Logf("%d", args...)
	var c cleaner = t
	c.Cleanup(func() {})
}
