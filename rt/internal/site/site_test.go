package site

import (
	"reflect"
	"testing"
)

// TestOperands registers the sites of three files, one without names,
// and reads back each site's operands by its number.
func TestOperands(t *testing.T) {
	a := Register("a.go", "l*from.mu\n\nc<done\tc>s.ch", 1, 1, 2, 1, 3, 1, 4, 1)
	b := Register("b.go", "", 1, 1)
	c := Register("c.go", "v*c.n", 5, 2)
	for _, tc := range []struct {
		site uint32
		want []Operand
	}{
		{a, []Operand{{Lock, DirAny, "from.mu"}}},
		{a + 1, nil},
		{a + 2, []Operand{{Chan, DirIn, "done"}, {Chan, DirOut, "s.ch"}}},
		{a + 3, nil}, // past the table's last line
		{b, nil},
		{c, []Operand{{Memory, DirAny, "c.n"}}},
		{c + 1, nil}, // no such site
		{0, nil},
	} {
		if got := Operands(tc.site); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Operands(%d) = %+v, want %+v", tc.site, got, tc.want)
		}
	}
	if p := Pos(c); p != (Position{File: "c.go", Line: 5, Column: 2}) {
		t.Errorf("Pos(%d) = %+v", c, p)
	}
}
