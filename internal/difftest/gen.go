package difftest

import (
	"fmt"
	"math/rand"
	"strings"
)

// op is one production of the memory grammar: a statement on a group.
type op struct {
	kind  string
	code  string // $A and $B stand for small integers, $S for a short string
	write bool
	// none marks a statement that names the group but reads none of its
	// memory (an index-only range over an array, len of an array): it
	// goes unguarded in every form.
	none bool
	// plain is the statement with plain accesses instead of atomic ones
	// (atomic groups): the planted race.
	plain string
}

// groups is the memory grammar: per group of shared memory, its
// statements. Groups "atomic", "atomictype" and "syncmap" need no guard.
var groups = map[string][]op{
	"x": {
		{kind: "field.inc", code: "s.x++", write: true},
		{kind: "field.read", code: "acc += s.x"},
		{kind: "field.set", code: "s.x = $A", write: true},
	},
	"embedded": {
		{kind: "embedded.add", code: "s.e += $A", write: true},
		{kind: "embedded.read", code: "acc += s.inner.e"},
	},
	"nested": {
		{kind: "nested.set", code: "s.p.q.v = $A", write: true},
		{kind: "nested.read", code: "acc += s.p.q.v"},
		{kind: "nested.copy", code: "{ cp := s.p; acc += cp.q.v }"},
		{kind: "nested.assign", code: "s.p = nested{}", write: true},
	},
	"array": {
		{kind: "array.set", code: "s.arr[$A%4] = $B", write: true},
		{kind: "array.inc", code: "s.arr[$A%4]++", write: true},
		{kind: "array.read", code: "acc += s.arr[$A%4]"},
		{kind: "array.copy", code: "{ a := s.arr; acc += a[$A%4] }"},
		{kind: "array.rangevalue", code: "for i, v := range s.arr { acc += i * v }"},
		{kind: "array.rangeindex", code: "for i := range s.arr { acc += i }", none: true},
		{kind: "array.len", code: "acc += len(s.arr)", none: true},
		{kind: "array.pointer", code: "{ p := &s.arr[$A%4]; *p += $B }", write: true},
	},
	"slice": {
		{kind: "slice.set", code: "s.sl[$A%4] = $B", write: true},
		{kind: "slice.read", code: "acc += s.sl[$A%4]"},
		{kind: "slice.len", code: "acc += len(s.sl)"},
		{kind: "slice.cap", code: "acc += cap(s.sl)"},
		{kind: "slice.append", code: "s.sl = append(s.sl, $A)", write: true},
		{kind: "slice.range", code: "for _, v := range s.sl { acc += v }"},
		{kind: "slice.rangeindex", code: "for i := range s.sl { acc += i }"},
		{kind: "slice.copy", code: "acc += copy(s.sl, []int{$A, $B})", write: true},
		{kind: "slice.index", code: "acc += slices.Index(s.sl, $A)"},
		{kind: "slice.contains", code: "if slices.Contains(s.sl, $A) { acc++ }"},
		{kind: "slice.sort", code: "slices.Sort(s.sl)", write: true},
		{kind: "slice.max", code: "acc += slices.Max(s.sl)"},
	},
	"map": {
		{kind: "map.set", code: "s.m[$A] = $B", write: true},
		{kind: "map.read", code: "acc += s.m[$A]"},
		{kind: "map.commaok", code: "if v, ok := s.m[$A]; ok { acc += v }"},
		{kind: "map.len", code: "acc += len(s.m)"},
		{kind: "map.delete", code: "delete(s.m, $A)", write: true},
		{kind: "map.range", code: "for k, v := range s.m { acc += k * v }"},
		{kind: "map.rangekeys", code: "for k := range s.m { acc += k }"},
		{kind: "map.rangedelete", code: "for k := range s.m { if k%2 == 0 { delete(s.m, k) } }", write: true},
		{kind: "map.rangeset", code: "for k := range s.m { s.m[k] = $A }", write: true},
		{kind: "map.clear", code: "clear(s.m)", write: true},
	},
	"string": {
		{kind: "string.append", code: `s.str += "$S"`, write: true},
		{kind: "string.len", code: "acc += len(s.str)"},
		{kind: "string.prefix", code: "if strings.HasPrefix(s.str, \"a\") { acc++ }"},
	},
	"iface": {
		{kind: "iface.inc", code: "s.ptr.(*cell).v++", write: true},
		{kind: "iface.read", code: "acc += s.ptr.(*cell).v"},
		{kind: "iface.method", code: "{ c, _ := s.ptr.(*cell); c.inc() }", write: true},
	},
	"method": {
		{kind: "method.value", code: "{ f := s.c.inc; f() }", write: true},
		{kind: "method.read", code: "acc += s.c.v"},
	},
	"global": {
		{kind: "global.inc", code: "gv++", write: true},
		{kind: "global.read", code: "acc += gv"},
	},
	"buffer": {
		{kind: "buffer.write", code: `s.buf.WriteString("$S")`, write: true},
		{kind: "buffer.len", code: "acc += s.buf.Len()"},
	},
	"builder": {
		{kind: "builder.write", code: `s.sb.WriteString("$S")`, write: true},
		{kind: "builder.len", code: "acc += s.sb.Len()"},
	},
	"atomic": {
		{kind: "atomic.add", code: "atomic.AddInt64(&s.a, $A)", write: true, plain: "s.a += $A"},
		{kind: "atomic.load", code: "acc += int(atomic.LoadInt64(&s.a))", plain: "acc += int(s.a)"},
		{kind: "atomic.store", code: "atomic.StoreInt64(&s.a, $A)", write: true, plain: "s.a = $A"},
		{kind: "atomic.cas", code: "if atomic.CompareAndSwapInt64(&s.a, $A, $B) { acc++ }", write: true},
	},
	"atomictype": {
		{kind: "atomic.typeadd", code: "s.ai.Add($A)", write: true},
		{kind: "atomic.typeload", code: "acc += int(s.ai.Load())"},
		{kind: "atomic.typeswap", code: "acc += int(s.ai.Swap($A))", write: true},
	},
	"syncmap": {
		{kind: "syncmap.store", code: "s.sm.Store($A, $B)", write: true},
		{kind: "syncmap.load", code: "if v, ok := s.sm.Load($A); ok { acc += v.(int) }"},
		{kind: "syncmap.range", code: "s.sm.Range(func(k, v any) bool { acc += v.(int); return true })"},
		{kind: "syncmap.delete", code: "s.sm.Delete($A)", write: true},
		{kind: "syncmap.loadorstore", code: "if v, loaded := s.sm.LoadOrStore($A, $B); loaded { acc += v.(int) }", write: true},
	},
}

