package fixed

import "testing"

func TestFirst(t *testing.T) {
	v := First([]func() int{
		func() int { return 1 },
		func() int { return 2 },
		func() int { return 3 },
	})
	if v < 1 || v > 3 {
		t.Errorf("First = %d, want one of the replicas' answers", v)
	}
}
