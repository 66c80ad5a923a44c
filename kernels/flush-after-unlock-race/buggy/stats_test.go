package buggy

import (
	"testing"
	"time"
)

func TestFlush(t *testing.T) {
	s := &Stats{}
	done := make(chan struct{})
	go s.FlushAfter(time.Millisecond, done)
	for i := 0; i < 3; i++ {
		s.Add()
		if n := s.Snapshot(); n < 0 || n > 3 {
			t.Errorf("snapshot %d of 3 events", n)
		}
	}
	<-done
	if n := s.Snapshot(); n > 3 {
		t.Errorf("flushed %d of 3 events", n)
	}
}
