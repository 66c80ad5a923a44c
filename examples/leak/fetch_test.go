package leak

import (
	"testing"
	"time"
)

func TestFetch(t *testing.T) {
	// The work takes about as long as the caller is willing to wait: which
	// of the two finishes first is up to the scheduler.
	slow := func() int {
		time.Sleep(100 * time.Millisecond)
		return 42
	}
	v, err := Fetch(slow, 100*time.Millisecond)
	if err != nil {
		// A timeout is an answer the caller handles; the leak is the bug.
		t.Logf("fetch: %v", err)
		return
	}
	if v != 42 {
		t.Fatalf("Fetch = %d, want 42", v)
	}
}
