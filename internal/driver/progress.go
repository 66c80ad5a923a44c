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
	// their rate since the test began.
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
}

func newProgressTail(path string, sink ProgressSink) *progressTail {
	return &progressTail{path: path, sink: sink, tests: map[[2]string]map[int]wire.Progress{}}
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
	return p
}
