package causal

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/wire"
)

// MPCSolver answers the queries of strategy mpc (interleave-solver; see
// wire.MPCQuery for the model).
type MPCSolver interface {
	SolveMPC(q *wire.MPCQuery) (*wire.MPCAnswer, error)
}

// MPC is maximal path causality (Yi and Huang, "Concurrency verification
// with maximal path causality", ESEC/FSE 2018): a search over inputs and
// schedules together, in which one path (each goroutine's sequence of
// outcomes of the branches whose conditions depend on the inputs or on
// values read from shared memory) is one equivalence class, run once.
//
// Each run is recorded as strategy mcr records it (the trace, with the
// values of accesses), plus its symbolic branches and writes, which the
// instrumented fuzz body reports (rt.Branch, rt.SymWrite). At the end of
// a run driven by path prefix pre, whose path is P, the new prefixes are
// split(pre, P) (section 4.3.1): every combination, over the goroutines,
// of keeping the goroutine's suffix beyond pre as it went or taking it up
// to one of its new branches and negating that branch. Each is solved
// (MPC(p) = sync AND pc AND dc, section 4.2) over the trace, and a
// satisfiable one is queued with its schedule (the order of the
// subtrace's events, which a run follows as mcr's plans are followed)
// and its input.
//
// With Sound (the default; strategy S2 of section 4.3.2), a prefix p the
// trace cannot satisfy is not given up: the threads whose path conditions
// are in an unsatisfiable core are relaxed to pre (the others keep p),
// and that prefix, if the trace satisfies it and it was not queued
// before, is run: its run shows behaviors of the relaxed goroutines the
// first trace did not (a write another goroutine's branch needs), and
// split then meets p's paths again. Without Sound (strategy S1) such a
// prefix is dropped, which section 4.3.1 shows misses paths
// (TestMPCSoundness has the program).
type MPC struct {
	*MCR
	solver MPCSolver
	// Sound selects strategy S2 (unsat cores); false is S1.
	Sound bool
	// MaxPrefixes bounds the prefixes split makes of one run.
	MaxPrefixes int

	inputs []wire.MPCInput // per fuzz argument; Value is the seed's
	input  []int64         // the current run's input

	// The current run.
	pre      mpcPath
	branches []mpcBranch
	writes   []mpcWrite
	lastRead map[int32]map[int32]accRef // goroutine -> location -> its last read
	lastW    map[int32]map[int32]accRef // goroutine -> location -> its last write
	locals   map[int32]map[uint32]wire.MPCTerm
	at       map[uintptr]wire.MPCTerm
	calls    map[int32]mpcCall
	marks    map[int32][]mpcMark           // goroutine -> its marked calls, innermost last
	lastMark int64                         // the last mark given
	records  map[int64]mpcValue            // mark -> the term its callee returned
	results  map[int32]map[uint32]mpcValue // goroutine -> call site -> its result
	reenter  map[int32]bool                // goroutines that entered a function again while it ran

	strs map[int]*mpcString // fuzz argument -> its string or []byte input

	queue []mpcItem
	tried map[string]bool // prefixes queued
	paths map[string]bool // paths run

	// A worker's search (Serve): the run it makes, and the record of
	// that run once made, unless it ended with a finding.
	serving bool
	served  *mpcItem
	Served  *wire.MPCRun

	// Workers, when set, make runs of the search in other processes
	// (MPCWorkers), at most Limit runs in all (0: no bound): sent are the
	// requests out, runs the runs made or handed out, and Found the
	// number of the run of a worker that ended with a finding (0: none),
	// where the search stops.
	Workers MPCWorkers
	Limit   int
	sent    []*wire.MPCRequest
	runs    int
	current int
	Found   int

	// Statistics: distinct paths, prefixes checked, prefixes queued by
	// extending the threads of an unsatisfiable core, runs made by
	// workers.
	Paths, Prefixes, Extended, ByWorkers int
}

// accRef names access Acc of raw event Ev.
type accRef struct{ ev, acc int32 }

// mpcBranch is a symbolic branch of the run: goroutine g's, after its raw
// event after (-1: none), with its condition over raw references.
type mpcBranch struct {
	g, after int32
	site     uint32
	cond     wire.MPCTerm
	taken    bool
}

// mpcWrite gives a raw write access its symbolic value.
type mpcWrite struct {
	ref       accRef
	off, size uint8
	value     wire.MPCTerm
}

