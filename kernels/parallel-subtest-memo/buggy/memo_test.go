package buggy

import "testing"

func TestLookup(t *testing.T) {
	r := NewResolver()
	for _, tc := range []struct {
		name string
		want int
	}{{"a", 10}, {"bb", 20}} {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := r.Lookup(tc.name); got != tc.want {
				t.Errorf("Lookup(%q) = %d, want %d", tc.name, got, tc.want)
			}
		})
	}
}
