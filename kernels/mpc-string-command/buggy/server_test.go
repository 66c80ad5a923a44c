package buggy

import "testing"

// TestApply runs a small table of commands; only the last one can show a
// half-done update, and only under a specific schedule.
func TestApply(t *testing.T) {
	for _, cmd := range []string{"get", "!x", "!r"} {
		if Run(cmd) {
			t.Errorf("Run(%q): the monitor saw an update half done", cmd)
		}
	}
}

// FuzzApply explores commands; its seed corpus never updates the server.
func FuzzApply(f *testing.F) {
	f.Add("get")
	f.Fuzz(func(t *testing.T, cmd string) {
		if Run(cmd) {
			t.Errorf("Run(%q): the monitor saw an update half done", cmd)
		}
	})
}