// mpcOutcome is a branch as a path names it: its site and outcome.
type mpcOutcome struct {
	site  uint32
	taken bool
}

// mpcPath is, per thread number, a sequence of outcomes.
type mpcPath [][]mpcOutcome

// mpcItem is a run to make: its plan, its input and the prefix it takes.
type mpcItem struct {
	plan  mcrPlan
	input []int64
	pre   mpcPath
}

// mpcMaxPrefixes is MPC.MaxPrefixes' default.
const mpcMaxPrefixes = 256

// mpcMaxBranches bounds the symbolic branches recorded of one run.
const mpcMaxBranches = 4096

// NewMPC returns strategy mpc over solver for a fuzz body whose arguments
// are inputs (one per argument; an argument that is not an integer or a
// boolean has Min == Max == Value); timeout bounds each query.
func NewMPC(solver MPCSolver, inputs []wire.MPCInput, timeout time.Duration) *MPC {
	p := &MPC{
		MCR:         NewMCR(nil, timeout),
		solver:      solver,
		Sound:       true,
		MaxPrefixes: mpcMaxPrefixes,
		inputs:      inputs,
		tried:       map[string]bool{},
		paths:       map[string]bool{},
	}
	return p
}

// Name implements Strategy.
func (p *MPC) Name() string { return "mpc" }

// Complete implements Exhaustive: every prefix found was run, with S2,
// and nothing made the model incomplete.
func (p *MPC) Complete() bool { return p.MCR.Complete() && p.Sound }

// Incomplete lists why the search is not complete.
func (p *MPC) Incomplete() []string {
	why := p.MCR.Incomplete()
	if !p.Sound {
		why = append(why, "strategy S1 (-mpc simple) does not explore every path")
	}
	return why
}

// Current is the number of the run Begin started, counting the runs
// handed out to workers before it.
func (p *MPC) Current() int { return p.current }

// Input is the input of the current run, one value per argument.
func (p *MPC) Input() []int64 { return p.input }

// Begin implements Strategy.
func (p *MPC) Begin() bool {
	if p.failed != nil {
		return false
	}
	var it mpcItem
	switch {
	case p.served != nil:
		it, p.served = *p.served, nil
	case !p.started:
		p.started = true
		it.input = make([]int64, len(p.inputs))
		for i, in := range p.inputs {
			it.input[i] = in.Value
		}
	case p.serving || p.Found > 0:
		return false // a worker's search makes the run it serves only
	default:
		if len(p.queue) == 0 {
			p.exhausted = true
			return false
		}
		if p.Limit > 0 && p.runs >= p.Limit {
			return false // the workers made the last runs allowed
		}
		it = p.queue[0]
		p.queue[0] = mpcItem{}
		p.queue = p.queue[1:]
		p.inQueue -= len(it.plan.Steps) + len(it.plan.Tail)
	}
	p.reset(it.plan)
	p.runs++
	p.current = p.runs
	p.parallel()
	p.input, p.pre = append([]int64(nil), it.input...), it.pre
	p.branches, p.writes = p.branches[:0], p.writes[:0]
	p.lastRead = map[int32]map[int32]accRef{}
	p.lastW = map[int32]map[int32]accRef{}
	p.locals = map[int32]map[uint32]wire.MPCTerm{}
	p.at = map[uintptr]wire.MPCTerm{}
	p.calls = map[int32]mpcCall{}
	p.marks = map[int32][]mpcMark{}
	p.records = map[int64]mpcValue{}
	p.results = map[int32]map[uint32]mpcValue{}
	p.reenter = map[int32]bool{}
	for i := len(p.input); i < len(p.inputs); i++ { // byte inputs made after the item was queued
		p.input = append(p.input, p.inputs[i].Value)
	}
	return true
}

// Value implements Valuer: it also keeps each goroutine's last read and
// write of each location.
func (p *MPC) Value(index int, obj int32, mask, v uint64, k strategy.ValueKind) {
	p.MCR.Value(index, obj, mask, v, k)
	if index >= len(p.raw) {
		return
	}
	r := &p.raw[index]
	j := int32(-1)
	for i := range r.acc {
		if r.acc[i].Loc == obj {
			j = int32(i)
		}
	}
	if j < 0 {
		return
	}
	g := r.ev.G
	if k == strategy.ValueRead {
		note(p.lastRead, g, obj, accRef{int32(index), j})
	}
	if k != strategy.ValueRead || r.ev.Op == event.OpWrite { // an update reads first
		note(p.lastW, g, obj, accRef{int32(index), j})
	}
}

