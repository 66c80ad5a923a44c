package buggy

import "testing"

// TestShare runs a small table of inputs; only the last one can divide by
// zero, and only under a specific schedule.
func TestShare(t *testing.T) {
	for _, in := range [][2]int{{4, 1}, {3, 3}} {
		if s := Run(in[0], in[1]); s < 0 {
			t.Errorf("Run(%d, %d) = %d, want a non-negative share", in[0], in[1], s)
		}
	}
}

// FuzzShare explores inputs; its seed corpus never divides by zero.
func FuzzShare(f *testing.F) {
	f.Add(4, 1)
	f.Fuzz(func(t *testing.T, workers, drained int) {
		if workers < 0 || drained < 0 || drained > workers {
			return
		}
		if s := Run(workers, drained); s < 0 {
			t.Errorf("negative share %d", s)
		}
	})
}
