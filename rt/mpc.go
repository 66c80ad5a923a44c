package rt

import (
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/wire"
)

// The calls below are how an instrumented fuzz body, and the code of the
// module under test, tell strategy mpc (maximal path causality) the
// symbolic values of branch conditions and of what they write: concolic
// execution, the symbolic half of each run. Under any other strategy
// each returns at once (Branch returns its condition); the check is
// inlined, and the value leaves travel in a []int64 the caller keeps on
// its stack, so that a rewritten condition costs well under a
// nanosecond outside mpc. The instrumenter writes the symbolic values as
// terms in prefix form:
//
//	term := INT | "i" K | "m" J ":" TY | "a" J ":" TY | "l" J | "v" J
//	      | "(" OP " " term {" " term} ")"
//	TY   := "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "b"
//	OP   := "+" | "-" | "*" | "neg" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "!"
//
// INT is a constant (a boolean is 1 or 0); "i" K is the fuzz body's input
// K (0: the first argument after the *testing.T); "m" J is the value of
// type TY at ptrs[J], a pointer to shared memory the goroutine has just
// read (rt.Read); "a" J the value of type TY of the variable ptrs[J]
// points to, which goroutines share but no goroutine writes after
// setting it (SymSetAt); "l" J is the local variable whose number (the
// Site of its declaration) is vals[J] and whose value is vals[J+1]
// (SymSet); "v" J is the concrete value vals[J], which is not tracked.
// A value the symbolic state does not know is taken as it is.

// mpcRun is strategy mpc while an exploration runs it, else nil.
var mpcRun atomic.Pointer[strategy.MPC]

// symbolic returns the running goroutine and strategy mpc, when both are.
func symbolic() (*sched.G, *strategy.MPC) {
	m := mpcRun.Load()
	if m == nil {
		return nil, nil
	}
	g := cur()
	if g == nil {
		return nil, nil
	}
	return g, m
}

