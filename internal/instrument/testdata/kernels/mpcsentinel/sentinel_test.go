package buggy

import "testing"

// TestSentinel runs a small table of inputs; only the last one can reach
// the sentinel, and only under a specific schedule.
func TestSentinel(t *testing.T) {
	for _, in := range [][2]int{{1, 2}, {3, 6}} {
		if Run(in[0], in[1]) {
			t.Errorf("Run(%d, %d): the monitor saw the sentinel", in[0], in[1])
		}
	}
}

// FuzzSentinel explores inputs; its seed corpus never reaches the sentinel.
func FuzzSentinel(f *testing.F) {
	f.Add(1, 2)
	f.Fuzz(func(t *testing.T, i, j int) {
		if Run(i, j) {
			t.Errorf("Run(%d, %d): the monitor saw the sentinel", i, j)
		}
	})
}