func note(m map[int32]map[int32]accRef, g, loc int32, r accRef) {
	if m[g] == nil {
		m[g] = map[int32]accRef{}
	}
	m[g][loc] = r
}

// LastRead returns goroutine g's last read of location loc in this run.
func (p *MPC) LastRead(g, loc int32) (ev, acc int32, ok bool) {
	r, ok := p.lastRead[g][loc]
	return r.ev, r.acc, ok
}

// Branch records goroutine g's branch at site with condition cond (over
// raw references, from LastRead), which went taken.
func (p *MPC) Branch(g int32, site uint32, cond wire.MPCTerm, taken bool) {
	if len(p.branches) >= mpcMaxBranches {
		p.incomplete[fmt.Sprintf("a run had more than %d symbolic branches", mpcMaxBranches)] = true
		return
	}
	p.thread(g)
	after := int32(-1)
	for i := len(p.raw) - 1; i >= 0; i-- {
		if p.raw[i].ev.G == g && p.raw[i].n >= 0 {
			after = int32(i)
			break
		}
	}
	p.branches = append(p.branches, mpcBranch{g: g, after: after, site: site, cond: cond, taken: taken})
}

// SymWrite gives goroutine g's last write of bytes [off, off+size) of
// location loc the symbolic value v.
func (p *MPC) SymWrite(g, loc int32, off, size uint8, v wire.MPCTerm) {
	if r, ok := p.lastW[g][loc]; ok {
		p.writes = append(p.writes, mpcWrite{ref: r, off: off, size: size, value: v})
	}
}

// Local returns the symbolic value goroutine g last gave local variable
// id, if it was symbolic (and g never entered a function again while it
// ran, see Reentered).
func (p *MPC) Local(g int32, id uint32) (wire.MPCTerm, bool) {
	if p.reenter[g] {
		return wire.MPCTerm{}, false
	}
	t, ok := p.locals[g][id]
	return t, ok
}

// SetLocal records the value goroutine g gave local variable id: t, or a
// concrete one when ok is false.
func (p *MPC) SetLocal(g int32, id uint32, t wire.MPCTerm, ok bool) {
	if !ok || p.reenter[g] {
		delete(p.locals[g], id)
		return
	}
	if p.locals[g] == nil {
		p.locals[g] = map[uint32]wire.MPCTerm{}
	}
	p.locals[g][id] = t
}

// At returns the symbolic value last stored in the variable at addr (a
// variable that goroutines share without writing it after it is set).
func (p *MPC) At(addr uintptr) (wire.MPCTerm, bool) {
	t, ok := p.at[addr]
	return t, ok
}

// SetAt records the value of the variable at addr, like SetLocal.
func (p *MPC) SetAt(addr uintptr, t wire.MPCTerm, ok bool) {
	if !ok {
		delete(p.at, addr)
		return
	}
	p.at[addr] = t
}

// Untracked notes a condition or divisor at site that depended on what
// the instrumentation tracks in a way it cannot express (a call through
// an interface or a func value, a shift, a string that is not an input):
// the paths it would tell apart are not explored, and the search does
// not claim to be complete.
func (p *MPC) Untracked(site uint32) {
	p.incomplete["a condition or divisor depended on a value the instrumentation cannot express"] = true
}

// Concrete notes that a condition used a value the instrumentation does
// not track symbolically: a path it makes the solver keep may not be the
// only one, and the search does not claim to be complete.
func (p *MPC) Concrete() {
	p.incomplete["a condition used a value that is not tracked symbolically (taken as it was)"] = true
}

// End implements Strategy: it splits the run's path against its prefix,
// solves the new prefixes, and queues those the trace satisfies.
func (p *MPC) End(o strategy.Outcome) {
	if o.Finding || p.failed != nil {
		p.collect(true)
		return
	}
	if p.serving {
		p.Served = p.Record()
		return
	}
	p.absorb(p.Record(), false)
	p.collect(false)
}