// B is a boolean value leaf: 1 or 0.
func B(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Branch reports a branch condition and returns cond: the instrumenter
// rewrites the condition c of an if or for statement into
// rt.Branch(c, site, sym, vals, ptrs...) when c is made of integer and
// boolean operations on inputs, values read from memory, local variables
// and constants; sym is c as a term. It also checks a divisor that
// depends on them, as the condition that it is not 0.
func Branch(cond bool, s Site, sym string, vals []int64, ptrs ...any) bool {
	if mpcRun.Load() != nil { // inlined: nothing more outside mpc
		branch(cond, s, sym, vals, ptrs)
	}
	return cond
}

func branch(cond bool, s Site, sym string, vals []int64, ptrs []any) {
	if g, m := symbolic(); m != nil {
		if t, ok := parseTerms(sym, vals, ptrs, g, m); ok && len(t) == 1 {
			m.Branch(g.ID, uint32(s), t[0], cond)
		}
	}
}

// Untracked reports a condition or divisor, at s, that depends on what
// the instrumentation tracks in a way it cannot express (a call's result,
// a string): mpc's search does not claim every path after it.
func Untracked(s Site) {
	if mpcRun.Load() != nil {
		if _, m := symbolic(); m != nil {
			m.Untracked(uint32(s))
		}
	}
}

// SymWrite reports the symbolic value, sym, of the write to *addr that
// the statement before it made (x = e, x += e, x++, x shared memory).
func SymWrite(addr any, s Site, sym string, vals []int64, ptrs ...any) {
	if mpcRun.Load() != nil {
		symWrite(addr, sym, vals, ptrs)
	}
}

func symWrite(addr any, sym string, vals []int64, ptrs []any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	t, ok := parseTerms(sym, vals, ptrs, g, m)
	if !ok || len(t) != 1 {
		return
	}
	p := dataPtr(addr)
	off, size := uintptr(p)&7, accessSize(addr)
	if size == 0 || off+size > 8 {
		return
	}
	m.SymWrite(g.ID, g.WordID(p), uint8(off), uint8(size), t[0])
}

// SymSet reports the value, sym, that the statement around it gave the
// local variable numbered id, the Site of its declaration ("" for a value
// that is not tracked).
func SymSet(id Site, sym string, vals []int64, ptrs ...any) {
	if mpcRun.Load() != nil {
		symSet(id, sym, vals, ptrs)
	}
}

func symSet(id Site, sym string, vals []int64, ptrs []any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	if sym == "" {
		m.SetLocal(g.ID, uint32(id), wire.MPCTerm{}, false)
		return
	}
	t, ok := parseWellFormed(sym, vals, ptrs, g, m)
	m.SetLocal(g.ID, uint32(id), first(t), ok && len(t) == 1)
}

// SymSetAt is SymSet for a variable that function literals share, named
// by its address.
func SymSetAt(addr any, sym string, vals []int64, ptrs ...any) {
	if mpcRun.Load() != nil {
		symSetAt(addr, sym, vals, ptrs)
	}
}

func symSetAt(addr any, sym string, vals []int64, ptrs []any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	a := uintptr(dataPtr(addr))
	if sym == "" {
		m.SetAt(a, wire.MPCTerm{}, false)
		return
	}
	t, ok := parseWellFormed(sym, vals, ptrs, g, m)
	m.SetAt(a, first(t), ok && len(t) == 1)
}

// SymCall returns first, the first argument of a call of the function
// named fn (types.Func.FullName: "p.F", "(*p.T).M"), after recording the
// symbolic values of the call's arguments, syms: one term per argument,
// or "_" for one that is not tracked. The instrumenter wraps the first
// argument of calls whose arguments make no calls, so that nothing runs
// between it and the callee's SymEnter.
func SymCall[T any](first T, fn string, syms string, vals []int64, ptrs ...any) T {
	if mpcRun.Load() != nil {
		symCall(fn, syms, vals, ptrs)
	}
	return first
}

func symCall(fn string, syms string, vals []int64, ptrs []any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	args, sym := parseArgs(syms, vals, ptrs, g, m)
	m.Call(g.ID, fn, args, sym)
}

// SymEnter binds, at the entry of the function named fn, its parameters
// to the symbolic values its caller recorded (SymCall), or to none: each
// of params is a local variable's number (a Site), or, for a parameter
// that function literals share, its address, or nil for one that is not
// tracked.
func SymEnter(fn string, params ...any) {
	if mpcRun.Load() != nil {
		symEnter(fn, params)
	}
}

func symEnter(fn string, params []any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	args, sym, ok := m.Enter(g.ID, fn)
	for i, p := range params {
		t, s := wire.MPCTerm{}, false
		if ok && i < len(args) {
			t, s = args[i], sym[i]
		}
		switch v := p.(type) {
		case nil: // a parameter that is not tracked
		case Site:
			m.SetLocal(g.ID, uint32(v), t, s)
		default:
			m.SetAt(uintptr(dataPtr(p)), t, s)
		}
	}
}

func first(ts []wire.MPCTerm) wire.MPCTerm {
	if len(ts) == 0 {
		return wire.MPCTerm{}
	}
	return ts[0]
}

// parseArgs parses the terms of SymCall, "_" for an untracked one; sym
// says which are known.
func parseArgs(syms string, vals []int64, ptrs []any, g *sched.G, m *strategy.MPC) ([]wire.MPCTerm, []bool) {
	p := newParser(syms, vals, ptrs, g, m)
	var args []wire.MPCTerm
	var sym []bool
	for p.i < len(p.toks) {
		if p.toks[p.i] == "_" {
			p.i++
			args, sym = append(args, wire.MPCTerm{}), append(sym, false)
			continue
		}
		t, ok := p.term()
		if !ok {
			return nil, nil
		}
		args, sym = append(args, t), append(sym, true) // a constant is a known value too
	}
	return args, sym
}

// parseTerms parses the terms of sym, resolving leaves; ok is false when
// sym is malformed or no term depends on an input or a read.
func parseTerms(sym string, vals []int64, ptrs []any, g *sched.G, m *strategy.MPC) (ts []wire.MPCTerm, ok bool) {
	ts, ok = parseWellFormed(sym, vals, ptrs, g, m)
	if !ok {
		return nil, false
	}
	for _, t := range ts {
		if isSymbolic(t) {
			return ts, true
		}
	}
	return nil, false
}

// parseWellFormed parses the terms of sym, resolving leaves, symbolic or
// not (a local given a constant has a known value); ok is false when sym
// is malformed.
func parseWellFormed(sym string, vals []int64, ptrs []any, g *sched.G, m *strategy.MPC) (ts []wire.MPCTerm, ok bool) {
	p := newParser(sym, vals, ptrs, g, m)
	for p.i < len(p.toks) {
		t, ok := p.term()
		if !ok {
			return nil, false
		}
		ts = append(ts, t)
	}
	return ts, true
}

// isSymbolic reports whether t depends on an input or a read.
func isSymbolic(t wire.MPCTerm) bool {
	if t.Op == wire.TermInput || t.Op == wire.TermRead {
		return true
	}
	for _, a := range t.Args {
		if isSymbolic(a) {
			return true
		}
	}
	return false
}

func tokenize(s string) []string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "(", " ( "), ")", " ) ")
	return strings.Fields(s)
}

// termParser reads terms from tokens.
type termParser struct {
	toks []string
	i    int
	vals [maxVals]int64 // a copy, so that the caller's slice stays on its stack
	nval int
	ptrs []any
	g    *sched.G
	m    *strategy.MPC
}

// maxVals bounds the value leaves of a term (the instrumenter passes no
// more).
const maxVals = 16

func newParser(sym string, vals []int64, ptrs []any, g *sched.G, m *strategy.MPC) termParser {
	p := termParser{toks: tokenize(sym), ptrs: ptrs, g: g, m: m}
	if len(vals) > maxVals {
		p.toks = []string{"("} // malformed: no term
	}
	p.nval = copy(p.vals[:], vals)
	return p
}

