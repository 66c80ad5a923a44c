package fixed

import "testing"

func TestProcess(t *testing.T) {
	if got := Process([]int{1, 2}); got != 3 {
		t.Errorf("Process = %d, want 3", got)
	}
}