// unguarded are the groups safe without a lock.
var unguarded = map[string]bool{"atomic": true, "atomictype": true, "syncmap": true}

// groupNames lists the groups in a fixed order (map order is random).
var groupNames = []string{"x", "embedded", "nested", "array", "slice", "map", "string", "iface", "method", "global", "buffer", "builder", "atomic", "atomictype", "syncmap"}

// guards are the locks a guarded group may have.
var guards = []string{"mu1", "mu2", "rw1", "rl", "sem"}

// guard wraps code in the critical section of lock g, a read lock when
// the statement only reads and g is a reader-writer lock.
func guard(g, code string, write bool) string {
	switch {
	case g == "rw1" && !write:
		return "rw1.RLock(); " + code + "; rw1.RUnlock()"
	case g == "rw1":
		return "rw1.Lock(); " + code + "; rw1.Unlock()"
	case g == "rl" && !write:
		return "rl.Lock(); " + code + "; rl.Unlock()"
	case g == "rl":
		return "rw2.Lock(); " + code + "; rw2.Unlock()"
	case g == "sem":
		return "sem <- struct{}{}; " + code + "; <-sem"
	}
	return g + ".Lock(); " + code + "; " + g + ".Unlock()"
}

// pres are the sequential statements of the semantics oracle: their
// value of seq does not depend on the schedule.
var pres = []Stmt{
	{Kind: "seq.chan", Code: "{ pc := make(chan int, 3); pc <- 1; pc <- 2; seq += fmt.Sprint(len(pc), cap(pc)); close(pc); for v := range pc { seq += fmt.Sprint(v) }; v, ok := <-pc; seq += fmt.Sprint(v, ok) }"},
	{Kind: "seq.select", Code: "{ pc := make(chan int, 1); select { case v := <-pc: seq += fmt.Sprint(v); default: seq += \"d\" }; pc <- 4; select { case v := <-pc: seq += fmt.Sprint(v); default: seq += \"d\" } }"},
	{Kind: "seq.selectnil", Code: "{ sel := make(chan int, 1); sel <- 1; var nc chan int; select { case nc <- 1: seq += \"nil\"; case v := <-sel: seq += fmt.Sprint(v) }; select { case <-sel: seq += \"again\"; case <-time.After(time.Millisecond): seq += \"timeout\" } }"},
	{Kind: "seq.context", Code: "{ c2, cc := context.WithCancel(context.Background()); seq += fmt.Sprint(c2.Err()); cc(); seq += fmt.Sprint(c2.Err(), context.Cause(c2)) }"},
	{Kind: "seq.deadline", Code: "{ c2, cc := context.WithTimeout(context.Background(), time.Hour); _, ok := c2.Deadline(); seq += fmt.Sprint(ok); cc(); <-c2.Done(); seq += fmt.Sprint(c2.Err()) }"},
	{Kind: "seq.timeout", Code: "{ c2, cc := context.WithTimeout(context.Background(), time.Millisecond); defer cc(); <-c2.Done(); seq += fmt.Sprint(c2.Err()) }"},
	{Kind: "seq.reflect", Code: "{ seq += reflect.TypeOf(s).String() + reflect.ValueOf(make(chan int, 2)).Type().String() }"},
	{Kind: "seq.reflectchan", Code: "{ rc := make(chan int, 2); rc <- 5; seq += fmt.Sprint(reflect.ValueOf(rc).Len(), reflect.ValueOf(rc).Cap()) }"},
	{Kind: "seq.timer", Code: "{ tm := time.NewTimer(time.Hour); seq += fmt.Sprint(tm.Stop(), tm.Stop(), tm.Reset(time.Hour), tm.Stop()) }"},
	{Kind: "seq.once", Code: "{ var o sync.Once; n := 0; o.Do(func() { n++ }); o.Do(func() { n++ }); seq += fmt.Sprint(n) }"},
	{Kind: "seq.panic", Code: "func() { defer func() { seq += fmt.Sprint(recover()) }(); panic(\"p\") }()"},
	{Kind: "seq.syncmap", Code: "{ var m sync.Map; m.Store(1, 2); v, ok := m.Load(1); _, l := m.LoadOrStore(1, 3); seq += fmt.Sprint(v, ok, l) }"},
	{Kind: "seq.atomic", Code: "{ var x atomic.Int32; seq += fmt.Sprint(x.CompareAndSwap(0, 3), x.Add(2), x.Swap(1)) }"},
	{Kind: "seq.wggo", Code: "{ var wgs sync.WaitGroup; n := 0; var m sync.Mutex; for i := 0; i < 3; i++ { wgs.Go(func() { m.Lock(); n += i; m.Unlock() }) }; wgs.Wait(); seq += fmt.Sprint(n) }"},
	{Kind: "seq.handoff", Code: "{ c := make(chan int); go func() { c <- 7; close(c) }(); for v := range c { seq += fmt.Sprint(v) }; seq += fmt.Sprint(len(c), cap(c)) }"},
	{Kind: "seq.afterfunc", Code: "{ c2, cc := context.WithCancel(context.Background()); fired := make(chan struct{}); stop := context.AfterFunc(c2, func() { close(fired) }); cc(); <-fired; seq += fmt.Sprint(stop()) }"},
	{Kind: "seq.trylock", Code: "{ var m sync.Mutex; a := m.TryLock(); b := m.TryLock(); m.Unlock(); seq += fmt.Sprint(a, b) }"},
	{Kind: "seq.rlocker", Code: "{ var rwx sync.RWMutex; l := rwx.RLocker(); l.Lock(); a := rwx.TryLock(); b := rwx.TryRLock(); l.Unlock(); rwx.RUnlock(); c := rwx.TryLock(); seq += fmt.Sprint(a, b, c) }"},
	{Kind: "seq.oncevalue", Code: "{ n := 0; f := sync.OnceValue(func() int { n++; return n }); seq += fmt.Sprint(f(), f(), n) }"},
}

