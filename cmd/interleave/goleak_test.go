package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoleak runs tests that check for leaks with go.uber.org/goleak
// (testdata/goleak, a module requiring it): VerifyNone and Find in a test
// without a leak pass, as does VerifyTestMain; a real leak is reported
// once, by interleave, with its schedule.
func TestGoleak(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "goleak"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("go", "-C", dir, "mod", "download").CombinedOutput(); err != nil {
		t.Skipf("go.uber.org/goleak is neither in the module cache nor downloadable: %v\n%s", err, b)
	}
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules=50", "-v", "./...")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"--- PASS: TestPoolNoLeak", "--- PASS: TestFindNoLeak", "--- PASS: TestWorkers",
		"ok  \texample.com/goleaktest/testmain",
		"--- FAIL: TestPoolNeverClosed", "--- FAIL: TestForgetsAWorker",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stdout, "interleave: goroutine leak after"); n != 2 {
		t.Errorf("%d leak reports, want 2 (one per leaking test):\n%s", n, stdout)
	}
	if strings.Count(stdout, "replay: interleave replay") != 2 || strings.Contains(stdout, "unexpected goroutines") || strings.Contains(stdout, "goleak: Errors") {
		t.Errorf("leaks reported by goleak, or other findings:\n%s", stdout)
	}
	// goleak is never instrumented: its stack parsing, whose length
	// depends on the goroutines alive in the process, is not in the
	// interleavings (it once made schedules replay differently alone).
	if strings.Contains(stdout, "go.uber.org/goleak@") || strings.Contains(stdout, "not confirmed") || strings.Contains(stdout, "not safe to run twice") {
		t.Errorf("goleak's own code in a report, or a finding not confirmed alone:\n%s", stdout)
	}
}