// Record returns the run that just ended as the search takes it in
// (Absorb): its trace, its path and where each thread's new suffix begins
// against the prefix it was to take. It depends on the run alone, so that
// runs made in other processes are taken in as if made here (section
// 4.4).
func (p *MPC) Record() *wire.MPCRun {
	p.makeTrace()
	path, branches := p.path()
	// Where each thread's new suffix begins: after the prefix the run
	// was to take, or where it left it.
	from := make([]int, len(path))
	for t := range path {
		if t < len(p.pre) {
			n := commonPrefix(p.pre[t], path[t])
			if n < len(p.pre[t]) {
				p.diverge()
			}
			from[t] = n
		}
	}
	r := &wire.MPCRun{
		Keys: append([]string(nil), p.keys...), Path: path.wire(), From: from, Branches: branches,
		Trace: p.tr, Steps: wireSteps(p.steps), Input: append([]int64(nil), p.input...),
		Incomplete: p.Incomplete(), Diverged: p.diverged,
	}
	for _, w := range p.writes {
		e, a, ok := p.traceRef(w.ref)
		if !ok {
			continue
		}
		v, ok := p.traceTerm(w.value)
		if !ok {
			continue
		}
		r.Writes = append(r.Writes, wire.MPCWrite{Event: e, Acc: a, Off: w.off, Size: w.size, Value: v})
	}
	r.Bytes = p.byteInputs()
	return r
}

// Absorb takes in run r, made in another process for a request of this
// search (Request): it numbers r's new threads and inputs as the search's
// own, then splits, solves and queues as End does. Runs are to be taken
// in in the order of the queue they came from.
func (p *MPC) Absorb(r *wire.MPCRun) {
	if p.failed != nil {
		return
	}
	p.Executions++
	if r.Diverged {
		p.Diverged++
	}
	for _, why := range r.Incomplete {
		p.incomplete[why] = true
	}
	p.absorb(r, true)
}

// absorb splits run r's path against its prefix, solves the new
// prefixes and queues those the trace satisfies; remote says r was made
// in another process and is numbered as its worker numbered it.
func (p *MPC) absorb(r *wire.MPCRun, remote bool) {
	if remote {
		p.renumber(r)
	}
	p.tr, p.steps = r.Trace, planSteps(r.Steps)
	p.input = r.Input
	path, branches, from := pathOf(r.Path), r.Branches, r.From
	if key := path.key(); !p.paths[key] {
		p.paths[key] = true
		p.Paths++
	}
	prefixes, paths := p.split(from, path, branches)
	if len(prefixes) == 0 {
		return
	}
	q := &wire.MPCQuery{MPC: true, Trace: p.tr, Branches: branches, Writes: r.Writes}
	q.Inputs = make([]wire.MPCInput, len(p.inputs))
	for i, in := range p.inputs {
		if i < len(p.input) {
			in.Value = p.input[i]
		}
		q.Inputs[i] = in
	}
	q.Prefixes = prefixes
	res := p.solve(q)
	if res == nil {
		return
	}
	var ext []wire.MPCPrefix
	var extPaths []mpcPath
	for i, r := range res {
		switch r.Status {
		case wire.MCRSat:
			p.Sat++
			p.enqueue(paths[i], r)
		case wire.MCRUnsat:
			p.Unsat++
			if p.Sound {
				if e, ep, ok := p.extend(prefixes[i], r.Core, from, path, branches); ok {
					ext = append(ext, e...)
					extPaths = append(extPaths, ep...)
				}
			}
		default:
			p.Unknown++
			p.incomplete["a solver check gave up ("+r.Reason+")"] = true
		}
	}
	if len(ext) == 0 {
		return
	}
	q.Prefixes = ext
	res = p.solve(q)
	for i, r := range res {
		switch r.Status {
		case wire.MCRSat:
			p.Sat++
			if p.enqueue(extPaths[i], r) {
				p.Extended++
			}
		case wire.MCRUnsat:
			p.Unsat++
		default:
			p.Unknown++
			p.incomplete["a solver check gave up ("+r.Reason+")"] = true
		}
	}
}

// solve asks the solver, counting; nil when it failed (p.failed says
// why) or the budget is spent.
func (p *MPC) solve(q *wire.MPCQuery) []wire.MPCResult {
	budget := p.timeout
	if !p.Deadline.IsZero() {
		budget = min(budget, time.Until(p.Deadline))
		if budget <= 0 {
			return nil
		}
	}
	q.TimeoutMillis = int(p.timeout / time.Millisecond)
	q.BudgetMillis = max(1, int(budget/time.Millisecond))
	t0 := time.Now()
	a, err := p.solver.SolveMPC(q)
	p.SolverTime += time.Since(t0)
	p.Queries++
	p.Prefixes += len(q.Prefixes)
	if err == nil && a.Error != "" {
		err = fmt.Errorf("%s", a.Error)
	}
	if err == nil && len(a.Results) != len(q.Prefixes) {
		err = fmt.Errorf("the solver answered %d of %d prefixes", len(a.Results), len(q.Prefixes))
	}
	if err != nil {
		p.failed = fmt.Errorf("strategy mpc: the solver failed: %w", err)
		return nil
	}
	return a.Results
}

