package regress

import (
	"testing"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
)

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b []string
		want int
	}{
		{nil, nil, 0},
		{[]string{"f"}, nil, 1},
		{nil, []string{"f", "g"}, 2},
		{[]string{"Inc", "Test.func1"}, []string{"Inc", "Test.func1"}, 0},
		// A helper extracted: one frame inserted.
		{[]string{"Withdraw", "Test.func1"}, []string{"debit", "Withdraw", "Test.func1"}, 1},
		// A function renamed: one frame replaced.
		{[]string{"load", "Config", "Test"}, []string{"loadLocked", "Config", "Test"}, 1},
		// kitten -> sitting, the textbook case, by frames.
		{[]string{"k", "i", "t", "t", "e", "n"}, []string{"s", "i", "t", "t", "i", "n", "g"}, 3},
		{[]string{"a", "b", "c"}, []string{"c", "b", "a"}, 2},
	} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := EditDistance(c.b, c.a); got != c.want {
			t.Errorf("EditDistance(%v, %v) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestShortFuncName(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/a/buggy.(*Counter).Inc":    "(*Counter).Inc",
		"example.com/a/partial.TestX.func1.2":   "TestX.func1.2",
		"main.main":                             "main",
		"interleave.dev/kernels/x/fixed.Start":  "Start",
		"example.com/a/b.Generic[...].Method":   "Generic[...].Method",
		"noDotAtAll":                            "noDotAtAll",
		"example.com/v2/pkg.(*T).m.deferwrap1":  "(*T).m.deferwrap1",
		"interleave.dev/rt/internal/sched.step": "step",
	} {
		if got := strategy.ShortFuncName(in); got != want {
			t.Errorf("ShortFuncName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSimilarity(t *testing.T) {
	sig := SigEvent{Op: event.OpWrite, Line: 25, Col: 2, Func: "(*Account).Withdraw", FuncLine: 16,
		Stack: []string{"(*Account).Withdraw", "TestWithdraw.func1.1"}}
	same := &strategy.Context{Func: "(*Account).Withdraw", FuncLine: 16, Stack: sig.Stack}
	moved := &strategy.Context{Func: "(*Account).Withdraw", FuncLine: 40, Stack: sig.Stack} // the function moved down
	helper := &strategy.Context{Func: "(*Account).debit", FuncLine: 22, Stack: []string{"(*Account).debit", "(*Account).Withdraw", "TestWithdraw.func1.1"}}
	for _, c := range []struct {
		name  string
		op    event.Op
		pos   Pos
		ctx   *strategy.Context
		w, d  int
		match bool
	}{
		{"exact", event.OpWrite, Pos{25, 2}, same, 0, 0, true},
		{"other column", event.OpWrite, Pos{25, 9}, same, 1, 0, true},
		{"function moved, same place in it", event.OpWrite, Pos{49, 2}, moved, 0, 0, true},
		{"three lines further in the function", event.OpWrite, Pos{52, 2}, moved, 3, 0, true},
		{"in an extracted helper", event.OpWrite, Pos{25, 2}, helper, WindowAny, 1, true},
		{"another operation", event.OpRead, Pos{25, 2}, same, 0, 0, false},
	} {
		w, d, ok := sig.Need(c.op, c.pos, c.ctx)
		if ok != c.match || (ok && (w != c.w || d != c.d)) {
			t.Errorf("%s: Need = %d, %d, %v; want %d, %d, %v", c.name, w, d, ok, c.w, c.d, c.match)
		}
	}
	// Levels: exact matches only the exact event; w=3 the shifted one;
	// only w=any with d>=1 the helper.
	if !sig.Similar(event.OpWrite, Pos{25, 2}, same, Level{0, 0}) || sig.Similar(event.OpWrite, Pos{52, 2}, moved, Level{1, 0}) ||
		!sig.Similar(event.OpWrite, Pos{52, 2}, moved, Level{3, 0}) || sig.Similar(event.OpWrite, Pos{25, 2}, helper, Level{10, 3}) ||
		sig.Similar(event.OpWrite, Pos{25, 2}, helper, Level{WindowAny, 0}) || !sig.Similar(event.OpWrite, Pos{25, 2}, helper, Level{WindowAny, 1}) {
		t.Error("Similar disagrees with the levels")
	}
}

func TestLadder(t *testing.T) {
	if Ladder[0] != (Level{0, 0}) {
		t.Errorf("ladder starts at %v, want exact", Ladder[0])
	}
	if last := Ladder[len(Ladder)-1]; last != (Level{WindowAny, 3}) {
		t.Errorf("ladder ends at %v, want w=any, d=3", last)
	}
	seen := map[Level]bool{}
	for i, l := range Ladder {
		if seen[l] {
			t.Errorf("level %v twice", l)
		}
		seen[l] = true
		// Never looser in both w and d than a later level: the ladder
		// goes from exact to loose.
		for _, m := range Ladder[i+1:] {
			if m.covers(l.W, l.D) == false && l.covers(m.W, m.D) {
				t.Errorf("%v comes before %v but covers it", l, m)
			}
		}
	}
	if len(Ladder) != 20 {
		t.Errorf("%d levels, want 5 windows x 4 distances", len(Ladder))
	}
}

func TestConsistent(t *testing.T) {
	bind := make([]int32, 4)
	if !consistent(bind, 1, 7) {
		t.Error("unbound label refused a fresh id")
	}
	bind[1] = 7
	if !consistent(bind, 1, 7) || consistent(bind, 1, 8) {
		t.Error("bound label")
	}
	if consistent(bind, 2, 7) {
		t.Error("two labels bound to one id: different signature goroutines (objects) must differ")
	}
	if consistent(bind, 2, 0) {
		t.Error("id 0 (no object) accepted")
	}
}

// steer builds a regression strategy whose pending contexts are set by
// hand (Pending takes the caller's real stack).
func steer(sig []SigEvent) *Regression {
	return NewRegression(1, sig, func(uint32) Pos { return Pos{} })
}

func pend(r *Regression, ev event.Event, line int, ctx *strategy.Context) {
	r.pend[ev.G] = &pendingCtx{ev: ev, pos: Pos{Line: line}, ctx: ctx}
}

// The strategy holds back a goroutine whose pending event matches a later
// signature event, and pauses a goroutine that matched an event until the
// events of the others before its next one have happened.
func TestRegressionSteers(t *testing.T) {
	ctx := &strategy.Context{Func: "f", FuncLine: 1, Stack: []string{"f"}}
	sig := []SigEvent{
		{Op: event.OpRead, Line: 2, Func: "f", FuncLine: 1, Stack: []string{"f"}, Object: 1, Goroutine: 1},
		{Op: event.OpWrite, Line: 3, Func: "f", FuncLine: 1, Stack: []string{"f"}, Object: 1, Goroutine: 2},
		{Op: event.OpWrite, Line: 3, Func: "f", FuncLine: 1, Stack: []string{"f"}, Object: 1, Goroutine: 1},
	}
	r := steer(sig)
	r.Begin()
	for i := range r.need {
		r.need[i] = 0 // every event seen at the exact level
	}
	read2 := event.Event{G: 2, Op: event.OpRead, Obj: 9, Site: 1}
	write3 := event.Event{G: 3, Op: event.OpWrite, Obj: 9, Site: 2}
	pend(r, read2, 2, ctx)
	pend(r, write3, 3, ctx)
	p := &strategy.Point{Kind: strategy.Thread, Options: []strategy.Option{{G: 2, Ev: read2}, {G: 3, Ev: write3}}}
	for i := 0; i < 20; i++ {
		if c := r.Choose(p); c != 0 {
			t.Fatalf("chose goroutine 3's write before the signature's first read")
		}
	}
	r.Executed(read2, 0)
	if r.next != 1 {
		t.Fatalf("read not matched: next = %d", r.next)
	}
	// Goroutine 2 matched e1; its next event is e3, after goroutine 3's
	// e2: it is paused, whatever it is about to do.
	lock2 := event.Event{G: 2, Op: event.OpUnlock, Obj: 4, Site: 3}
	p = &strategy.Point{Kind: strategy.Thread, Options: []strategy.Option{{G: 2, Ev: lock2}, {G: 3, Ev: write3}}}
	for i := 0; i < 20; i++ {
		if c := r.Choose(p); c != 1 {
			t.Fatalf("goroutine 2 was not paused")
		}
	}
	r.Executed(write3, 1)
	if r.next != 2 || r.gBind[2] != 3 || r.oBind[1] != 9 {
		t.Fatalf("after the write: next %d, bindings %v %v", r.next, r.gBind, r.oBind)
	}
	// A write of another object by goroutine 2 does not match e3.
	other := event.Event{G: 2, Op: event.OpWrite, Obj: 10, Site: 2}
	pend(r, other, 3, ctx)
	r.Executed(other, 2)
	if r.next != 2 {
		t.Fatal("matched an event on another object")
	}
	// Nor does goroutine 3's: e3 is goroutine 2's.
	w3 := event.Event{G: 3, Op: event.OpWrite, Obj: 9, Site: 2}
	pend(r, w3, 3, ctx)
	r.Executed(w3, 3)
	if r.next != 2 {
		t.Fatal("matched an event of another goroutine")
	}
	w2 := event.Event{G: 2, Op: event.OpWrite, Obj: 9, Site: 2}
	pend(r, w2, 3, ctx)
	r.Executed(w2, 4)
	if r.next != 3 {
		t.Fatal("the last event did not match")
	}
	r.End(strategy.Outcome{})
	if l, m, steered := r.Last(); m != 3 || l != (Level{0, 0}) || !steered {
		t.Errorf("Last = %v, %d", l, m)
	}
}

// Iterations that do not expose the bug loosen the similarity, from exact
// on: the search never stays at one level.
func TestRegressionLoosens(t *testing.T) {
	r := steer([]SigEvent{{Op: event.OpRead, Goroutine: 1}, {Op: event.OpWrite, Goroutine: 2}})
	levels := map[Level]bool{}
	for i := 0; i < 4*len(Ladder); i++ {
		r.Begin()
		r.End(strategy.Outcome{})
		l, _, _ := r.Last()
		levels[l] = true
	}
	if len(levels) != len(Ladder) {
		t.Errorf("tried %d levels of %d", len(levels), len(Ladder))
	}
	if r.Loosest() != (Level{WindowAny, 3}) {
		t.Errorf("loosest %v", r.Loosest())
	}
}

// A lock whose critical section held an event similar to a later
// signature event is postponed like that event, in later iterations too;
// so is the start of a goroutine whose first operation took it.
func TestRegressionLearnsCriticalSections(t *testing.T) {
	ctx := &strategy.Context{Func: "f", FuncLine: 1, Stack: []string{"f"}}
	sig := []SigEvent{
		{Op: event.OpRead, Line: 2, Func: "f", FuncLine: 1, Stack: []string{"f"}, Object: 1, Goroutine: 1},
		{Op: event.OpWrite, Line: 3, Func: "f", FuncLine: 1, Stack: []string{"f"}, Object: 1, Goroutine: 2},
	}
	r := steer(sig)
	r.Begin()
	for i := range r.need {
		r.need[i] = 0
	}
	// Goroutine 3, started by the go statement at site 99, takes the lock
	// at key 42 and writes inside.
	r.Executed(event.Event{G: 1, Op: event.OpSpawn, Site: 99}, 0)
	r.Executed(event.Event{G: 2, Op: event.OpSpawn, Site: 98}, 1)
	r.Executed(event.Event{G: 3, Op: event.OpStart}, 2)
	lock := event.Event{G: 3, Op: event.OpLock, Obj: 5, Site: 7}
	r.pend[3] = &pendingCtx{ev: lock, ctx: ctx, key: 42}
	r.first[r.spawnSite[3]] = r.pend[3]
	r.Executed(lock, 3)
	write := event.Event{G: 3, Op: event.OpWrite, Obj: 9, Site: 8}
	pend(r, write, 3, ctx)
	r.Executed(write, 4)
	if r.inside[42] != 1<<1 {
		t.Fatalf("inside[42] = %b, want the write's event", r.inside[42])
	}
	r.End(strategy.Outcome{})

	r.Begin()
	for i := range r.need {
		r.need[i] = 0
	}
	r.Executed(event.Event{G: 1, Op: event.OpSpawn, Site: 99}, 0)
	r.Executed(event.Event{G: 2, Op: event.OpSpawn, Site: 98}, 1)
	other := event.Event{G: 2, Op: event.OpLock, Obj: 6, Site: 1}
	r.pend[2] = &pendingCtx{ev: other, ctx: ctx, key: 7}
	// Goroutine 3 about to start: its first operation is the lock.
	p := &strategy.Point{Kind: strategy.Thread, Options: []strategy.Option{{G: 2, Ev: other}, {G: 3, Ev: event.Event{G: 3, Op: event.OpStart}}}}
	for i := 0; i < 20; i++ {
		if r.Choose(p) != 0 {
			t.Fatal("started goroutine 3, whose first lock leads to the second signature event, before the first")
		}
	}
	lock.Obj = 5
	r.pend[3] = &pendingCtx{ev: lock, ctx: ctx, key: 42}
	p = &strategy.Point{Kind: strategy.Thread, Options: []strategy.Option{{G: 2, Ev: other}, {G: 3, Ev: lock}}}
	for i := 0; i < 20; i++ {
		if r.Choose(p) != 0 {
			t.Fatal("goroutine 3 took the lock before the first signature event")
		}
	}
}
