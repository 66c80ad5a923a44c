package buggy

import "testing"

func TestSquares(t *testing.T) {
	got := Squares([]int{1, 2})
	if len(got) != 2 || got[0] != 1 || got[1] != 4 {
		t.Errorf("Squares = %v, want [1 4]", got)
	}
}
