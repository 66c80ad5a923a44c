package buggy

import "testing"

func TestScan(t *testing.T) {
	if n := Scan([]string{"abcab", "cab"}, "ab"); n != 3 {
		t.Errorf("Scan = %d, want 3", n)
	}
}
