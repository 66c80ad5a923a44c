package buggy

import "testing"

func TestCheckAll(t *testing.T) {
	got := CheckAll([]string{"a.example", "bb.example"})
	if len(got) != 2 || got["a.example"] != 9 || got["bb.example"] != 10 {
		t.Errorf("CheckAll = %v, want both hosts checked", got)
	}
}