// arity gives each operation's number of arguments (-1: two or more).
var arity = map[string]int{
	"+": -1, "-": -1, "*": -1, "&&": -1, "||": -1,
	"neg": 1, "!": 1,
	"==": 2, "!=": 2, "<": 2, "<=": 2, ">": 2, ">=": 2,
}

func (p *termParser) term() (wire.MPCTerm, bool) {
	if p.i >= len(p.toks) {
		return wire.MPCTerm{}, false
	}
	tok := p.toks[p.i]
	p.i++
	if tok == "(" {
		if p.i >= len(p.toks) {
			return wire.MPCTerm{}, false
		}
		op := p.toks[p.i]
		p.i++
		n, known := arity[op]
		if !known {
			return wire.MPCTerm{}, false
		}
		t := wire.MPCTerm{Op: op}
		for p.i < len(p.toks) && p.toks[p.i] != ")" {
			a, ok := p.term()
			if !ok {
				return wire.MPCTerm{}, false
			}
			t.Args = append(t.Args, a)
		}
		if p.i >= len(p.toks) || n >= 0 && len(t.Args) != n || n < 0 && len(t.Args) < 2 {
			return wire.MPCTerm{}, false
		}
		p.i++ // ")"
		return t, true
	}
	return p.leaf(tok)
}

// leaf resolves a leaf token.
func (p *termParser) leaf(tok string) (wire.MPCTerm, bool) {
	if v, err := strconv.ParseInt(tok, 10, 64); err == nil {
		return wire.MPCTerm{Op: wire.TermConst, V: v}, true
	}
	kind, rest := tok[0], tok[1:]
	num, typ, _ := strings.Cut(rest, ":")
	switch kind {
	case 'i':
		k, err := strconv.Atoi(num)
		if err != nil || k < 0 {
			return wire.MPCTerm{}, false
		}
		return wire.MPCTerm{Op: wire.TermInput, V: int64(k)}, true
	case 'v':
		x, ok := p.value(num)
		if ok {
			p.m.Concrete()
		}
		return x, ok
	case 'l':
		j, err := strconv.Atoi(num)
		if err != nil || j < 0 || j+1 >= p.nval {
			return wire.MPCTerm{}, false
		}
		if t, ok := p.m.Local(p.g.ID, uint32(p.vals[j])); ok {
			return t, true
		}
		p.m.Concrete()
		return wire.MPCTerm{Op: wire.TermConst, V: p.vals[j+1]}, true
	case 'm', 'a':
		j, err := strconv.Atoi(num)
		if err != nil || j < 0 || j >= len(p.ptrs) {
			return wire.MPCTerm{}, false
		}
		size, signed, ok := typeOf(typ)
		if !ok {
			return wire.MPCTerm{}, false
		}
		addr := dataPtr(p.ptrs[j])
		if addr == nil {
			return wire.MPCTerm{}, false
		}
		if kind == 'a' {
			if t, ok := p.m.At(uintptr(addr)); ok {
				return t, true
			}
		} else if off := uintptr(addr) & 7; off+uintptr(size) <= 8 {
			if ev, acc, ok := p.m.LastRead(p.g.ID, p.g.WordID(addr)); ok {
				return wire.MPCTerm{Op: wire.TermRead, Read: &wire.MPCRead{
					Event: ev, Acc: acc, Off: uint8(off), Size: size, Signed: signed,
				}}, true
			}
		}
		return wire.MPCTerm{Op: wire.TermConst, V: load(addr, size, signed)}, true
	}
	return wire.MPCTerm{}, false
}

// value is the constant vals[num].
func (p *termParser) value(num string) (wire.MPCTerm, bool) {
	j, err := strconv.Atoi(num)
	if err != nil || j < 0 || j >= p.nval {
		return wire.MPCTerm{}, false
	}
	return wire.MPCTerm{Op: wire.TermConst, V: p.vals[j]}, true
}

// typeOf decodes a TY of the term grammar.
func typeOf(ty string) (size uint8, signed, ok bool) {
	switch ty {
	case "b":
		return 1, false, true
	case "i8", "i16", "i32", "i64":
		n, _ := strconv.Atoi(ty[1:])
		return uint8(n / 8), true, true
	case "u8", "u16", "u32", "u64":
		n, _ := strconv.Atoi(ty[1:])
		return uint8(n / 8), false, true
	}
	return 0, false, false
}

// load reads an integer of size bytes at addr.
func load(addr unsafe.Pointer, size uint8, signed bool) int64 {
	switch {
	case size == 1 && signed:
		return int64(*(*int8)(addr))
	case size == 1:
		return int64(*(*uint8)(addr))
	case size == 2 && signed:
		return int64(*(*int16)(addr))
	case size == 2:
		return int64(*(*uint16)(addr))
	case size == 4 && signed:
		return int64(*(*int32)(addr))
	case size == 4:
		return int64(*(*uint32)(addr))
	}
	return *(*int64)(addr)
}
