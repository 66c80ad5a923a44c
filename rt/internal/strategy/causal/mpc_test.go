package causal

import (
	"testing"

	"interleave.dev/rt/wire"
)

// TestMPCCallResults: a caller gets the term its own callee returned, or
// none: marks are claimed by the callee entered right after them, nested
// calls answer their own marks, a call that was not marked (an inner
// recursive call, a call through a func value) claims nothing, and a
// callee that leaves no record leaves a concrete value.
func TestMPCCallResults(t *testing.T) {
	p := NewMPC(nil, []wire.MPCInput{{Min: 0, Max: 9}}, 0)
	if !p.Begin() {
		t.Fatal("no first run")
	}
	in := func(k int64) wire.MPCTerm { return wire.MPCTerm{Op: wire.TermInput, V: k} }
	const g = 1
	take := func(site uint32) (int64, bool, bool) {
		tm, v, ok, found := p.TakeResult(g, site)
		if ok {
			return tm.V, ok, found
		}
		return v, ok, found
	}

	// f(g()): the caller marks f, the argument's call marks g.
	mf := p.Mark(g, "f")
	mg := p.Mark(g, "g")
	if p.Claim(g, "f") != 0 {
		t.Errorf("f claimed g's mark")
	}
	if got := p.Claim(g, "g"); got != mg {
		t.Errorf("g claimed %d, want %d", got, mg)
	}
	if p.Claim(g, "g") != 0 {
		t.Errorf("an unmarked call of g (recursion) claimed a mark")
	}
	p.Return(mg, in(0), true)
	p.Result(g, mg, 10, 3)
	if v, ok, found := take(10); !found || !ok || v != 0 {
		t.Errorf("g's result: %d %v %v, want its term, input 0", v, ok, found)
	}
	if _, _, found := take(10); found {
		t.Errorf("a result taken twice")
	}
	if got := p.Claim(g, "f"); got != mf {
		t.Errorf("f claimed %d, want %d", got, mf)
	}
	p.Return(mf, in(5), true)
	p.Result(g, mf, 11, 4)
	if v, ok, _ := take(11); !ok || v != 5 {
		t.Errorf("f's result: %d %v, want its term, input 5", v, ok)
	}

	// A callee that returns without a record (it recovered from a panic)
	// gives the caller its value, not an earlier call's term.
	m1 := p.Mark(g, "h")
	p.Return(p.Claim(g, "h"), in(0), true)
	p.Result(g, m1, 12, 1)
	m2 := p.Mark(g, "h")
	p.Claim(g, "h")
	p.Result(g, m2, 12, 7)
	if v, ok, found := take(12); !found || ok || v != 7 {
		t.Errorf("an unrecorded result: %d %v %v, want the concrete 7", v, ok, found)
	}

	// A mark whose callee never came (a panic while the arguments were
	// evaluated) is popped by an outer call's result.
	outer := p.Mark(g, "k")
	p.Mark(g, "lost")
	p.Result(g, outer, 13, 0)
	if n := len(p.marks[g]); n != 0 {
		t.Errorf("%d marks left", n)
	}

	// Recursion: the goroutine's locals and results are concrete from
	// then on.
	p.SetLocal(g, 20, in(0), true)
	m3 := p.Mark(g, "f")
	p.Return(p.Claim(g, "f"), in(0), true)
	p.Result(g, m3, 14, 2)
	p.Reentered(g)
	if _, ok := p.Local(g, 20); ok {
		t.Errorf("a local kept its term past a recursive call")
	}
	if _, ok, found := take(14); ok || !found {
		t.Errorf("a result kept its term past a recursive call")
	}
	if p.Complete() {
		t.Errorf("complete after recursion")
	}
}

// TestMPCStringInputs: a string input's bytes are inputs made when first
// read, whose run value is the seed's byte (0 past its end), and the
// run's string is as long as its length input says, with its byte
// inputs' values and the seed's elsewhere.
func TestMPCStringInputs(t *testing.T) {
	p := NewMPC(nil, []wire.MPCInput{{Min: -5, Max: 5, Value: 1}, {Min: 0, Max: 6, Value: 3}}, 0)
	p.StringInput(1, []byte("abc"), 6)
	if !p.Begin() {
		t.Fatal("no first run")
	}
	if got := string(p.Bytes(1)); got != "abc" {
		t.Errorf("first run's string %q", got)
	}
	b4, ok := p.ByteInput(1, 4)
	b1, _ := p.ByteInput(1, 1)
	if again, _ := p.ByteInput(1, 4); !ok || again != b4 || b4 < 2 || b1 == b4 {
		t.Errorf("byte inputs %d, %d, %d", b4, again, b1)
	}
	if _, ok := p.ByteInput(1, 6); ok {
		t.Errorf("a byte input past the longest string")
	}
	if _, ok := p.ByteInput(0, 0); ok {
		t.Errorf("a byte input of an integer")
	}
	if p.input[b4] != 0 || p.input[b1] != 'b' {
		t.Errorf("run values of the byte inputs %d, %d", p.input[b4], p.input[b1])
	}
	p.input[1], p.input[b4], p.input[b1] = 5, 'z', 'y'
	if got := string(p.Bytes(1)); got != "ayc\x00z" {
		t.Errorf("string %q, want \"ayc\\x00z\"", got)
	}
}