// gen is the state of one generation.
type gen struct {
	r     *rand.Rand
	p     *Program
	n     int        // goroutines, the test goroutine included
	seqs  [][][]Stmt // per goroutine, sequences of statements to merge
	guard map[string]string
	chans int // channels declared so far
	bug   bool
	bugs  int // bug statements placed
}

// Generate returns the program of seed: 2 to 5 goroutines (the test
// goroutine included), 5 to 40 statements.
func Generate(seed int64) *Program {
	g := &gen{r: rand.New(rand.NewSource(seed)), guard: map[string]string{}}
	g.p = &Program{Seed: seed}
	r := g.r
	g.n = 2 + r.Intn(4)
	g.bug = r.Intn(10) < 3
	g.p.Bugs = g.bug
	g.seqs = make([][][]Stmt, g.n)
	target := 5 + r.Intn(8) // most programs small enough for dfs
	switch x := r.Intn(10); {
	case x >= 9:
		target = 21 + r.Intn(20)
	case x >= 6:
		target = 13 + r.Intn(8)
	}
	for i := 0; i < r.Intn(3); i++ {
		g.p.Pre = append(g.p.Pre, pres[r.Intn(len(pres))])
	}
	// Synchronization constructs, then memory statements up to target.
	for c := r.Intn(4); c > 0; c-- {
		g.construct()
	}
	if g.bug && g.bugs == 0 {
		g.bugConstruct()
	}
	var used []string
	for k := 1 + r.Intn(3); k > 0; k-- {
		gr := groupNames[r.Intn(len(groupNames))]
		used = append(used, gr)
		if !unguarded[gr] {
			g.guard[gr] = guards[r.Intn(len(guards))]
		}
	}
	for g.count() < target {
		gr := used[r.Intn(len(used))]
		g.add(r.Intn(g.n), g.memStmt(gr))
	}
	g.merge()
	g.plant()
	if g.bug {
		deepen(g.p, g.n)
	}
	widen(g.p, g.n)
	live(g.p)
	stacks(g.p)
	chooseSubtests(g.p)
	return g.p
}