// path returns the run's path and its branches in trace terms.
func (p *MPC) path() (mpcPath, []wire.MPCBranch) {
	path := make(mpcPath, len(p.keys))
	var bs []wire.MPCBranch
	for _, b := range p.branches {
		cond, ok := p.traceTerm(b.cond)
		if !ok {
			p.incomplete["a condition read a value the trace does not hold"] = true
			continue
		}
		t := p.gThread[b.g]
		after := int32(-1)
		if b.after >= 0 {
			after = p.idx[b.after]
		}
		path[t] = append(path[t], mpcOutcome{b.site, b.taken})
		bs = append(bs, wire.MPCBranch{T: t, After: after, Cond: cond, Taken: b.taken})
	}
	return path, bs
}

// traceRef turns a raw access reference into the trace's event and
// access numbers.
func (p *MPC) traceRef(r accRef) (ev, acc int32, ok bool) {
	if int(r.ev) >= len(p.idx) || p.idx[r.ev] < 0 {
		return 0, 0, false
	}
	raw := p.raw[r.ev].acc
	n := int32(0)
	for j := int32(0); j < r.acc && int(j) < len(raw); j++ {
		if raw[j].Read || raw[j].Write {
			n++
		}
	}
	return p.idx[r.ev], n, true
}

// traceTerm rewrites the raw references of t into trace terms.
func (p *MPC) traceTerm(t wire.MPCTerm) (wire.MPCTerm, bool) {
	if t.Read != nil {
		e, a, ok := p.traceRef(accRef{t.Read.Event, t.Read.Acc})
		if !ok {
			return t, false
		}
		r := *t.Read
		r.Event, r.Acc = e, a
		t.Read = &r
		return t, true
	}
	if len(t.Args) > 0 {
		args := make([]wire.MPCTerm, len(t.Args))
		for i, a := range t.Args {
			var ok bool
			if args[i], ok = p.traceTerm(a); !ok {
				return t, false
			}
		}
		t.Args = args
	}
	return t, true
}

// split returns the prefixes of split(pre, P) (section 4.3.1), fewest
// cut threads first, at most MaxPrefixes, with the paths they name.
// Thread t's suffix starts after its from[t]-th branch.
func (p *MPC) split(from []int, path mpcPath, bs []wire.MPCBranch) ([]wire.MPCPrefix, []mpcPath) {
	var threads []int32 // threads with a new suffix
	for t := range path {
		if len(path[t]) > from[t] {
			threads = append(threads, int32(t))
		}
	}
	var prefixes []wire.MPCPrefix
	var paths []mpcPath
	seen := map[string]bool{}
	full := false
	// Combinations of k cut threads, k = 1, 2, ...: each cut thread at
	// one of its new branches, negated.
	var rec func(i, left int, cuts []wire.MPCCut)
	rec = func(i, left int, cuts []wire.MPCCut) {
		if full {
			return
		}
		if left == 0 {
			closed, ok := p.closeCuts(cuts, bs)
			if !ok {
				return
			}
			q := cutPath(path, closed)
			if key := q.key(); !p.tried[key] && !seen[key] {
				if len(prefixes) == p.MaxPrefixes {
					full = true
					return
				}
				seen[key] = true
				prefixes = append(prefixes, wire.MPCPrefix{Cuts: closed})
				paths = append(paths, q)
			}
			return
		}
		for j := i; j < len(threads); j++ {
			t := threads[j]
			for n := from[t] + 1; n <= len(path[t]); n++ {
				rec(j+1, left-1, append(cuts, wire.MPCCut{T: t, N: int32(n), Negate: true}))
			}
		}
	}
	for k := 1; k <= len(threads) && !full; k++ {
		rec(0, k, nil)
	}
	if full {
		p.incomplete[fmt.Sprintf("a run had more than %d new path prefixes", p.MaxPrefixes)] = true
	}
	return prefixes, paths
}

