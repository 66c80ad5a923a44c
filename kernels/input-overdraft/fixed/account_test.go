package fixed

import "testing"

func check(t *testing.T, balance, x, y int) {
	t.Helper()
	if x < 0 || y < 0 || balance < 0 {
		return
	}
	if b := Run(balance, x, y); b < 0 {
		t.Errorf("Run(%d, %d, %d): balance went negative: %d", balance, x, y, b)
	}
}

// TestWithdraw runs a small table of inputs; only the last one can
// overdraw, and only under a specific schedule.
func TestWithdraw(t *testing.T) {
	for _, in := range [][3]int{{100, 30, 30}, {100, 60, 60}} {
		check(t, in[0], in[1], in[2])
	}
}

// FuzzWithdraw explores inputs; its seed corpus never overdraws.
func FuzzWithdraw(f *testing.F) {
	f.Add(100, 30, 30)
	f.Fuzz(func(t *testing.T, balance, x, y int) { check(t, balance, x, y) })
}
