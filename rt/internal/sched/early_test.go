package sched

import (
	"testing"
	"time"

	"interleave.dev/rt/internal/strategy"
)

func TestEarlyTimersAreBounded(t *testing.T) {
	// A long run that fires timers early again and again keeps the first
	// earlyLimit of them for its report, counts the rest, and knows the
	// longest stall of all.
	it := &Iteration{x: &Explorer{}}
	it.opts = []strategy.Option{{G: 1}, {G: 0}}
	for i := 0; i < 100; i++ {
		it.addTimer(&timer{site: 1}, it.clock+int64(i+1)*int64(time.Millisecond))
		it.noteEarlyTimer()
		it.fireTimer()
	}
	if len(it.early) != earlyLimit || it.earlyDropped != 100-earlyLimit {
		t.Errorf("kept %d, dropped %d", len(it.early), it.earlyDropped)
	}
	if it.earlyMax != 100*time.Millisecond {
		t.Errorf("longest stall %v", it.earlyMax)
	}
}
