package strategy

import (
	"fmt"
	"math"
	"testing"

	"interleave.dev/rt/internal/event"
)

func point(kind Kind, index int, gs ...int32) *Point {
	p := &Point{Kind: kind, Index: index, Step: index}
	for i, g := range gs {
		p.Options = append(p.Options, Option{G: g, Case: int32(i)})
	}
	return p
}

// A synthetic program whose choice points have 2, 3 and 2 options: DFS
// must run each of the 12 leaves exactly once and then say it is done.
func TestDFSEnumeratesEveryLeafOnce(t *testing.T) {
	s := NewDFS(0)
	seen := map[string]bool{}
	covered := s.Covered()
	for s.Begin() {
		var path []int
		for i, n := range []int{2, 3, 2} {
			gs := make([]int32, n)
			for k := range gs {
				gs[k] = int32(k + 1)
			}
			path = append(path, s.Choose(point(Thread, i, gs...)))
		}
		key := fmt.Sprint(path)
		if seen[key] {
			t.Fatalf("leaf %s run twice", key)
		}
		seen[key] = true
		s.End(Outcome{})
		// Every leaf weighs 1/12 here: the estimate is exact.
		if c := s.Covered(); c <= covered || math.Abs(c-float64(len(seen))/12) > 1e-9 {
			t.Errorf("after %d leaves: covered %v, after %v before", len(seen), c, covered)
		}
		covered = s.Covered()
		if len(seen) > 100 {
			t.Fatal("DFS does not terminate")
		}
	}
	if len(seen) != 12 || !s.Complete() {
		t.Errorf("%d leaves, complete %v; want 12, true", len(seen), s.Complete())
	}
}

func TestDFSDepthBoundIsNotComplete(t *testing.T) {
	s := NewDFS(1)
	for s.Begin() {
		s.Choose(point(Thread, 0, 1, 2))
		s.Choose(point(Thread, 1, 1, 2)) // past the bound
		s.End(Outcome{})
	}
	if s.Complete() {
		t.Error("a cut search claims to be complete")
	}
}

func TestReplayFollowsAndDetectsMismatch(t *testing.T) {
	p := point(Thread, 0, 0, 2, 5) // the timer, goroutines 2 and 5
	r := NewReplay([]int{5, 0, -2})
	r.Begin()
	if i := r.Choose(p); i != 2 {
		t.Errorf("goroutine 5: got option %d", i)
	}
	if i := r.Choose(p); i != 0 {
		t.Errorf("timer: got option %d", i)
	}
	if i := r.Choose(point(Select, 2, 7, 7)); i != 1 {
		t.Errorf("select case 1: got option %d", i)
	}
	if i := r.Choose(p); i != -1 {
		t.Errorf("past the end: got option %d, want -1", i)
	}
	r2 := NewReplay([]int{3})
	r2.Begin()
	if i := r2.Choose(p); i != -1 {
		t.Errorf("goroutine 3 not offered: got option %d, want -1", i)
	}
	if r.Begin() {
		t.Error("a replay runs more than once")
	}
}

func TestRandomIsUniformAndSeeded(t *testing.T) {
	a, b := NewRandom(42), NewRandom(42)
	counts := make([]int, 4)
	p := point(Thread, 0, 1, 2, 3, 4)
	for i := 0; i < 40000; i++ {
		x, y := a.Choose(p), b.Choose(p)
		if x != y {
			t.Fatal("same seed, different choices")
		}
		counts[x]++
	}
	for i, c := range counts {
		if c < 9000 || c > 11000 {
			t.Errorf("option %d chosen %d times of 40000", i, c)
		}
	}
}

// With depth 1, PCT never changes priorities: within an iteration the
// same goroutine always wins while it is enabled.
func TestPCTPrioritiesAreStableWithoutChangePoints(t *testing.T) {
	s := NewPCT(3, 1)
	s.Begin()
	first := s.Choose(point(Thread, 0, 1, 2, 3))
	for i := 1; i < 50; i++ {
		if got := s.Choose(point(Thread, i, 1, 2, 3)); got != first {
			t.Fatalf("step %d: option %d, want %d", i, got, first)
		}
	}
}

// With depth 2, one change point demotes the running goroutine, so over
// many iterations each goroutine is sometimes preempted by the other.
func TestPCTChangePointsPreempt(t *testing.T) {
	s := NewPCT(5, 2)
	switched := 0
	for it := 0; it < 200; it++ {
		s.Begin()
		prev := -1
		for i := 0; i < 10; i++ {
			c := s.Choose(point(Thread, i, 1, 2))
			if prev >= 0 && c != prev {
				switched++
				break
			}
			prev = c
		}
		s.End(Outcome{Points: 10, Steps: 10})
	}
	if switched < 100 {
		t.Errorf("only %d of 200 iterations had a preemption", switched)
	}
}

