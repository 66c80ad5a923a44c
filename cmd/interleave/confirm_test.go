package main

import (
	"strings"
	"testing"
)

// statefulTests pass when run alone but leave package state behind that a
// later run in the same process sees; TestRealBug has a data race.
const statefulTests = `package m

import (
	"sync"
	"testing"
)

var done = make(chan struct{})

func TestClosesPackageChannel(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done() }()
	wg.Wait()
	close(done)
}

var runs int

func TestCountsRuns(t *testing.T) {
	runs++
	if runs > 3 {
		t.Fatalf("run %d", runs)
	}
}

func TestRealBug(t *testing.T) {
	x := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() { defer wg.Done(); x++ }()
	}
	wg.Wait()
}
`

// TestFindingsConfirmedInAFreshProcess: a finding is reported only when its
// schedule reproduces it in a fresh process; a test that fails only because
// an earlier schedule (or an earlier -count run) left state behind is
// explored anyway, in fresh processes, and passes.
func TestFindingsConfirmedInAFreshProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": passingModule, "m_test.go": statefulTests})
	// One worker: the messages name the schedules that ran before in the
	// same process, which -workers N shares out between processes.
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=3", "-count=2", "-workers=1", "-v", ".")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"--- PASS: TestClosesPackageChannel",
		"interleave: explored afresh, at most 1 schedule in each of 3 fresh processes: it leaves state behind that a later schedule sees",
		"--- PASS: TestCountsRuns",
		"interleave: explored afresh, in one fresh process: it leaves state behind that a later schedule sees",
		"interleave: data race after",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "not safe to run twice") {
		t.Errorf("a test was given up:\n%s", stdout)
	}
	// The race is reported once per run of its test (-count=2), each time
	// with its schedule.
	if n := strings.Count(stdout, "replay: interleave replay"); n != 2 {
		t.Errorf("%d findings reported, want 2:\n%s", n, stdout)
	}
	if !strings.Contains(stderr, "interleave: 6 tests, ") || !strings.Contains(stderr, "4 passed, 2 with findings") {
		t.Errorf("summary:\n%s", stderr)
	}
}
