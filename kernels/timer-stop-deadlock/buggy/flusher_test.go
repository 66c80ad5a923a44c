package buggy

import (
	"testing"
	"time"
)

func TestStop(t *testing.T) {
	f := NewFlusher(time.Millisecond)
	if n := f.Stop(); n != 0 && n != 1 {
		t.Errorf("Stop = %d flushes, want 0 or 1", n)
	}
}
