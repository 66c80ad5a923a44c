package partial

import "testing"

func TestDecompress(t *testing.T) {
	if got := Decompress([]int{1, 2, 3}); got != 6 {
		t.Errorf("Decompress = %d, want 6", got)
	}
}