// count is the number of statements generated so far.
func (g *gen) count() int {
	n := 0
	for _, gs := range g.seqs {
		for _, s := range gs {
			n += len(s)
		}
	}
	return n
}

// add adds a sequence of statements to goroutine gi.
func (g *gen) add(gi int, stmts ...Stmt) {
	g.seqs[gi] = append(g.seqs[gi], stmts)
}

// memStmt returns a random statement on group gr.
func (g *gen) memStmt(gr string) Stmt {
	o := groups[gr][g.r.Intn(len(groups[gr]))]
	a, b := 1+g.r.Intn(5), 1+g.r.Intn(9)
	str := string(rune('a'+g.r.Intn(3))) + string(rune('a'+g.r.Intn(3)))
	fill := strings.NewReplacer("$A", fmt.Sprint(a), "$B", fmt.Sprint(b), "$S", str)
	code := fill.Replace(o.code)
	s := Stmt{Kind: o.kind, Code: code, Group: gr, Write: o.write}
	switch {
	case o.none:
		s.Group, s.Write = "", false
	case unguarded[gr]:
		if o.plain != "" {
			s.Racy = fill.Replace(o.plain)
		}
	default:
		s.Code = guard(g.guard[gr], code, o.write)
		s.Racy = code
	}
	return s
}

