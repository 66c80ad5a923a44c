package rt

import (
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy/causal"
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
//	term := INT | "i" K | "m" J ":" TY | "a" J ":" TY | "l" J | "v" J | "r" J
//	      | "(" OP " " term {" " term} ")" | "(" AT " " str " " term " v" J ")"
//	AT   := "@" | "@?"
//	str  := "i" K | "l" J | "a" J ":" STY
//	TY   := "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "b" | STY
//	STY  := "s" | "y"
//	OP   := "+" | "-" | "*" | "neg" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "!"
//
// INT is a constant (a boolean is 1 or 0); "i" K is the fuzz body's input
// K (0: the first argument after the *testing.T); "m" J is the value of
// type TY at ptrs[J], a pointer to shared memory the goroutine has just
// read (rt.Read); "a" J the value of type TY of the variable ptrs[J]
// points to, which goroutines share but no goroutine writes after
// setting it (SymSetAt); "l" J is the local variable whose number (the
// Site of its declaration) is vals[J] and whose value is vals[J+1]
// (SymSet); "v" J is the concrete value vals[J], which is not tracked;
// "r" J is the result of the call at site vals[J], made by the
// expression the term is of (SymResult).
//
// A string or []byte (TY "s", "y"; an input, a parameter, a captured
// variable) stands for its length: vals[J+1] of an "l" leaf is the
// length. "(@ s e vJ)" is the byte of s at index e, and vals[J] the byte
// the program read there (At), or -1 when e was out of range; the byte is
// an input of its own when s is a fuzz body's string or []byte input,
// and reading it is also a branch, that e is within s, as a division is a
// branch that its divisor is not 0. "(@? s e vJ)" is the same byte
// without that branch: the instrumenter writes it where no bounds check
// can fail there, as in s == "lit", which is "(&& (== s n) (== (@? s 0
// v0) c0) ...)" over the n bytes of the constant.
// A value the symbolic state does not know is taken as it is.

// symbolic returns the running goroutine and strategy mpc, when both are
// (sched.Config.Symbolic).
func symbolic() (*sched.G, *causal.MPC) {
	g := cur()
	if g == nil {
		return nil, nil
	}
	m, _ := g.Iteration().Symbolic().(*causal.MPC)
	if m == nil {
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
	if sched.Symbolic() { // inlined: nothing more outside mpc
		branch(cond, s, sym, vals, ptrs)
	}
	return cond
}

func branch(cond bool, s Site, sym string, vals []int64, ptrs []any) {
	if g, m := symbolic(); m != nil {
		p := newParser(sym, vals, ptrs, g, m, uint32(s))
		ts, ok := p.all()
		switch {
		case !ok:
			m.Untracked(uint32(s))
		case len(ts) == 1 && isSymbolic(ts[0]):
			m.Branch(g.ID, uint32(s), ts[0], cond)
		}
	}
}

// Untracked reports a condition or divisor, at s, that depends on what
// the instrumentation tracks in a way it cannot express (a call through
// an interface or a func value, a shift): mpc's search does not claim
// every path after it.
func Untracked(s Site) {
	if sched.Symbolic() {
		if _, m := symbolic(); m != nil {
			m.Untracked(uint32(s))
		}
	}
}

// SymWrite reports the symbolic value, sym, of the write to *addr that
// the statement before it made (x = e, x += e, x++, x shared memory).
func SymWrite(addr any, s Site, sym string, vals []int64, ptrs ...any) {
	if sched.Symbolic() {
		symWrite(addr, s, sym, vals, ptrs)
	}
}

func symWrite(addr any, s Site, sym string, vals []int64, ptrs []any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	p := newParser(sym, vals, ptrs, g, m, uint32(s))
	t, ok := p.all()
	if !ok || len(t) != 1 || !isSymbolic(t[0]) {
		return
	}
	ptr := dataPtr(addr)
	off, size := uintptr(ptr)&7, accessSize(addr)
	if size == 0 || off+size > 8 {
		return
	}
	m.SymWrite(g.ID, g.WordID(ptr), uint8(off), uint8(size), t[0])
}

// SymSet reports the value, sym, that the statement around it gave the
// local variable numbered id, the Site of its declaration ("" for a value
// that is not tracked). It returns true, so that it can stand in front of
// the condition of an if statement whose init statement it reports:
// if v := f(); rt.SymSet(...) && (v > 0).
func SymSet(id Site, sym string, vals []int64, ptrs ...any) bool {
	if sched.Symbolic() {
		symSet(id, sym, vals, ptrs)
	}
	return true
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
	p := newParser(sym, vals, ptrs, g, m, uint32(id))
	t, ok := p.all()
	m.SetLocal(g.ID, uint32(id), first(t), ok && len(t) == 1)
}

// SymSetAt is SymSet for a variable that function literals share, named
// by its address.
func SymSetAt(addr any, sym string, vals []int64, ptrs ...any) bool {
	if sched.Symbolic() {
		symSetAt(addr, sym, vals, ptrs)
	}
	return true
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
	p := newParser(sym, vals, ptrs, g, m, 0)
	t, ok := p.all()
	m.SetAt(a, first(t), ok && len(t) == 1)
}

// SymCall returns last, the last argument of a call of the function
// named fn (types.Func.FullName: "p.F", "(*p.T).M"), after recording the
// symbolic values of the call's arguments, syms: one term per argument,
// or "_" for one that is not tracked. The instrumenter wraps the last
// argument of calls whose arguments call nothing but calls whose results
// they use (SymResult), so that nothing runs between it and the callee's
// SymEnter.
func SymCall[T any](last T, fn string, syms string, vals []int64, ptrs ...any) T {
	if sched.Symbolic() {
		symCall(fn, syms, vals, ptrs)
	}
	return last
}

func symCall(fn string, syms string, vals []int64, ptrs []any) {
	g, m := symbolic()
	if m == nil {
		return
	}
	args, sym := parseArgs(syms, vals, ptrs, g, m)
	m.Call(g.ID, fn, args, sym)
}

// SymEnter is the entry of the function named fn ("" for a function
// literal): it binds its parameters to the symbolic values its caller
// recorded (SymCall), or to none: each of params is a local variable's
// number (a Site), or, for a parameter that function literals share, its
// address, or nil for one that is not tracked. It returns the mark of the
// call it answers, if its caller marked it (SymMark), for SymRet; 0
// outside mpc. Entering a function already running on the goroutine's
// stack (recursion) makes the goroutine's local values concrete from
// then on: their symbolic state is kept per goroutine, not per call.
func SymEnter(fn string, params ...any) int64 {
	if sched.Symbolic() {
		return symEnter(fn, params)
	}
	return 0
}

func symEnter(fn string, params []any) int64 {
	g, m := symbolic()
	if m == nil {
		return 0
	}
	if reentered() {
		m.Reentered(g.ID)
	}
	if fn == "" {
		return 0
	}
	mark := m.Claim(g.ID, fn)
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
	return mark
}

// reentered reports whether the function that called SymEnter is on the
// goroutine's stack twice (or the stack is too deep to tell).
func reentered() bool {
	pcs := make([]uintptr, 64)
	for {
		// 0 is Callers, then reentered, symEnter, SymEnter (logical
		// frames: inlining does not change them), then the function.
		n := runtime.Callers(4, pcs)
		if n < len(pcs) {
			pcs = pcs[:n]
			break
		}
		if len(pcs) >= 1<<14 {
			return true
		}
		pcs = make([]uintptr, 2*len(pcs))
	}
	frames := runtime.CallersFrames(pcs)
	self, more := frames.Next()
	for more {
		var f runtime.Frame
		f, more = frames.Next()
		if f.Function == self.Function {
			return true
		}
	}
	return false
}

// SymMark marks the call of the function named fn that the expression
// makes next, and returns the mark, for SymResult: the instrumenter
// rewrites a call f(args) whose result a term uses into
// rt.SymResult(rt.SymMark("f"), f(args), site). 0 outside mpc.
func SymMark(fn string) int64 {
	if sched.Symbolic() {
		return symMark(fn)
	}
	return 0
}

func symMark(fn string) int64 {
	g, m := symbolic()
	if m == nil {
		return 0
	}
	return m.Mark(g.ID, fn)
}

// SymResult returns v, the result of the call marked mark, after making
// the term its callee returned (SymRet) the value of the call's result
// leaf, "r" with site s, or v itself when the callee recorded none.
func SymResult[T any](mark int64, v T, s Site) T {
	if sched.Symbolic() {
		symResult(mark, any(v), s)
	}
	return v
}

func symResult(mark int64, v any, s Site) {
	g, m := symbolic()
	if m == nil {
		return
	}
	m.Result(g.ID, mark, uint32(s), intValue(v))
}

// SymRet returns v, the value a return statement of the function returns,
// after recording its term, sym, as the result of the call marked mark
// (the value SymEnter returned).
func SymRet[T any](v T, mark int64, sym string, vals []int64, ptrs ...any) T {
	if sched.Symbolic() { // inlined: nothing more outside mpc
		symRet(mark, sym, vals, ptrs)
	}
	return v
}

func symRet(mark int64, sym string, vals []int64, ptrs []any) {
	if mark == 0 {
		return // the call was not marked: nobody takes its result
	}
	g, m := symbolic()
	if m == nil {
		return
	}
	p := newParser(sym, vals, ptrs, g, m, 0)
	t, ok := p.all()
	m.Return(mark, first(t), ok && len(t) == 1)
}

// At is the byte of s at index i, or -1 when i is out of range: the
// concrete value of a byte leaf, "(@ s e vJ)", evaluated whether or not
// the condition read it.
func At[S ~string | ~[]byte](s S, i int64) int64 {
	if i < 0 || i >= int64(len(s)) {
		return -1
	}
	return int64(s[i])
}

// intValue is the integer value of v, an integer or a boolean (1 or 0).
func intValue(v any) int64 {
	r := reflect.ValueOf(v)
	switch {
	case r.CanInt():
		return r.Int()
	case r.CanUint():
		return int64(r.Uint())
	case r.Kind() == reflect.Bool:
		return B(r.Bool())
	}
	return 0
}

func first(ts []wire.MPCTerm) wire.MPCTerm {
	if len(ts) == 0 {
		return wire.MPCTerm{}
	}
	return ts[0]
}

// parseArgs parses the terms of SymCall, "_" for an untracked one; sym
// says which are known. A term that cannot be resolved is not known.
func parseArgs(syms string, vals []int64, ptrs []any, g *sched.G, m *causal.MPC) ([]wire.MPCTerm, []bool) {
	p := newParser(syms, vals, ptrs, g, m, 0)
	var args []wire.MPCTerm
	var sym []bool
	for p.i < len(p.toks) {
		if p.toks[p.i] == "_" {
			p.i++
			args, sym = append(args, wire.MPCTerm{}), append(sym, false)
			continue
		}
		p.unresolved = false
		t, ok := p.term()
		if !ok && !p.unresolved {
			return nil, nil // malformed
		}
		args, sym = append(args, t), append(sym, ok) // a constant is a known value too
	}
	return args, sym
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
	m    *causal.MPC
	site uint32 // of the branches that byte reads are
	// unresolved says that a term failed because a leaf has no value: a
	// call's result that was not made or was taken already.
	unresolved bool
}

// maxVals bounds the value leaves of a term (the instrumenter passes no
// more).
const maxVals = 16

func newParser(sym string, vals []int64, ptrs []any, g *sched.G, m *causal.MPC, site uint32) termParser {
	p := termParser{toks: tokenize(sym), ptrs: ptrs, g: g, m: m, site: site}
	if len(vals) > maxVals {
		p.toks = []string{"("} // malformed: no term
	}
	p.nval = copy(p.vals[:], vals)
	return p
}

// all parses every term of the parser's tokens, resolving leaves,
// symbolic or not (a local given a constant has a known value); ok is
// false when one is malformed or cannot be resolved.
func (p *termParser) all() (ts []wire.MPCTerm, ok bool) {
	for p.i < len(p.toks) {
		t, ok := p.term()
		if !ok {
			return nil, false
		}
		ts = append(ts, t)
	}
	return ts, true
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
	if tok != "(" {
		return p.leaf(tok)
	}
	if p.i >= len(p.toks) {
		return wire.MPCTerm{}, false
	}
	op := p.toks[p.i]
	p.i++
	if op == "@" || op == "@?" {
		return p.byteAt(op == "@")
	}
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

// maxSymbolicIndex bounds the length of a string whose byte at a
// symbolic index is a term (a choice among its byte inputs).
const maxSymbolicIndex = 256

// byteAt parses the rest of "(@ s e vJ)", or of "(@? s e vJ)" when
// bounds is false: the byte of string s at index e. When s is a fuzz
// body's string or []byte input K, the byte is K's byte input at e (at a
// symbolic e, the one e selects), and, for "@", the read is a branch of
// the goroutine, that e is within s, which went as the program's read
// did ("@?" reads a byte where no bounds check can fail: a string
// comparison, a switch tag read before). Otherwise, and when the byte
// the program read at a constant index is not the input's (something
// wrote the []byte), it is the byte the program read.
func (p *termParser) byteAt(bounds bool) (wire.MPCTerm, bool) {
	if p.i+3 >= len(p.toks) {
		return wire.MPCTerm{}, false
	}
	s, ok := p.leaf(p.toks[p.i])
	p.i++
	if !ok {
		return wire.MPCTerm{}, false
	}
	e, ok := p.term()
	if !ok || p.i+1 >= len(p.toks) || p.toks[p.i+1] != ")" || !strings.HasPrefix(p.toks[p.i], "v") {
		return wire.MPCTerm{}, false
	}
	read, ok := p.value(p.toks[p.i][1:])
	p.i += 2
	if !ok {
		return wire.MPCTerm{}, false
	}
	k := int(s.V)
	if s.Op != wire.TermInput || p.m.MaxLen(k) < 0 {
		if isSymbolic(s) || isSymbolic(e) {
			p.m.Concrete()
		}
		return read, true
	}
	in := wire.MPCTerm{Op: "&&", Args: []wire.MPCTerm{
		{Op: ">=", Args: []wire.MPCTerm{e, {Op: wire.TermConst}}},
		{Op: "<", Args: []wire.MPCTerm{e, s}},
	}}
	if bounds {
		p.m.Branch(p.g.ID, p.site, in, read.V >= 0)
	}
	if e.Op == wire.TermConst {
		n, ok := p.m.ByteInput(k, int(e.V))
		if !ok {
			return read, true // beyond the longest input: never within it
		}
		if read.V >= 0 && read.V != p.m.Input()[n] {
			// The program wrote the []byte: the byte is no longer the
			// input's.
			p.m.Concrete()
			return read, true
		}
		return wire.MPCTerm{Op: wire.TermInput, V: int64(n)}, true
	}
	max := p.m.MaxLen(k)
	if max == 0 || max > maxSymbolicIndex {
		p.m.Concrete()
		return read, true
	}
	// ite(e == 0, b0, ite(e == 1, b1, ... b[max-1]))
	var t wire.MPCTerm
	for j := max - 1; j >= 0; j-- {
		n, _ := p.m.ByteInput(k, j)
		b := wire.MPCTerm{Op: wire.TermInput, V: int64(n)}
		if j == max-1 {
			t = b
			continue
		}
		t = wire.MPCTerm{Op: wire.TermIte, Args: []wire.MPCTerm{
			{Op: "==", Args: []wire.MPCTerm{e, {Op: wire.TermConst, V: int64(j)}}}, b, t,
		}}
	}
	return t, true
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
	case 'r':
		j, err := strconv.Atoi(num)
		if err != nil || j < 0 || j >= p.nval {
			return wire.MPCTerm{}, false
		}
		t, v, ok, found := p.m.TakeResult(p.g.ID, uint32(p.vals[j]))
		switch {
		case !found:
			p.unresolved = true
			return wire.MPCTerm{}, false
		case ok:
			return t, true
		}
		p.m.Concrete()
		return wire.MPCTerm{Op: wire.TermConst, V: v}, true
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
		addr := dataPtr(p.ptrs[j])
		if addr == nil {
			return wire.MPCTerm{}, false
		}
		if kind == 'a' {
			if t, ok := p.m.At(uintptr(addr)); ok {
				return t, true
			}
			p.m.Concrete()
		}
		switch typ {
		case "s":
			return wire.MPCTerm{Op: wire.TermConst, V: int64(len(*(*string)(addr)))}, kind == 'a'
		case "y":
			return wire.MPCTerm{Op: wire.TermConst, V: int64(len(*(*[]byte)(addr)))}, kind == 'a'
		}
		size, signed, ok := typeOf(typ)
		if !ok {
			return wire.MPCTerm{}, false
		}
		if kind == 'm' {
			if off := uintptr(addr) & 7; off+uintptr(size) <= 8 {
				if ev, acc, ok := p.m.LastRead(p.g.ID, p.g.WordID(addr)); ok {
					return wire.MPCTerm{Op: wire.TermRead, Read: &wire.MPCRead{
						Event: ev, Acc: acc, Off: uint8(off), Size: size, Signed: signed,
					}}, true
				}
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

// typeOf decodes an integer or boolean TY of the term grammar.
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
