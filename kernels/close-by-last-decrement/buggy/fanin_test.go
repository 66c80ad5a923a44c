package buggy

import "testing"

func TestSumSquares(t *testing.T) {
	const n = 16
	want := 0
	for i := 0; i < n; i++ {
		want += i * i
	}
	if got := SumSquares(n); got != want {
		t.Errorf("SumSquares(%d) = %d, want %d", n, got, want)
	}
}
