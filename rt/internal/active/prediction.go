package active

import (
	"fmt"
	"sort"

	"interleave.dev/rt/internal/event"
)

// Kind is the kind of a prediction.
type Kind uint8

// The kinds of predictions.
const (
	// Race: two sites that may access one memory word unordered, one of
	// them writing (RaceFuzzer, section 2, Algorithm 2).
	Race Kind = iota
	// Deadlock: a cycle of goroutines each holding what the next one
	// waits for (DeadlockFuzzer; iGoodlock, reference 3 of the paper).
	Deadlock
	// Atomicity: a block of one goroutine that another goroutine may
	// interleave with a conflicting write (AtomFuzzer, reference 6).
	Atomicity
	// Lost: a blocking channel operation whose only partner in the
	// observed run was a case of another goroutine's select, which may
	// take another case or its default when it comes first: the
	// operation then waits for ever (a checker in CalFuzzer's sense: an
	// analysis and the breakpoint that makes its bug happen).
	Lost
)

func (k Kind) String() string {
	switch k {
	case Race:
		return "race"
	case Deadlock:
		return "deadlock"
	case Atomicity:
		return "atomicity"
	case Lost:
		return "lost communication"
	}
	return "?"
}

// Status is where a prediction stands after phase 2: the paper's
// checkers confirm real bugs among the warnings (section 1); the others
// stay warnings.
type Status uint8

// The statuses of a prediction.
const (
	// NotTried: the exploration ended (a finding, the budget) before the
	// prediction's directed runs.
	NotTried Status = iota
	// Unconfirmed: its directed runs found nothing. Never a failure:
	// the analyses over-approximate.
	Unconfirmed
	// Confirmed: a directed run reached the predicted situation and
	// ended with a finding, reported as usual with its schedule file.
	Confirmed
)

func (s Status) String() string {
	switch s {
	case Unconfirmed:
		return "unconfirmed"
	case Confirmed:
		return "confirmed"
	}
	return "not tried"
}

// Component is one goroutine's part in a predicted deadlock: holding a
// lock first acquired at Held (0: none needed), it is about to perform Op
// (a lock acquisition, a channel operation, a WaitGroup or Cond wait) at
// At. Locks are identified across runs by the site that acquired them:
// the context abstraction of the paper (section 3) where Go, with
// zero-value mutexes, has no allocation site.
type Component struct {
	Held uint32
	Op   event.Op
	At   uint32
}

// Prediction is one potential bug found in phase 1: what the paper's
// imprecise analyses report (section 1) and what phase 2 takes as its
// breakpoints (section 2, Algorithm 1's input).
type Prediction struct {
	Kind Kind
	// What says which analysis predicted it: "hybrid race",
	// "lock-order cycle", "lock and channel", "lock and WaitGroup",
	// "lock and Cond", "check-then-act", "atomic load-then-store".
	What string
	// Race: the two sites, A <= B, and whether each wrote.
	A, B           uint32
	WriteA, WriteB bool
	// Deadlock: the cycle.
	Cycle []Component
	// Lost: the blocking operation (Op, a send or a receive) at A and the
	// select at B whose case was its partner.
	Op event.Op
	// Atomicity: the block opens with the access at First and closes
	// with the operation at Second (a Lock or an atomic store) on the
	// same word; Conflicts are other goroutines' writes to that word.
	First, Second uint32
	Conflicts     []uint32

	// Filled in by phase 2.
	Status    Status
	Schedules int    // directed schedules run
	Finding   string // kind of the confirming finding
	Reached   bool   // the predicted situation was reached at least once

	key string
}

// Site renders a site; supplied by package rt.
type Site func(uint32) string

