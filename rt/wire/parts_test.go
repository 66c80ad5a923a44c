package wire

import "testing"

// Tally takes the parts in the order of their keys, whatever the order
// given: a key before the keys it is a prefix of, the first difference
// deciding otherwise.
func TestTally(t *testing.T) {
	p := func(n int, key ...int) Part { return Part{Key: key, Schedules: n, Ended: true} }
	found := func(n int, key ...int) Part { return Part{Key: key, Schedules: n, Finding: true} }
	for _, c := range []struct {
		name  string
		parts []Part
		limit int
		want  Tallied
	}{
		{"covered", []Part{p(3, 0, 2), p(5, 0), p(4, 0, 1, 7)}, 100, Tallied{Schedules: 12, Finding: -1, Exhausted: true}},
		{"at the limit", []Part{p(3, 0, 2), p(5, 0), p(4, 0, 1, 7)}, 12, Tallied{Schedules: 12, Finding: -1}},
		{"past the limit", []Part{p(3, 0, 2), p(5, 0), p(4, 0, 1, 7)}, 10, Tallied{Schedules: 10, Finding: -1}},
		{"first finding", []Part{found(2, 0, 2), p(5, 0), found(4, 0, 1, 7)}, 100, Tallied{Schedules: 9, Finding: 1}},
		{"finding past the limit", []Part{found(2, 0, 2), p(5, 0), p(4, 0, 1, 7)}, 10, Tallied{Schedules: 10, Finding: -1}},
		{"a part stopped", []Part{p(3, 0, 2), {Key: []int{0}, Schedules: 5}}, 100, Tallied{Schedules: 8, Finding: -1}},
		{"a part cut", []Part{p(3, 0, 2), {Key: []int{0}, Schedules: 5, Ended: true, Incomplete: true}}, 100, Tallied{Schedules: 8, Finding: -1}},
		{"levels", []Part{p(1, 1, -1, 0), p(2, 0, 3), p(4, 1, 2, -1, 0)}, 100, Tallied{Schedules: 7, Finding: -1, Exhausted: true}},
	} {
		if got := Tally(c.parts, c.limit); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	parts := []Part{found(4, 0, 1, 7), p(5, 0), found(2, 0, 2)}
	Tally(parts, 100)
	if parts[0].Schedules != 5 || parts[1].Schedules != 4 || parts[2].Schedules != 2 {
		t.Errorf("sorted %+v", parts)
	}
}