// extend returns, for a prefix the trace cannot satisfy whose core holds
// the path conditions of threads core, the prefixes that relax those
// threads to where the run's prefix had them (section 4.3.2: all of the
// core's threads, then each alone), skipping those queued before.
func (p *MPC) extend(q wire.MPCPrefix, core []int32, from []int, path mpcPath, bs []wire.MPCBranch) ([]wire.MPCPrefix, []mpcPath, bool) {
	if len(core) == 0 {
		return nil, nil, false
	}
	sets := [][]int32{core}
	if len(core) > 1 {
		for _, t := range core {
			sets = append(sets, []int32{t})
		}
	}
	for _, set := range sets {
		cuts := map[int32]wire.MPCCut{}
		for _, c := range q.Cuts {
			cuts[c.T] = c
		}
		for _, t := range set {
			if int(t) < len(from) {
				cuts[t] = wire.MPCCut{T: t, N: int32(from[t])}
			}
		}
		var list []wire.MPCCut
		for _, t := range sortedKeys(cuts) {
			list = append(list, cuts[t])
		}
		closed, ok := p.closeCuts(list, bs)
		if !ok {
			continue
		}
		e := wire.MPCPrefix{Cuts: closed}
		ep := cutPath(path, e.Cuts)
		if key := ep.key(); !p.tried[key] {
			return []wire.MPCPrefix{e}, []mpcPath{ep}, true
		}
	}
	return nil, nil, false
}

// closeCuts completes cuts so that the subtrace holds what its events
// must follow: a goroutine whose event must follow one outside the
// subtrace (the go statement of a cut goroutine, the end of a goroutine
// it joins) keeps what it did before that event (MPCCut.Until). ok is
// false when a negated branch's goroutine would have to be cut so: the
// prefix then asks for what no run of the trace's events gives.
func (p *MPC) closeCuts(cuts []wire.MPCCut, bs []wire.MPCBranch) ([]wire.MPCCut, bool) {
	threads := len(p.keys)
	own := make([][]int32, threads) // thread -> the After of its branches
	for _, b := range bs {
		own[b.T] = append(own[b.T], b.After)
	}
	end := make([]int32, threads) // thread -> its last event kept (-1: none)
	for t := range end {
		end[t] = int32(len(p.tr.Events)) // whole
	}
	byT := map[int32]wire.MPCCut{}
	for _, c := range cuts {
		byT[c.T] = c
		end[c.T] = -1
		switch {
		case c.Until > 0:
			end[c.T] = c.Until - 1
		case c.N > 0:
			end[c.T] = own[c.T][c.N-1]
		}
	}
	for changed := true; changed; {
		changed = false
		for i, ev := range p.tr.Events {
			e := int32(i)
			if e > end[ev.T] {
				continue
			}
			for _, a := range ev.After {
				if a <= end[p.tr.Events[a].T] {
					continue
				}
				// e needs an event outside the subtrace: its thread
				// keeps what it did before e.
				c, cut := byT[ev.T]
				if cut && c.Negate {
					return nil, false
				}
				n := int32(0)
				for n < int32(len(own[ev.T])) && own[ev.T][n] < e {
					n++
				}
				byT[ev.T] = wire.MPCCut{T: ev.T, N: n, Until: e}
				if e == 0 {
					byT[ev.T] = wire.MPCCut{T: ev.T}
				}
				end[ev.T] = e - 1
				changed = true
				break
			}
		}
	}
	var out []wire.MPCCut
	for _, t := range sortedKeys(byT) {
		out = append(out, byT[t])
	}
	return out, true
}

// cutPath is the path prefix cuts make of path.
func cutPath(path mpcPath, cuts []wire.MPCCut) mpcPath {
	q := make(mpcPath, len(path))
	copy(q, path)
	for _, c := range cuts {
		s := append([]mpcOutcome(nil), path[c.T][:c.N]...)
		if c.Negate && c.N > 0 {
			s[c.N-1].taken = !s[c.N-1].taken
		}
		q[c.T] = s
	}
	return q
}

