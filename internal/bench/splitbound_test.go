package bench

import "testing"

func TestSplitBound(t *testing.T) {
	for _, c := range []struct {
		in   string
		name string
		k    int
	}{{"pcb:3", "pcb", 3}, {"pcb", "pcb", 0}, {"dpor", "dpor", 0}, {"pcb:x", "pcb:x", 0}} {
		if n, k := splitBound(c.in); n != c.name || k != c.k {
			t.Errorf("splitBound(%q) = %q, %d; want %q, %d", c.in, n, k, c.name, c.k)
		}
	}
	if strategyIndex("pcb:2") != strategyIndex("pcb") {
		t.Error("pcb:2 does not sort as pcb")
	}
}