// Describe says what p predicts, one line.
func (p *Prediction) Describe(site Site) string {
	switch p.Kind {
	case Race:
		return fmt.Sprintf("%s: %s at %s and %s at %s may access one word unordered", p.What, access(p.WriteA), site(p.A), access(p.WriteB), site(p.B))
	case Deadlock:
		s := p.What + ":"
		same := len(p.Cycle) > 1
		for _, c := range p.Cycle {
			same = same && c == p.Cycle[0]
		}
		if c := p.Cycle[0]; same {
			return fmt.Sprintf("%s %d goroutines, each holding the lock taken at %s, %s at %s", s, len(p.Cycle), site(c.Held), c.Op, site(c.At))
		}
		for i, c := range p.Cycle {
			if i > 0 {
				s += ";"
			}
			if c.Held != 0 {
				s += fmt.Sprintf(" holding the lock taken at %s,", site(c.Held))
			}
			s += fmt.Sprintf(" %s at %s", c.Op, site(c.At))
		}
		return s
	case Lost:
		return fmt.Sprintf("%s: the %s at %s waits for the select at %s, which may take another case or its default first", p.What, p.Op, site(p.A), site(p.B))
	case Atomicity:
		s := fmt.Sprintf("%s: the block from %s to %s may be interleaved by the write", p.What, site(p.First), site(p.Second))
		if len(p.Conflicts) > 1 {
			s += "s"
		}
		for i, c := range p.Conflicts {
			if i > 0 {
				s += ","
			}
			s += " at " + site(c)
		}
		return s
	}
	return "?"
}

func access(w bool) string {
	if w {
		return "write"
	}
	return "read"
}

func (p *Prediction) makeKey() {
	switch p.Kind {
	case Race:
		p.key = fmt.Sprintf("r %d %d", p.A, p.B)
	case Deadlock:
		p.key = "d " + p.What
		for _, c := range p.Cycle {
			p.key += fmt.Sprintf(" %d/%d/%d", c.Held, c.Op, c.At)
		}
	case Atomicity:
		p.key = fmt.Sprintf("a %s %d %d", p.What, p.First, p.Second)
	case Lost:
		p.key = fmt.Sprintf("l %d %d %d", p.Op, p.A, p.B)
	}
}

// canonical rotates a cycle so that its smallest component comes first:
// the same cycle found from another goroutine is one prediction.
func canonical(c []Component) []Component {
	best := 0
	less := func(a, b Component) bool {
		if a.At != b.At {
			return a.At < b.At
		}
		if a.Held != b.Held {
			return a.Held < b.Held
		}
		return a.Op < b.Op
	}
	for i := range c {
		if less(c[i], c[best]) {
			best = i
		}
	}
	out := make([]Component, 0, len(c))
	out = append(out, c[best:]...)
	return append(out, c[:best]...)
}

// maxPredictions bounds the predictions of one test.
const maxPredictions = 64

// set is the deduplicated predictions of phase 1, in order of discovery
// within each kind.
type set struct {
	list  []*Prediction
	index map[string]*Prediction
}

func (s *set) add(p *Prediction) {
	p.makeKey()
	if s.index == nil {
		s.index = make(map[string]*Prediction)
	}
	if q := s.index[p.key]; q != nil {
		for _, c := range p.Conflicts {
			q.addConflict(c)
		}
		q.WriteA, q.WriteB = q.WriteA || p.WriteA, q.WriteB || p.WriteB
		return
	}
	if len(s.list) >= maxPredictions {
		return
	}
	s.index[p.key] = p
	s.list = append(s.list, p)
}

func (p *Prediction) addConflict(site uint32) {
	for _, c := range p.Conflicts {
		if c == site {
			return
		}
	}
	if len(p.Conflicts) < 8 {
		p.Conflicts = append(p.Conflicts, site)
	}
}

// sorted gives the predictions in the order phase 2 tries them: deadlocks
// first (a confirmed one stops the test in its tracks), then atomicity
// violations, then races; discovery order within a kind.
func (s *set) sorted() []*Prediction {
	out := append([]*Prediction(nil), s.list...)
	rank := func(k Kind) int {
		switch k {
		case Deadlock, Lost:
			return 0
		case Atomicity:
			return 1
		}
		return 2
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].Kind) < rank(out[j].Kind) })
	return out
}
