package fixed

import "testing"

// TestExec runs a small table of commands; only "incr" can lose an
// update, and only under a specific schedule.
func TestExec(t *testing.T) {
	for _, cmd := range []string{"get", "reset", "incr"} {
		if !Run(cmd) {
			t.Errorf("Run(%q): an increment was lost", cmd)
		}
	}
}

// FuzzExec explores commands; its seed corpus never increments.
func FuzzExec(f *testing.F) {
	f.Add("get")
	f.Fuzz(func(t *testing.T, cmd string) {
		if !Run(cmd) {
			t.Errorf("Run(%q): an increment was lost", cmd)
		}
	})
}