// pair returns two goroutines a < b.
func (g *gen) pair() (int, int) {
	a := g.r.Intn(g.n - 1)
	return a, a + 1 + g.r.Intn(g.n-1-a)
}

// construct adds one synchronization construct: its declarations and its
// statements, placed so that a goroutine only waits for goroutines of
// smaller index (the test goroutine is 0), which never wait for it: the
// Safe form cannot deadlock.
func (g *gen) construct() {
	r := g.r
	switch r.Intn(9) {
	case 0, 1: // a pipe: sends never block (capacity), receives wait for a lower goroutine
		a, b := g.pair()
		k := 1 + r.Intn(3)
		c := g.newChan(k + r.Intn(2))
		var send, recv []Stmt
		for i := 0; i < k; i++ {
			send = append(send, Stmt{Kind: "chan.send", Code: fmt.Sprintf("%s <- %d", c, 1+r.Intn(9))})
		}
		switch r.Intn(3) {
		case 0:
			send = append(send, Stmt{Kind: "chan.close", Code: fmt.Sprintf("close(%s)", c)})
			recv = append(recv, Stmt{Kind: "chan.range", Code: fmt.Sprintf("for v := range %s { acc = acc*3 + v }", c)})
		case 1:
			for i := 0; i < k; i++ {
				recv = append(recv, Stmt{Kind: "chan.recvok", Code: fmt.Sprintf("if v, ok := <-%s; ok { acc = acc*3 + v }", c)})
			}
		default:
			for i := 0; i < k; i++ {
				recv = append(recv, Stmt{Kind: "chan.recv", Code: fmt.Sprintf("acc = acc*3 + <-%s", c)})
			}
		}
		if r.Intn(3) == 0 {
			g.add(r.Intn(g.n), Stmt{Kind: "chan.len", Code: fmt.Sprintf("acc += len(%s) + cap(%s)", c, c)})
		}
		g.add(a, send...)
		g.add(b, recv...)
	case 2: // two pipes merged by select, with a nil channel case
		a1, b := g.pair()
		a2 := r.Intn(b)
		k1, k2 := 1+r.Intn(2), 1+r.Intn(2)
		c1, c2 := g.newChan(k1), g.newChan(k2)
		var s1, s2, recv []Stmt
		for i := 0; i < k1; i++ {
			s1 = append(s1, Stmt{Kind: "chan.send", Code: fmt.Sprintf("%s <- %d", c1, 1+r.Intn(9))})
		}
		for i := 0; i < k2; i++ {
			s2 = append(s2, Stmt{Kind: "chan.send", Code: fmt.Sprintf("%s <- %d", c2, 1+r.Intn(9))})
		}
		for i := 0; i < k1+k2; i++ {
			recv = append(recv, Stmt{Kind: "select.multi", Code: fmt.Sprintf("select { case v := <-%s: acc = acc*3 + v; case v := <-%s: acc = acc*5 + v; case <-nilch: acc-- }", c1, c2)})
		}
		g.decl("var nilch chan int; _ = nilch")
		g.add(a1, s1...)
		g.add(a2, s2...)
		g.add(b, recv...)
	case 3: // a lossy channel: every operation is non-blocking
		c := g.newChan(r.Intn(3))
		for i := 1 + r.Intn(3); i > 0; i-- {
			switch r.Intn(3) {
			case 0:
				g.add(r.Intn(g.n), Stmt{Kind: "select.senddefault", Code: fmt.Sprintf("select { case %s <- %d: default: }", c, 1+r.Intn(9))})
			case 1:
				s := Stmt{Kind: "select.recvdefault", Code: fmt.Sprintf("select { case v := <-%s: acc += v; default: acc += 7 }", c)}
				if g.bug && r.Intn(2) == 0 {
					s.Bug = g.bugRecv(c)
				}
				g.add(r.Intn(g.n), s)
			default:
				g.add(r.Intn(g.n), Stmt{Kind: "select.timeafter", Code: fmt.Sprintf("select { case v := <-%s: acc += v; case <-time.After(time.Millisecond): acc += 11 }", c)})
			}
		}
		if g.bug && r.Intn(2) == 0 {
			g.bugs++
			g.add(0, Stmt{Kind: "bug.leak", Bug: fmt.Sprintf("go func() { %s <- 1 }()", c)})
		}
	case 4: // a condition: waiters wait for a lower goroutine to set the flag
		a := r.Intn(g.n - 1)
		waiters := 1 + r.Intn(2)
		id := g.newID()
		g.decl(fmt.Sprintf("var cmu%[1]d sync.Mutex; cond%[1]d := sync.NewCond(&cmu%[1]d); ready%[1]d := false; _, _ = cond%[1]d, ready%[1]d", id))
		set := Stmt{Kind: "cond.broadcast", Code: fmt.Sprintf("cmu%[1]d.Lock(); ready%[1]d = true; cond%[1]d.Broadcast(); cmu%[1]d.Unlock()", id)}
		if waiters == 1 && r.Intn(2) == 0 {
			set = Stmt{Kind: "cond.signal", Code: fmt.Sprintf("cmu%[1]d.Lock(); ready%[1]d = true; cond%[1]d.Signal(); cmu%[1]d.Unlock()", id)}
		}
		if g.bug && waiters > 1 {
			g.bugs++
			set.Bug = fmt.Sprintf("cmu%[1]d.Lock(); ready%[1]d = true; cond%[1]d.Signal(); cmu%[1]d.Unlock()", id)
		}
		g.add(a, set)
		for i := 0; i < waiters; i++ {
			b := a + 1 + r.Intn(g.n-1-a)
			g.add(b, Stmt{Kind: "cond.wait", Code: fmt.Sprintf("cmu%[1]d.Lock(); for !ready%[1]d { cond%[1]d.Wait() }; cmu%[1]d.Unlock()", id)})
		}
	case 5: // context: cancellation, timeouts, AfterFunc
		a, b := g.pair()
		switch r.Intn(4) {
		case 0:
			g.add(a, Stmt{Kind: "ctx.cancel", Code: "cancel()"})
			g.add(b, Stmt{Kind: "ctx.done", Code: "<-ctx.Done(); acc += len(ctx.Err().Error())"})
		case 1:
			id := g.newID()
			g.decl(fmt.Sprintf("tctx%[1]d, tcancel%[1]d := context.WithTimeout(ctx, time.Millisecond); defer tcancel%[1]d(); _ = tctx%[1]d", id))
			g.add(b, Stmt{Kind: "ctx.timeout", Code: fmt.Sprintf("<-tctx%[1]d.Done(); acc += len(tctx%[1]d.Err().Error())", id)})
			if r.Intn(2) == 0 {
				g.add(a, Stmt{Kind: "ctx.cancel", Code: "cancel()"})
			}
		case 2:
			id := g.newID()
			g.decl(fmt.Sprintf("dctx%[1]d, dcancel%[1]d := context.WithDeadline(ctx, time.Now().Add(time.Millisecond)); defer dcancel%[1]d(); _ = dctx%[1]d", id))
			g.add(b, Stmt{Kind: "ctx.deadline", Code: fmt.Sprintf("<-dctx%[1]d.Done(); if dctx%[1]d.Err() == context.DeadlineExceeded { acc++ }", id)})
		default:
			id := g.newID()
			g.decl(fmt.Sprintf("af%[1]d := make(chan struct{}); stop%[1]d := context.AfterFunc(ctx, func() { close(af%[1]d) })", id))
			g.p.Tail = append(g.p.Tail, fmt.Sprintf("if !stop%[1]d() { <-af%[1]d }", id))
			g.add(a, Stmt{Kind: "ctx.cancel", Code: "cancel()"})
			g.add(b, Stmt{Kind: "ctx.err", Code: "if ctx.Err() != nil { acc++ }"})
		}
	case 6: // once in its forms
		id := g.newID()
		switch r.Intn(3) {
		case 0:
			g.decl(fmt.Sprintf("var o%[1]d sync.Once; _ = &o%[1]d", id))
			for i := 1 + r.Intn(3); i > 0; i-- {
				g.add(r.Intn(g.n), Stmt{Kind: "once.do", Code: fmt.Sprintf("o%d.Do(func() { mu2.Lock(); s.once++; mu2.Unlock() })", id)})
			}
		case 1:
			g.decl(fmt.Sprintf("of%[1]d := sync.OnceFunc(func() { mu2.Lock(); s.once++; mu2.Unlock() }); _ = of%[1]d", id))
			for i := 1 + r.Intn(3); i > 0; i-- {
				g.add(r.Intn(g.n), Stmt{Kind: "once.func", Code: fmt.Sprintf("of%d()", id)})
			}
		default:
			g.decl(fmt.Sprintf("ov%[1]d := sync.OnceValue(func() int { mu2.Lock(); s.once++; mu2.Unlock(); return %[2]d }); _ = ov%[1]d", id, 1+r.Intn(9)))
			for i := 1 + r.Intn(3); i > 0; i-- {
				g.add(r.Intn(g.n), Stmt{Kind: "once.value", Code: fmt.Sprintf("acc += ov%d()", id)})
			}
		}
	case 7: // timers
		ts := []Stmt{
			{Kind: "time.sleep", Code: "time.Sleep(time.Microsecond)"},
			{Kind: "time.after", Code: "<-time.After(time.Microsecond)"},
			{Kind: "time.timer", Code: "{ tm := time.NewTimer(time.Millisecond); <-tm.C }"},
			{Kind: "time.stop", Code: "{ tm := time.NewTimer(time.Hour); if tm.Stop() { acc++ } }"},
			{Kind: "time.ticker", Code: "{ tk := time.NewTicker(time.Millisecond); <-tk.C; <-tk.C; tk.Stop() }"},
			{Kind: "time.reset", Code: "{ tm := time.NewTimer(time.Hour); tm.Reset(time.Microsecond); <-tm.C }"},
		}
		g.add(r.Intn(g.n), ts[r.Intn(len(ts))])
	default: // the rest: recover, pools, goroutines of their own, the runtime
		ms := []Stmt{
			{Kind: "panic.recover", Code: "func() { defer func() { if r := recover(); r != nil { acc += 1000 } }(); if acc%2 == 1 { panic(\"odd\") } }()"},
			{Kind: "pool.putget", Code: "s.pool.Put(1); _ = s.pool.Get()"},
			{Kind: "runtime.gosched", Code: "runtime.Gosched()"},
			{Kind: "runtime.numgoroutine", Code: "if runtime.NumGoroutine() > 0 { acc++ }"},
			{Kind: "go.nested", Code: "{ var w sync.WaitGroup; w.Add(1); go func() { defer w.Done(); runtime.Gosched() }(); w.Wait() }"},
			{Kind: "go.nestedchan", Code: "{ c := make(chan int); go func() { c <- 2 }(); acc += <-c }"},
		}
		g.add(r.Intn(g.n), ms[r.Intn(len(ms))])
	}
}

