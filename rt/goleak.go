package rt

import "interleave.dev/rt/internal/sched"

// The checks of go.uber.org/goleak, passed in by the instrumenter (the
// runtime cannot import goleak). Inside an exploration goleak would see the
// explorer's own goroutines and those of the schedule still running, and
// would wait in real time for them to go; interleave's own leak detection
// reports the goroutines a schedule leaves blocked, with that schedule, so
// the checks do nothing there (with -leaks=false nothing checks for leaks
// inside an exploration). Outside an exploration they are goleak's. A test
// that checks, or a TestMain that does (VerifyTestMain), asks for every
// leak: one that every schedule shows fails it too, as -leaks=all does.

// GoleakVerifyNone wraps goleak.VerifyNone, given as f.
func GoleakVerifyNone[T, O any](f func(T, ...O)) func(T, ...O) {
	if g := cur(); g != nil {
		g.Iteration().CheckLeaks()
		return func(T, ...O) {}
	}
	return f
}

// GoleakFind wraps goleak.Find, given as f: inside an exploration the
// returned function finds nothing.
func GoleakFind[O any](f func(...O) error) func(...O) error {
	if g := cur(); g != nil {
		g.Iteration().CheckLeaks()
		return func(...O) error { return nil }
	}
	return f
}

// GoleakVerifyTestMain wraps goleak.VerifyTestMain, given as f: every test
// of the package then fails on every leak.
func GoleakVerifyTestMain[M, O any](f func(M, ...O)) func(M, ...O) {
	sched.CheckLeaksEverywhere()
	return f
}
