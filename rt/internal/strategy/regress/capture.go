package regress

import (
	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// Capture replays a schedule, as Replay does, and takes the call stacks of
// chosen events: the executed events at the given trace indexes, and the
// last pending event of the given goroutines (the operations they were
// blocked in). Call stacks of past events are not recorded while
// exploring, for speed; since a replay is deterministic, one replay that
// knows the indexes gives them (the bug signature of a finding).
type Capture struct {
	*strategy.Replay
	want      map[int]event.Event
	pendingOf map[int32]bool
	// Stacks holds the stack of each wanted executed event that was
	// performed as expected; PendingStacks that of the last pending event
	// of each wanted goroutine.
	Stacks        map[int][]uintptr
	PendingStacks map[int32][]uintptr
}

// NewCapture returns a Capture replaying choices; want maps trace
// indexes to the events expected there, pendingOf names goroutines.
func NewCapture(choices []int, want map[int]event.Event, pendingOf map[int32]bool) *Capture {
	return &Capture{
		Replay:        strategy.NewReplay(choices),
		want:          want,
		pendingOf:     pendingOf,
		Stacks:        make(map[int][]uintptr),
		PendingStacks: make(map[int32][]uintptr),
	}
}

// Pending implements Observer.
func (c *Capture) Pending(ev event.Event) {
	if c.pendingOf[ev.G] {
		c.PendingStacks[ev.G] = strategy.Callers()
	}
}

// Executed implements Observer.
func (c *Capture) Executed(ev event.Event, index int) {
	if w, ok := c.want[index]; ok && w == ev {
		c.Stacks[index] = strategy.Callers()
	}
}

// Woke implements Observer; capture does not need it.
func (c *Capture) Woke(int32) {}
