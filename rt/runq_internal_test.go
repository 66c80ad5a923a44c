package rt

import "interleave.dev/rt/internal/sched"

// The tests of package rt check the scheduler's incremental enabled set
// against a scan of every goroutine at every thread choice point.
func init() { sched.VerifyRunq(true) }
