package rt

// The checks of go.uber.org/goleak, passed in by the instrumenter (the
// runtime cannot import goleak). Inside an exploration goleak would see the
// explorer's own goroutines and those of the schedule still running, and
// would wait in real time for them to go; interleave's own leak detection
// reports the goroutines a schedule leaves blocked, with that schedule, so
// the checks do nothing there (with -leaks=false nothing checks for leaks
// inside an exploration). Outside an exploration they are goleak's.

// GoleakVerifyNone wraps goleak.VerifyNone, given as f.
func GoleakVerifyNone[T, O any](f func(T, ...O)) func(T, ...O) {
	if cur() != nil {
		return func(T, ...O) {}
	}
	return f
}

// GoleakFind wraps goleak.Find, given as f: inside an exploration the
// returned function finds nothing.
func GoleakFind[O any](f func(...O) error) func(...O) error {
	if cur() != nil {
		return func(...O) error { return nil }
	}
	return f
}
