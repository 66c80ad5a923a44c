package buggy

import "testing"

func TestSum(t *testing.T) {
	if got := Sum([]int{1, 2}, 2); got != 3 {
		t.Errorf("Sum = %d, want 3", got)
	}
}
