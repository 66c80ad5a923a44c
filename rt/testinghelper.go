package rt

import (
	"fmt"
	"testing"
)

// The I functions replace the failing and logging methods of testing.T
// where they are called through an interface of a helper library's own,
// such as testify's assert.TestingT or require.TestingT: the instrumenter
// cannot tell statically that the value is a *testing.T. Inside an
// exploration, one that is (a testing.TB) fails or logs the schedule, as
// the T functions do, instead of the test; any other value, and every
// value outside an exploration, gets the call itself.

// helperTB returns the exploration's goroutine and t as a testing.TB when
// t is one and an exploration runs.
func helperTB(t any) (testing.TB, bool) {
	tb, ok := t.(testing.TB)
	return tb, ok && cur() != nil
}

// IError replaces t.Error on an interface value.
func IError(t interface{ Error(...any) }, args ...any) {
	if tb, ok := helperTB(t); ok {
		g := cur()
		lateFail(g, tb)
		g.Fail(sprintln(args...))
		return
	}
	t.Error(args...)
}

// IErrorf replaces t.Errorf on an interface value.
func IErrorf(t interface{ Errorf(string, ...any) }, format string, args ...any) {
	if tb, ok := helperTB(t); ok {
		g := cur()
		lateFail(g, tb)
		g.Fail(fmt.Sprintf(format, args...))
		return
	}
	t.Errorf(format, args...)
}

// IFatal replaces t.Fatal on an interface value.
func IFatal(t interface{ Fatal(...any) }, args ...any) {
	if tb, ok := helperTB(t); ok {
		g := cur()
		lateFail(g, tb)
		g.FailNow(sprintln(args...))
	}
	t.Fatal(args...)
}

// IFatalf replaces t.Fatalf on an interface value.
func IFatalf(t interface{ Fatalf(string, ...any) }, format string, args ...any) {
	if tb, ok := helperTB(t); ok {
		g := cur()
		lateFail(g, tb)
		g.FailNow(fmt.Sprintf(format, args...))
	}
	t.Fatalf(format, args...)
}

// IFail replaces t.Fail on an interface value.
func IFail(t interface{ Fail() }) {
	if tb, ok := helperTB(t); ok {
		g := cur()
		lateFail(g, tb)
		g.Fail("")
		return
	}
	t.Fail()
}

// IFailNow replaces t.FailNow on an interface value.
func IFailNow(t interface{ FailNow() }) {
	if tb, ok := helperTB(t); ok {
		g := cur()
		lateFail(g, tb)
		g.FailNow("")
	}
	t.FailNow()
}

// ILog replaces t.Log on an interface value.
func ILog(t interface{ Log(...any) }, args ...any) {
	if _, ok := helperTB(t); ok {
		cur().Log(sprintln(args...))
		return
	}
	t.Log(args...)
}

// ILogf replaces t.Logf on an interface value.
func ILogf(t interface{ Logf(string, ...any) }, format string, args ...any) {
	if _, ok := helperTB(t); ok {
		cur().Log(fmt.Sprintf(format, args...))
		return
	}
	t.Logf(format, args...)
}
