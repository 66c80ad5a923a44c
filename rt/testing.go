package rt

import (
	"context"
	"testing"
)

// Test runs body, the original body of a TestXxx function, under the
// explorer: many times, each under a different interleaving chosen by the
// strategy configured by the driver (see package wire). The instrumenter
// rewrites
//
//	func TestXxx(t *testing.T) { body }
//
// into
//
//	func TestXxx(t *testing.T) { rt.Test(t, func(t *testing.T) { body }) }
func Test(t *testing.T, body func(t *testing.T)) { body(t) }

// The T functions replace the methods of testing.T, testing.B and
// testing.TB, so that inside an exploration failures and logs belong to the
// schedule being run: only the failing schedule's logs are shown.

// TError replaces t.Error.
func TError(t testing.TB, args ...any) { t.Helper(); t.Error(args...) }

// TErrorf replaces t.Errorf.
func TErrorf(t testing.TB, format string, args ...any) { t.Helper(); t.Errorf(format, args...) }

// TFatal replaces t.Fatal.
func TFatal(t testing.TB, args ...any) { t.Helper(); t.Fatal(args...) }

// TFatalf replaces t.Fatalf.
func TFatalf(t testing.TB, format string, args ...any) { t.Helper(); t.Fatalf(format, args...) }

// TFail replaces t.Fail.
func TFail(t testing.TB) { t.Fail() }

// TFailNow replaces t.FailNow.
func TFailNow(t testing.TB) { t.FailNow() }

// TFailed replaces t.Failed.
func TFailed(t testing.TB) bool { return t.Failed() }

// TLog replaces t.Log.
func TLog(t testing.TB, args ...any) { t.Helper(); t.Log(args...) }

// TLogf replaces t.Logf.
func TLogf(t testing.TB, format string, args ...any) { t.Helper(); t.Logf(format, args...) }

// TSkip replaces t.Skip.
func TSkip(t testing.TB, args ...any) { t.Helper(); t.Skip(args...) }

// TSkipf replaces t.Skipf.
func TSkipf(t testing.TB, format string, args ...any) { t.Helper(); t.Skipf(format, args...) }

// TSkipNow replaces t.SkipNow.
func TSkipNow(t testing.TB) { t.SkipNow() }

// TRun replaces t.Run. Inside an exploration the subtest runs in the calling
// goroutine, as part of the parent's schedule.
func TRun(t *testing.T, name string, f func(t *testing.T)) bool { return t.Run(name, f) }

// TCleanup replaces t.Cleanup.
func TCleanup(t testing.TB, f func()) { t.Cleanup(f) }

// TParallel replaces t.Parallel; inside an exploration it does nothing.
func TParallel(t *testing.T) { t.Parallel() }

// TContext replaces t.Context.
func TContext(t testing.TB) context.Context { return t.Context() }
