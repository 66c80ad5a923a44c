package driver

import (
	"io"
	"os"
	"slices"
	"time"

	"interleave.dev/rt/wire"
)

// TestProgress is how far the exploration of one test got, summed over
// the processes exploring it (-workers).
type TestProgress struct {
	Package string
	Test    string
	// Schedules is the number of schedules run so far, and PerSecond
	// their rate over the last rateWindow of the exploration (since it
	// began, in its first second), so that a test that slows down shows
	// it.
	Schedules int
	PerSecond float64
	// Elapsed is how long the test has been explored.
	Elapsed time.Duration
	// Budget is the test's wall-clock budget (0: none), MaxSchedules its
	// budget of schedules (0: the default).
	Budget       time.Duration
	MaxSchedules int
	// Covered estimates the fraction of the strategy's space covered,
	// for a strategy that can tell (dfs); else 0.
	Covered float64
}

// ProgressSink shows the progress of the explorations while go test runs.
// Its methods are called one at a time, in step with go test's output.
type ProgressSink interface {
	// Update shows p. It is called between lines of go test's output.
	Update(p TestProgress)
	// Clear removes what Update showed. It is called before any output
	// of go test is written, and when go test ends.
	Clear()
}

// progressPoll is how often the driver reads the progress file.
const progressPoll = 100 * time.Millisecond

// progressTail reads the progress records the test binaries append to a
// file and sums them per test.
type progressTail struct {
	path    string
	sink    ProgressSink
	offset  int64
	partial []byte
	tests   map[[2]string]map[int]wire.Progress // (package, test) -> process -> latest
	changed [][2]string                         // tests with records not shown yet, in order
	recent  map[[2]string][]rateSample          // the test's sums over the last rateWindow, oldest first
}

// rateWindow is the span over which the rate of schedules is measured;
// maxRateSamples bounds the samples kept per test (records come at most
// every 200ms per process).
const (
	rateWindow     = 5 * time.Second
	maxRateSamples = 256
)

// rateSample is the schedules of a test summed at an elapsed time.
type rateSample struct {
	elapsed   time.Duration
	schedules int
}

func newProgressTail(path string, sink ProgressSink) *progressTail {
	return &progressTail{path: path, sink: sink, tests: map[[2]string]map[int]wire.Progress{}, recent: map[[2]string][]rateSample{}}
}

// read takes in the records appended since the last read. The file is
// only shown, so a read that fails is tried again at the next poll.
func (t *progressTail) read() {
	f, err := os.Open(t.path)
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.Seek(t.offset, io.SeekStart); err != nil {
		return
	}
	b, err := io.ReadAll(f)
	t.offset += int64(len(b))
	t.partial = append(t.partial, b...)
	recs, n, perr := wire.ReadProgress(t.partial)
	t.partial = append(t.partial[:0], t.partial[n:]...)
	if err != nil || perr != nil {
		return
	}
	for _, r := range recs {
		k := [2]string{r.Package, r.Test}
		if t.tests[k] == nil {
			t.tests[k] = map[int]wire.Progress{}
		}
		t.tests[k][r.Process] = r
		if !slices.Contains(t.changed, k) {
			t.changed = append(t.changed, k)
		}
	}
}

// show passes the tests with new records to the sink.
func (t *progressTail) show() {
	for _, k := range t.changed {
		t.sink.Update(t.sum(k))
	}
	t.changed = t.changed[:0]
}

// sum is the progress of test k over its processes: the schedules add
// up; the time and the budgets are the longest, the parent's (a worker
// starts later, with what is left of the budget).
func (t *progressTail) sum(k [2]string) TestProgress {
	p := TestProgress{Package: k[0], Test: k[1]}
	for _, r := range t.tests[k] {
		p.Schedules += r.Schedules
		p.Elapsed = max(p.Elapsed, time.Duration(r.Elapsed))
		p.Budget = max(p.Budget, time.Duration(r.Budget))
		p.MaxSchedules = max(p.MaxSchedules, r.MaxSchedules)
		p.Covered = max(p.Covered, r.Covered) // a strategy that estimates it runs in one process
	}
	if p.Elapsed > 0 {
		p.PerSecond = float64(p.Schedules) / p.Elapsed.Seconds()
	}
	p.PerSecond = t.recentRate(k, p)
	return p
}

// recentRate records p's sum among the recent samples of test k and
// returns the rate of schedules since the newest sample at least
// rateWindow older than it (the oldest one kept, before that), or p's
// rate since the test began when the samples span less than a second.
func (t *progressTail) recentRate(k [2]string, p TestProgress) float64 {
	z := t.recent[k]
	if n := len(z); n == 0 || p.Elapsed > z[n-1].elapsed {
		z = append(z, rateSample{p.Elapsed, p.Schedules})
	}
	drop := 0
	for drop+1 < len(z) && (z[drop+1].elapsed <= p.Elapsed-rateWindow || len(z)-drop > maxRateSamples) {
		drop++
	}
	z = append(z[:0], z[drop:]...)
	t.recent[k] = z
	if span := p.Elapsed - z[0].elapsed; span >= time.Second {
		return float64(p.Schedules-z[0].schedules) / span.Seconds()
	}
	return p.PerSecond
}
