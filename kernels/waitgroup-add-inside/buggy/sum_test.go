package buggy

import "testing"

func TestSum(t *testing.T) {
	if got := Sum(3); got != 6 {
		t.Errorf("Sum(3) = %d, want 6", got)
	}
}
