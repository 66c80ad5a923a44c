package regress

import (
	"fmt"
	"strconv"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

// Similarity of events across program versions, after RegressionMaple
// (Tsui, Wu, Chan, section 3.3): an event of the changed program is
// similar to a signature event when it is the same operation, its site
// lies within a window w of the original site, and its call stack is
// within edit distance d of the original stack. Goroutine ids are never
// compared. The paper measures w in bytes of machine code; here it is in
// source lines relative to the start of the enclosing function, which
// survives code added above the function or a function moved, and "any"
// lets the event be in another function (a helper extracted or renamed),
// leaving the call-stack distance to relate them.

// WindowAny is the window that accepts a site in any function and line.
const WindowAny = -1

// Level is one step of the similarity ladder: window W (lines within the
// same function, or WindowAny) and call-stack distance D: the paper's w
// and d (section 3.3).
type Level struct{ W, D int }

// WString formats the window.
func (l Level) WString() string {
	if l.W == WindowAny {
		return "any"
	}
	return strconv.Itoa(l.W)
}

func (l Level) String() string { return fmt.Sprintf("w=%s, d=%d", l.WString(), l.D) }

// covers reports whether an event needing window w and distance d
// matches at l.
func (l Level) covers(w, d int) bool {
	return d <= l.D && (l.W == WindowAny || (w != WindowAny && w <= l.W))
}

// Ladder is the order in which the regression strategy loosens similarity,
// from exact (w=0, d=0: same function, line and column, same stack) to
// loose (any site, stacks three edits apart): by the sum of the window's
// step and d, the smaller d first, as the paper advises keeping d at 0
// while w grows (section 3.5).
var Ladder = func() []Level {
	ws := []int{0, 1, 3, 10, WindowAny}
	var out []Level
	for sum := 0; sum <= len(ws)-1+3; sum++ {
		for d := 0; d <= 3; d++ {
			if wi := sum - d; wi >= 0 && wi < len(ws) {
				out = append(out, Level{W: ws[wi], D: d})
			}
		}
	}
	return out
}()

// EditDistance is the Wagner-Fischer edit distance between two call
// stacks: the fewest frames inserted, deleted or replaced to turn a into b
// (RegressionMaple's ED, section 3.3).
func EditDistance(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			if x := prev[j] + 1; x < c {
				c = x
			}
			if x := cur[j-1] + 1; x < c {
				c = x
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// SigEvent is a signature event as the strategy uses it (wire.SigEvent
// with its operation decoded).
type SigEvent struct {
	Op        event.Op
	Line, Col int
	Func      string
	FuncLine  int
	Stack     []string
	Object    int // 1-based label; 0: none
	Goroutine int // 1-based label
}

// Pos is the source position of a site.
type Pos struct{ Line, Col int }

// Need returns the tightest window and distance at which an event of
// operation op at pos with context c is similar to s; ok is false when
// the operations differ.
func (s *SigEvent) Need(op event.Op, pos Pos, c *strategy.Context) (w, d int, ok bool) {
	if op != s.Op {
		return 0, 0, false
	}
	d = EditDistance(s.Stack, c.Stack)
	w = WindowAny
	if c.Func != "" && c.Func == s.Func {
		rel, orig := pos.Line-c.FuncLine, s.Line-s.FuncLine
		if c.FuncLine == 0 || s.FuncLine == 0 {
			rel, orig = pos.Line, s.Line
		}
		w = rel - orig
		if w < 0 {
			w = -w
		}
		if w == 0 && pos.Col != s.Col {
			w = 1 // same line, another expression on it
		}
	}
	return w, d, true
}

// Similar reports whether the event is similar to s at level l.
func (s *SigEvent) Similar(op event.Op, pos Pos, c *strategy.Context, l Level) bool {
	w, d, ok := s.Need(op, pos, c)
	return ok && l.covers(w, d)
}
