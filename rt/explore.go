package rt

import "interleave.dev/rt/internal/explore"

// Options configures Explore (see explore.Options).
type Options = explore.Options

// Report is the outcome of an exploration (see explore.Report).
type Report = explore.Report

// Explore runs body many times, each under a different interleaving, as
// the main goroutine of the iteration, until a finding, the budget, or an
// exhausted space. name identifies the test in reports and schedule files.
func Explore(name string, opts Options, body func()) (*Report, error) {
	return explore.Explore(name, opts, body)
}
