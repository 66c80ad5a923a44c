package sched

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestFaultedInRuntime tells a run-time error of the tool's own code (a
// bug of interleave) from one of the program.
func TestFaultedInRuntime(t *testing.T) {
	var stack string
	func() {
		defer func() {
			recover()
			stack = string(debug.Stack())
		}()
		var s []int
		_ = s[len(stack)] // index out of range, raised here, in package sched
	}()
	if !faultedInRuntime(stack) {
		t.Errorf("a fault in package sched is not the tool's:\n%s", stack)
	}
	i := strings.Index(stack, "\ninterleave.dev/rt/internal/sched.TestFaultedInRuntime.func1(")
	user := stack
	if i >= 0 {
		user = stack[:i+1] + "example.com/m.TestX.func1" + stack[i+1+len("interleave.dev/rt/internal/sched.TestFaultedInRuntime.func1"):]
	}
	if user == stack {
		t.Fatalf("the stack does not name the faulting frame as expected:\n%s", stack)
	}
	if faultedInRuntime(user) {
		t.Errorf("a fault in the program is reported as the tool's:\n%s", user)
	}
}

// TestLivelockNoteNamesTheBound: a livelock's message names the bound it
// passed, the lone one when goroutines that ran early in the spell left
// one polling alone (gocron's TestScheduler_JobsWaitingInQueue: four had
// run, and the one left spun past 8 times -steps).
func TestLivelockNoteNamesTheBound(t *testing.T) {
	for _, c := range []struct {
		gs, quiet int
		want      string
	}{
		{2, 101, ""},
		{2, 801, ", alone (no other goroutine could run: the bound is 8 times -steps"},
		{4, 801, ", alone (no other goroutine could run: the bound is 8 times -steps"},
		{40, 2001, ", shared by 40 goroutines (the bound is 20 times -steps"},
		{6, 301, ", shared by 6 goroutines (the bound is 3 times -steps"},
	} {
		it := &Iteration{x: &Explorer{cfg: Config{MaxSteps: 100}}, quietGs: c.gs, steps: c.quiet}
		if got := it.aloneNote(); !strings.HasPrefix(got, c.want) || c.want == "" && got != "" {
			t.Errorf("%d goroutines, %d quiet points: %q, want %q...", c.gs, c.quiet, got, c.want)
		}
	}
}
