package race

import "testing"

func TestHitConcurrently(t *testing.T) {
	var c Counter
	HitConcurrently(&c, 2)
	if got := c.Value(); got != 2 {
		t.Fatalf("Value() = %d, want 2", got)
	}
}