// Coverage prefers what no schedule did yet at a site: from goroutine 1
// at site 10, going on and switching to sites 20 and 30 are each chosen
// once before any choice repeats, and then it is random's choice: every
// option is chosen, going on most (Random's odds).
func TestCoverageTriesNewSwitchesFirst(t *testing.T) {
	s := NewCoverage(1)
	p := &Point{Kind: Thread, Current: 1, Options: []Option{
		{G: 1, Ev: event.Event{G: 1, Site: 10}},
		{G: 2, Ev: event.Event{G: 2, Site: 20}},
		{G: 3, Ev: event.Event{G: 3, Site: 30}},
	}}
	seen := map[int]bool{}
	for i := 0; i < 3; i++ {
		s.Begin()
		k := s.Choose(p)
		if seen[k] {
			t.Fatalf("schedule %d chose option %d again, after %v: want one not chosen yet", i+1, k, seen)
		}
		seen[k] = true
		s.End(Outcome{})
	}
	counts := make([]int, 3)
	for i := 0; i < 300; i++ {
		s.Begin()
		counts[s.Choose(p)]++
		s.End(Outcome{})
	}
	for k, c := range counts {
		if c < 20 || k > 0 && c > counts[0] {
			t.Errorf("everything covered, option %d chosen %d times in 300: want each, going on most (%v)", k, c, counts)
		}
	}
	if s.Pairs() != 3 {
		t.Errorf("%d pairs covered, want 3", s.Pairs())
	}
}

// Random's schedules each draw how often they switch: about a third
// choose uniformly at every point, the others go on with the goroutine
// that reached a point most of the time.
func TestRandomSwitchOdds(t *testing.T) {
	s := NewRandom(1)
	p := &Point{Kind: Thread, Current: 1, Options: []Option{{G: 1}, {G: 2}, {G: 3}, {G: 4}}}
	stays := 0
	for i := 0; i < 300; i++ {
		s.Begin()
		on := 0
		for k := 0; k < 100; k++ {
			if s.Choose(p) == 0 {
				on++
			}
		}
		if on > 60 {
			stays++
		}
	}
	if stays < 150 || stays > 250 {
		t.Errorf("%d schedules of 300 mostly went on with the current goroutine, want about 200", stays)
	}
}

// TestMixHoldsBack: a goroutine held back is chosen only when no other
// option is; about one schedule in four holds goroutines back.
func TestMixHoldsBack(t *testing.T) {
	r := newRNG(1, 0)
	m := mix{stay: 16, hold: 1} // hold back every goroutine that reaches a point
	p := &Point{Kind: Thread, Current: 2, Options: []Option{{G: 1}, {G: 2}, {G: 3}}}
	for range 200 {
		if o := p.Options[r.pick(p, &m)]; o.G == 2 {
			t.Fatalf("held-back goroutine 2 chosen among %v (held %v)", p.Options, m.held[:m.nheld])
		}
	}
	p.Current = 3
	for range 200 {
		if o := p.Options[r.pick(p, &m)]; o.G != 1 {
			t.Fatalf("chose goroutine %d, want 1, the only one not held back (held %v)", o.G, m.held[:m.nheld])
		}
	}
	p.Current = 1
	r.pick(p, &m) // every option held back now: any of them
	if m.nheld != 3 {
		t.Fatalf("held %v, want all three", m.held[:m.nheld])
	}
	p.Options = append(p.Options, Option{G: 4})
	p.Current = 4
	for range 100 {
		r.pick(p, &m)
	}
	if m.nheld != maxHeld {
		t.Fatalf("held %v, want at most %d", m.held[:m.nheld], maxHeld)
	}
	holds := 0
	for i := range 4000 {
		if newRNG(int64(i), 0).draw().hold != 0 {
			holds++
		}
	}
	if holds < 800 || holds > 1200 {
		t.Errorf("%d of 4000 schedules hold goroutines back, want about 1000", holds)
	}
}

// TestRandomGoOnAgreesWithChoose: asking GoOn first, then Choose only when
// it says switch (the scheduler's fast path), makes the choices Choose
// alone makes, schedule after schedule.
func TestRandomGoOnAgreesWithChoose(t *testing.T) {
	alone, fast := NewRandom(7), NewRandom(7)
	opts := []Option{{G: 1}, {G: 2}, {G: 3}, {G: 4}}
	for s := 0; s < 200; s++ {
		alone.Begin()
		fast.Begin()
		cur := int32(1)
		for i := 0; i < 300; i++ {
			p := &Point{Kind: Thread, Index: i, Current: cur, Options: opts}
			want := alone.Choose(p)
			got := int(cur) - 1
			if !fast.GoOn(cur) {
				got = fast.Choose(&Point{Kind: Thread, Index: i, Current: cur, Options: opts})
			}
			if got != want {
				t.Fatalf("schedule %d, point %d: %d with GoOn, %d without", s+1, i, got, want)
			}
			cur = opts[want].G
		}
	}
}