// bugRecv returns a Bug-form replacement of a non-blocking receive from c.
func (g *gen) bugRecv(c string) string {
	g.bugs++
	switch g.r.Intn(3) {
	case 0:
		return fmt.Sprintf("acc += <-%s", c)
	case 1:
		return fmt.Sprintf("select { case v := <-%s: acc += v; default: t.Error(\"lossy channel was empty\") }", c)
	}
	return fmt.Sprintf("select { case v := <-%s: acc += v; default: panic(\"lossy channel was empty\") }", c)
}

// bugConstruct adds a construct whose Bug form has a bug under some
// schedules.
func (g *gen) bugConstruct() {
	r := g.r
	a, b := g.pair()
	c := g.newChan(0)
	g.add(a, Stmt{Kind: "select.senddefault", Code: fmt.Sprintf("select { case %s <- %d: default: }", c, 1+r.Intn(9))})
	s := Stmt{Kind: "select.recvdefault", Code: fmt.Sprintf("select { case v := <-%s: acc += v; default: acc += 7 }", c)}
	s.Bug = g.bugRecv(c)
	g.add(b, s)
}

func (g *gen) newID() int {
	g.chans++
	return g.chans
}

// newChan declares a channel of capacity k and returns its name.
func (g *gen) newChan(k int) string {
	name := fmt.Sprintf("ch%d", g.newID())
	g.decl(fmt.Sprintf("%s := make(chan int, %d); _ = %s", name, k, name))
	return name
}

