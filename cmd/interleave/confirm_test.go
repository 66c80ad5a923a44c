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
// reported as not safe to run twice in one process.
func TestFindingsConfirmedInAFreshProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": passingModule, "m_test.go": statefulTests})
	// One worker: the messages name the schedules that ran before in the
	// same process, which -workers N shares out between processes.
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=3", "-count=2", "-workers=1", ".")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"TestClosesPackageChannel is not safe to run twice in one process",
		"It fails on schedule 2 (panic: close of closed channel), after schedule 1 ran in this process",
		"TestCountsRuns is not safe to run twice in one process",
		"It fails on schedule 1 (test failure: m_test.go:23: run 4), after the explorations of TestClosesPackageChannel, TestCountsRuns, TestRealBug, TestClosesPackageChannel in this process",
		"interleave: data race after",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	// The race is reported once per run of its test (-count=2), each time
	// with its schedule.
	if n := strings.Count(stdout, "replay: interleave replay"); n != 2 {
		t.Errorf("%d findings reported, want 2:\n%s", n, stdout)
	}
	if !strings.Contains(stderr, "interleave: 6 tests, ") || !strings.Contains(stderr, "2 with findings, 3 not safe to run twice in one process") {
		t.Errorf("summary:\n%s", stderr)
	}
}
