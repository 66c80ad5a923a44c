package rt

import (
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/wire"
)

// The calls below are how an instrumented fuzz body tells strategy mpc
// (maximal path causality) the symbolic values of its branch conditions
// and of what it writes: concolic execution, the symbolic half of each
// run. Under any other strategy each returns at once (Branch returns its
// condition). The instrumenter writes the symbolic values as terms in
// prefix form:
//
//	term := INT | "i" K | "m" J ":" TY | "a" J ":" TY | "l" J | "v" J
//	      | "(" OP " " term {" " term} ")"
//	TY   := "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "b"
//	OP   := "+" | "-" | "*" | "neg" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "!"
//
// INT is a constant (a boolean is 1 or 0); "i" K is the fuzz body's input
// K (0: the first argument after the *testing.T); "m" J is the value of
// type TY at leaves[J], a pointer to shared memory the goroutine has just
// read (rt.Read); "a" J the value of type TY of the variable leaves[J]
// points to, which goroutines share but no goroutine writes after
// setting it (SymSetAt); "l" J is the local variable whose number (the
// Site of its declaration) is leaves[J] and whose value is leaves[J+1]
// (SymSet); "v" J is the concrete value leaves[J], which is not tracked.
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

// Branch reports a branch condition of a fuzz body and returns cond: the
// instrumenter rewrites the condition c of an if or for statement in a
// fuzz body into rt.Branch(c, site, sym, leaves...) when c is made of
// integer and boolean operations on inputs, values read from memory,
// local variables and constants; sym is c as a term.
func Branch(cond bool, s Site, sym string, leaves ...any) bool {
	if mpcRun.Load() != nil { // inlined: nothing more outside mpc
		branch(cond, s, sym, leaves)
	}
	return cond
}

func branch(cond bool, s Site, sym string, leaves []any) {
	if g, m := symbolic(); m != nil {
		if t, ok := parseTerms(sym, leaves, g, m); ok && len(t) == 1 {
			m.Branch(g.ID, uint32(s), t[0], cond)
		}
	}
}

// SymWrite reports the symbolic value, sym, of the write to *addr that
// the statement before it made (x = e, x += e, x++ in a fuzz body, x
// shared memory).
func SymWrite(addr any, s Site, sym string, leaves ...any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	t, ok := parseTerms(sym, leaves, g, m)
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

// SymSet reports the value, sym, that the statement before it gave the
// local variable numbered id, the Site of its declaration ("" for a value
// that is not tracked).
func SymSet(id Site, sym string, leaves ...any) {
	if mpcRun.Load() != nil {
		symSet(id, sym, leaves)
	}
}

func symSet(id Site, sym string, leaves []any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	if sym == "" {
		m.SetLocal(g.ID, uint32(id), wire.MPCTerm{}, false)
		return
	}
	t, ok := parseTerms(sym, leaves, g, m)
	m.SetLocal(g.ID, uint32(id), first(t), ok && len(t) == 1)
}

// SymSetAt is SymSet for a variable that function literals share, named
// by its address.
func SymSetAt(addr any, sym string, leaves ...any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	a := uintptr(dataPtr(addr))
	if sym == "" {
		m.SetAt(a, wire.MPCTerm{}, false)
		return
	}
	t, ok := parseTerms(sym, leaves, g, m)
	m.SetAt(a, first(t), ok && len(t) == 1)
}

// SymCall returns first, the first argument of a call of the function
// named fn (its package path and name, with the receiver type for a
// method: "p.F", "p.(*T).M"), after recording the symbolic values of the
// call's arguments, syms: one term per argument, or "_" for one that is
// not tracked. The instrumenter wraps the first argument of calls whose
// arguments make no calls, so that nothing runs between it and the
// callee's SymEnter.
func SymCall[T any](first T, fn string, syms string, leaves ...any) T {
	g, m := symbolic()
	if m == nil {
		return first
	}
	args, sym := parseArgs(syms, leaves, g, m)
	m.Call(g.ID, fn, args, sym)
	return first
}

// SymEnter binds, at the entry of the function named fn, its parameters
// to the symbolic values its caller recorded (SymCall), or to none: each
// of params is a local variable's number (a Site), or, for a parameter
// that function literals share, its address, or nil for one that is not
// tracked.
func SymEnter(fn string, params ...any) {
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
		case uint32:
			m.SetLocal(g.ID, v, t, s)
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

// parseArgs parses the terms of SymCall, "_" for an untracked one.
func parseArgs(syms string, leaves []any, g *sched.G, m *strategy.MPC) ([]wire.MPCTerm, []bool) {
	p := termParser{toks: tokenize(syms), leaves: leaves, g: g, m: m}
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
		args, sym = append(args, t), append(sym, isSymbolic(t))
	}
	return args, sym
}

// parseTerms parses the terms of sym, resolving leaves; ok is false when
// sym is malformed or no term depends on an input or a read.
func parseTerms(sym string, leaves []any, g *sched.G, m *strategy.MPC) (ts []wire.MPCTerm, ok bool) {
	p := termParser{toks: tokenize(sym), leaves: leaves, g: g, m: m}
	for p.i < len(p.toks) {
		t, ok := p.term()
		if !ok {
			return nil, false
		}
		ts = append(ts, t)
	}
	for _, t := range ts {
		if isSymbolic(t) {
			return ts, true
		}
	}
	return nil, false
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
	toks   []string
	i      int
	leaves []any
	g      *sched.G
	m      *strategy.MPC
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
		if err != nil || j < 0 || j+1 >= len(p.leaves) {
			return wire.MPCTerm{}, false
		}
		id, ok := p.leaves[j].(Site)
		if !ok {
			return wire.MPCTerm{}, false
		}
		if t, ok := p.m.Local(p.g.ID, uint32(id)); ok {
			return t, true
		}
		return p.value(strconv.Itoa(j + 1)) // the local's value
	case 'm', 'a':
		j, err := strconv.Atoi(num)
		if err != nil || j < 0 || j >= len(p.leaves) {
			return wire.MPCTerm{}, false
		}
		size, signed, ok := typeOf(typ)
		if !ok {
			return wire.MPCTerm{}, false
		}
		addr := dataPtr(p.leaves[j])
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

// value is the constant leaves[num], an integer or a boolean.
func (p *termParser) value(num string) (wire.MPCTerm, bool) {
	j, err := strconv.Atoi(num)
	if err != nil || j < 0 || j >= len(p.leaves) {
		return wire.MPCTerm{}, false
	}
	v, ok := intValue(p.leaves[j])
	return wire.MPCTerm{Op: wire.TermConst, V: v}, ok
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

// intValue converts an integer or boolean to int64.
func intValue(x any) (int64, bool) {
	switch v := x.(type) {
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case int:
		return int64(v), true
	case int8:
		return int64(v), true
	case int16:
		return int64(v), true
	case int32:
		return int64(v), true
	case int64:
		return v, true
	case uint:
		return int64(v), true
	case uint8:
		return int64(v), true
	case uint16:
		return int64(v), true
	case uint32:
		return int64(v), true
	case uint64:
		return int64(v), true
	case uintptr:
		return int64(v), true
	}
	switch v := reflect.ValueOf(x); v.Kind() { // a named type
	case reflect.Bool:
		if v.Bool() {
			return 1, true
		}
		return 0, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return int64(v.Uint()), true
	}
	return 0, false
}