func (g *gen) decl(d string) {
	for _, x := range g.p.Decls {
		if x == d {
			return
		}
	}
	g.p.Decls = append(g.p.Decls, d)
}

// merge interleaves the sequences of each goroutine at random, keeping
// the order within each sequence, and chooses how each goroutine is
// joined.
func (g *gen) merge() {
	joins := []string{"wg", "go", "done"}
	for gi := 0; gi < g.n; gi++ {
		gr := &Goroutine{Join: joins[g.r.Intn(len(joins))]}
		if gi == 0 {
			gr.Join = "main"
		}
		seqs := g.seqs[gi]
		for {
			var live []int
			for i, s := range seqs {
				if len(s) > 0 {
					live = append(live, i)
				}
			}
			if len(live) == 0 {
				break
			}
			i := live[g.r.Intn(len(live))]
			gr.Stmts = append(gr.Stmts, seqs[i][0])
			seqs[i] = seqs[i][1:]
		}
		g.p.Gs = append(g.p.Gs, gr)
	}
}

// plant chooses the planted race: one statement whose Racy form lacks its
// guard (or uses plain accesses where the others are atomic), among those
// that conflict with a statement of another goroutine. The Racy fields of
// every other statement are cleared.
func (g *gen) plant() {
	type at struct{ g, s int }
	var cands []at
	for gi, gr := range g.p.Gs {
		for si, s := range gr.Stmts {
			if s.Racy == "" || s.Group == "" {
				continue
			}
			w := s.Write || unguarded[s.Group] && plainWrites(s.Racy)
			if conflicts(g.p, gi, s.Group, w) {
				cands = append(cands, at{gi, si})
			}
		}
	}
	var pick at = at{-1, -1}
	if len(cands) > 0 {
		pick = cands[g.r.Intn(len(cands))]
		g.p.Planted = true
	}
	for gi, gr := range g.p.Gs {
		for si := range gr.Stmts {
			if (at{gi, si}) != pick {
				gr.Stmts[si].Racy = ""
			}
		}
	}
}

// plainWrites reports whether a plain statement of an atomic group writes.
func plainWrites(code string) bool {
	return strings.Contains(code, "s.a +=") || strings.Contains(code, "s.a =")
}

// conflicts reports whether a goroutine other than gi accesses group gr,
// writing it unless w.
func conflicts(p *Program, gi int, gr string, w bool) bool {
	for gj, o := range p.Gs {
		if gj == gi {
			continue
		}
		for _, s := range o.Stmts {
			if s.Group == gr && (w || s.Write) {
				return true
			}
		}
	}
	return false
}
