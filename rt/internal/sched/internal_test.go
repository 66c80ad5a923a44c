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
