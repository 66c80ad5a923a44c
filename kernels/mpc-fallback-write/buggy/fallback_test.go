package buggy

import "testing"

// TestRun runs a small table of inputs; only the last one can show the
// degraded state, and only under a specific schedule.
func TestRun(t *testing.T) {
	for _, in := range [][2]int{{0, 0}, {1, 5}} {
		if Run(in[0], in[1]) {
			t.Errorf("Run(%d, %d): the watcher saw the degraded state", in[0], in[1])
		}
	}
}

// FuzzRun explores inputs; its seed corpus never shows the degraded state.
func FuzzRun(f *testing.F) {
	f.Add(0, 0)
	f.Fuzz(func(t *testing.T, mode, level int) {
		if Run(mode, level) {
			t.Errorf("Run(%d, %d): the watcher saw the degraded state", mode, level)
		}
	})
}