// key names a path or prefix.
func (q mpcPath) key() string {
	var b strings.Builder
	for t, s := range q {
		if len(s) == 0 {
			continue
		}
		b.WriteString(strconv.Itoa(t))
		b.WriteByte(':')
		for _, o := range s {
			b.WriteString(strconv.FormatUint(uint64(o.site), 36))
			if o.taken {
				b.WriteByte('+')
			} else {
				b.WriteByte('-')
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}

func commonPrefix(a, b []mpcOutcome) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// enqueue queues the run of a satisfiable prefix q, unless it was queued
// before, and reports whether it did.
func (p *MPC) enqueue(q mpcPath, r wire.MPCResult) bool {
	key := q.key()
	if p.tried[key] {
		return false
	}
	p.tried[key] = true
	var plan mcrPlan
	kept := make(map[int32]bool, len(r.Prefix))
	for _, e := range r.Prefix {
		if e < 0 || int(e) >= len(p.steps) {
			p.failed = fmt.Errorf("strategy mpc: the solver's prefix names event %d of %d", e, len(p.steps))
			return false
		}
		kept[e] = true
		plan.Steps = append(plan.Steps, p.steps[e])
	}
	for i, s := range p.steps {
		if !kept[int32(i)] {
			plan.Tail = append(plan.Tail, s)
		}
	}
	if p.inQueue+len(plan.Steps)+len(plan.Tail) > p.MaxQueued {
		p.incomplete[fmt.Sprintf("more prefixes were found than the queue holds (%d steps of plans)", p.MaxQueued)] = true
		return false
	}
	input := append([]int64(nil), p.input...)
	for i, v := range r.Inputs {
		if i < len(input) {
			input[i] = v
		}
	}
	p.inQueue += len(plan.Steps) + len(plan.Tail)
	p.queue = append(p.queue, mpcItem{plan: plan, input: input, pre: q})
	return true
}

// Stats is what the search did, for a test's result.
func (p *MPC) Stats() *wire.MCRStats {
	return &wire.MCRStats{
		Queries: p.Queries, Targets: p.Prefixes, Paths: p.Paths, Extended: p.Extended, Sat: p.Sat, Unsat: p.Unsat,
		Unknown: p.Unknown, Seconds: p.SolverTime.Seconds(), Diverged: p.Diverged, Incomplete: p.Incomplete(),
	}
}

// mpcCall is a call whose arguments' symbolic values wait for the
// callee's entry (rt.SymCall, rt.SymEnter).
type mpcCall struct {
	fn   string
	args []wire.MPCTerm
	sym  []bool
}

// Call records the symbolic values of the arguments of goroutine g's call
// of function fn, for its entry.
func (p *MPC) Call(g int32, fn string, args []wire.MPCTerm, sym []bool) {
	if p.calls == nil {
		p.calls = map[int32]mpcCall{}
	}
	p.calls[g] = mpcCall{fn, args, sym}
}

// Enter returns the symbolic values of the arguments of goroutine g's
// call of fn, if its last recorded call was of fn, and forgets them.
func (p *MPC) Enter(g int32, fn string) (args []wire.MPCTerm, sym []bool, ok bool) {
	c, ok := p.calls[g]
	if !ok {
		return nil, nil, false
	}
	delete(p.calls, g)
	if c.fn != fn {
		return nil, nil, false
	}
	return c.args, c.sym, true
}

// Values returned by calls (rt.SymMark, rt.SymEnter, rt.SymRet,
// rt.SymResult), so that a path condition (section 4.2) may be over what
// a callee returned: its term over inputs and reads. A call of a function of the module under test whose
// result a term uses is marked just before it: the mark goes on top of
// the goroutine's stack of marks. The callee, when it is entered, claims
// the mark on top if it is unclaimed and names it (a call of a function
// that does not report its result claims nothing, and no other call can
// run between the mark and the callee: the instrumenter marks only calls
// whose operands call nothing but other marked calls). Its return
// statement records the term of the value it returns under the claimed
// mark, and the caller, once the call has returned, takes the record of
// its own mark and pops its stack down to it. So the term a caller gets
// is the one of the return statement that ended this very call, or none:
// a callee that panicked and recovered, that was not instrumented, or
// whose deferred calls may change its result, leaves no record, and the
// result is then a concrete value (Concrete).

// mpcMark is a marked call waiting for its callee's return.
type mpcMark struct {
	mark    int64
	fn      string
	claimed bool
}

// mpcValue is a term, or a concrete value when ok is false.
type mpcValue struct {
	term wire.MPCTerm
	v    int64
	ok   bool
}

// Mark marks goroutine g's call of function fn, about to be made, and
// returns the mark.
func (p *MPC) Mark(g int32, fn string) int64 {
	p.lastMark++
	p.marks[g] = append(p.marks[g], mpcMark{mark: p.lastMark, fn: fn})
	return p.lastMark
}

// Claim is the entry of goroutine g into function fn: it returns the mark
// of the call it answers, the unclaimed mark on top of g's stack if it
// names fn, or 0.
func (p *MPC) Claim(g int32, fn string) int64 {
	ms := p.marks[g]
	if n := len(ms); n > 0 && !ms[n-1].claimed && ms[n-1].fn == fn {
		ms[n-1].claimed = true
		return ms[n-1].mark
	}
	return 0
}

// Return records the term of the value returned by the call of mark
// (from Claim): t, or none when ok is false.
func (p *MPC) Return(mark int64, t wire.MPCTerm, ok bool) {
	if mark != 0 {
		p.records[mark] = mpcValue{term: t, ok: ok}
	}
}

// Result is the return of goroutine g's call of mark, at call site site,
// with value v: the call's term, if its callee recorded one, becomes the
// value of the site's result leaf until a term takes it (TakeResult).
func (p *MPC) Result(g int32, mark int64, site uint32, v int64) {
	ms := p.marks[g]
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].mark == mark {
			p.marks[g] = ms[:i]
			break
		}
	}
	r, ok := p.records[mark]
	delete(p.records, mark)
	r.v, r.ok = v, ok && r.ok
	if p.results[g] == nil {
		p.results[g] = map[uint32]mpcValue{}
	}
	p.results[g][site] = r
}

// TakeResult returns and forgets the result of goroutine g's call at
// site: its term, or its concrete value when ok is false; found is false
// when there is none (a call not made since its last result was taken).
func (p *MPC) TakeResult(g int32, site uint32) (t wire.MPCTerm, v int64, ok, found bool) {
	r, found := p.results[g][site]
	if !found {
		return wire.MPCTerm{}, 0, false, false
	}
	delete(p.results[g], site)
	if p.reenter[g] {
		return wire.MPCTerm{}, r.v, false, true
	}
	return r.term, r.v, r.ok, true
}

// Reentered notes that goroutine g entered a function that was running
// already on its stack (recursion, directly or through other calls): the
// symbolic values of local variables and call results are kept per
// goroutine and variable, so the inner call's overwrite the outer's. From
// then on g's are taken as they are (concretely), and the search does
// not claim every path.
func (p *MPC) Reentered(g int32) {
	if !p.reenter[g] {
		p.reenter[g] = true
		p.incomplete["a goroutine entered a function that was running already (recursion): its local values are taken as they are"] = true
	}
}

// String and []byte inputs (the program inputs of a path condition,
// section 4.2, for strings): the fuzz argument's input is its length, and
// each byte it is read at is an input of its own, made the first time a
// term reads it (ByteInput), whose value in the run is the seed's byte,
// or 0 past the seed's end, until the solver gives it another.

// mpcString is a string or []byte argument.
type mpcString struct {
	seed  []byte
	max   int
	bytes map[int]int // index -> input number
}

// StringInput makes fuzz argument k, whose input (its length, in [0,
// max]) NewMPC was given, a string or []byte of seed bytes seed.
func (p *MPC) StringInput(k int, seed []byte, max int) {
	if p.strs == nil {
		p.strs = map[int]*mpcString{}
	}
	p.strs[k] = &mpcString{seed: seed, max: max, bytes: map[int]int{}}
}

// MaxLen returns the most bytes string input k may have, or -1 when input
// k is not a string or []byte.
func (p *MPC) MaxLen(k int) int {
	s := p.strs[k]
	if s == nil {
		return -1
	}
	return s.max
}

// ByteInput returns the input number of byte j of string input k, making
// it the first time.
func (p *MPC) ByteInput(k, j int) (int, bool) {
	n, ok := p.byteInput(k, j)
	if !ok {
		return 0, false
	}
	for len(p.input) <= n { // the byte the run has: no input gave it another
		p.input = append(p.input, p.inputs[len(p.input)].Value)
	}
	return n, true
}

// Bytes returns the value of string input k in the current run: as long
// as its length input says, each byte its byte input's value, or the
// seed's byte, or 0 past the seed's end.
func (p *MPC) Bytes(k int) []byte {
	s := p.strs[k]
	if s == nil || k >= len(p.input) {
		return nil
	}
	n := int(min(max(p.input[k], 0), int64(s.max)))
	b := make([]byte, n)
	copy(b, s.seed)
	for j, in := range s.bytes {
		if j < n && in < len(p.input) {
			b[j] = byte(p.input[in])
		}
	}
	return b
}
