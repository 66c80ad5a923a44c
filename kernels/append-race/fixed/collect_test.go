package fixed

import "testing"

func TestCollect(t *testing.T) {
	got := Collect([]func() int{
		func() int { return 1 },
		func() int { return 2 },
	})
	if len(got) != 2 || got[0]+got[1] != 3 {
		t.Errorf("Collect = %v, want 1 and 2 in any order", got)
	}
}
