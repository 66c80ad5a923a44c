package explore

import (
	"testing"
	"time"

	"interleave.dev/rt/internal/strategy"
)

// A finding whose number comes past -schedules is no finding, and its
// process does not wait for the jobs before it that nobody will claim
// (they come past the end too): it once waited for them until the
// test's deadline.
func TestFindingPastTheEndDoesNotWait(t *testing.T) {
	dir := t.TempDir()
	jobs := []strategy.Job{{Key: []int{0}}, {Key: []int{0, 1}, Prefix: []int{1}}, {Key: []int{0, 2}, Prefix: []int{2}}}
	s, err := openTree(dir, 10, "me", splitWait{deadline: time.Now().Add(time.Second)}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	// Another process ran the first job: the search's 10 schedules.
	for _, r := range [][]string{{"C", "0", "other"}, {"D", "0", "10", "e"}, {"C", "0,2", "me"}} {
		if err := s.log.appendLine(r...); err != nil {
			t.Fatal(err)
		}
	}
	s.refresh()
	if tj := s.claimable(); tj != nil {
		t.Fatalf("job %v is claimable past the end", tj.job.Key)
	}
	// This process found something on the first schedule of the last.
	s.cur = s.jobs["0,2"]
	s.Done(strategy.JobResult{Schedules: 1, Finding: true})
	n, ok := s.number()
	if ok || n != 11 || s.err != nil || s.superseded {
		t.Errorf("number: %d, %v (err %v, superseded %v); want 11, false, no error: past the end", n, ok, s.err, s.superseded)
	}
}

// Past -budget a process does not wait for the jobs before its finding
// (the others stop too, and may never end them): the finding keeps the
// number the jobs ended before it give, with no error.
func TestFindingAtTheBudgetDoesNotWait(t *testing.T) {
	jobs := []strategy.Job{{Key: []int{0}}, {Key: []int{0, 1}, Prefix: []int{1}}, {Key: []int{0, 2}, Prefix: []int{2}}}
	s, err := openTree(t.TempDir(), 100, "me", splitWait{deadline: time.Now().Add(time.Minute), budget: time.Now()}, jobs)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	for _, r := range [][]string{{"C", "0", "other"}, {"D", "0", "10", "e"}, {"C", "0,1", "other"}, {"C", "0,2", "me"}} {
		if err := s.log.appendLine(r...); err != nil {
			t.Fatal(err)
		}
	}
	s.refresh()
	s.cur = s.jobs["0,2"]
	s.Done(strategy.JobResult{Schedules: 1, Finding: true})
	if n, ok := s.number(); !ok || n != 11 || s.err != nil {
		t.Errorf("number: %d, %v (err %v); want 11, true, no error", n, ok, s.err)
	}
	if j, ok := s.Next(); ok {
		t.Errorf("past the budget, Next hands out %v", j.Key)
	}
}
