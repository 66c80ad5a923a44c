package rt

import (
	"flag"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/strategy"
	"interleave.dev/rt/internal/strategy/dpor"
	"interleave.dev/rt/internal/strategy/hapset"
)

// The textbook programs of the partial-order reduction literature, ported
// to Go as the instrumenter would rewrite them (rt calls before every
// shared access), parameterized by their size. Each returns its outcome:
// the final values, and "violation" where the program checks a property
// (mutual exclusion) itself. They run under rt/internal/sched directly, so
// that the table can count Mazurkiewicz traces (dpor.CountTraces).
//
//	go test ./rt -run TestSystematicTable -systematic.table -v
//
// prints the table of docs/systematic.md.

var systematicTable = flag.Bool("systematic.table", false, "print the executions of dfs, dpor and pcb on the textbook programs (docs/systematic.md)")

// textbookSites are the sites of the textbook programs, one a line of a
// file textbook.go (so that strategies that tell statements apart, such
// as hapset, see the programs as an instrumented build would show them).
var textbookSites = RegisterFile("textbook.go", "", func() []int {
	var lc []int
	for line := 1; line <= 64; line++ {
		lc = append(lc, line, 1)
	}
	return lc
}()...)

func tb(k int) Site { return textbookSites + Site(k) }

type textbook struct {
	name string
	body func() string
}

// selects says whether p has a select that can block on several
// channels: what its select conflicts with depends on whether it blocked
// (it touches every channel it waits on when it runs, only the one whose
// partner completes it when it blocked), so dfs counts as two traces
// executions that differ only in that, which dpor explores as one; both
// reach the same outcomes.
func (p textbook) selects() bool { return p.name == "selector" }

// join waits for the goroutines through one channel each, so that joining
// adds no conflict between them (a shared WaitGroup's Done would).
func spawnAll(n int, f func(i int)) []chan struct{} {
	done := make([]chan struct{}, n)
	for i := range done {
		i := i
		c := MakeChan[struct{}](1, 0)
		done[i] = c
		Go(func() { f(i); Send(c, struct{}{}, tb(1)) }, tb(2))
	}
	return done
}

func joinAll(done []chan struct{}) {
	for _, c := range done {
		Recv(c, tb(3))
	}
}

// lastZero is lastzero(n) of Abdulla et al. 2014 (section 9): thread 0
// looks for the last zero of an array that threads 1..n fill, each with
// its left neighbour plus one.
func lastZero(n int) textbook {
	return textbook{fmt.Sprintf("lastzero(%d)", n), func() string {
		arr := make([]int, n+1)
		var found int
		done := spawnAll(n+1, func(j int) {
			if j == 0 {
				i := n
				for ; i > 0; i-- {
					Read(&arr[i], tb(4))
					if arr[i] == 0 {
						break
					}
				}
				found = i
				return
			}
			Read(&arr[j-1], tb(5))
			v := arr[j-1]
			Write(&arr[j], tb(6))
			arr[j] = v + 1
		})
		joinAll(done)
		return fmt.Sprint(found, arr)
	}}
}

// selector has two goroutines send a value each on a channel of their
// own, and a third take both with a select over the two channels, which
// chooses between ready cases: choice points of the Select kind, which a
// split dpor search can hand out as the roots of its jobs.
func selector() textbook {
	return textbook{"selector", func() string {
		a, b := MakeChan[int](1, tb(52)), MakeChan[int](1, tb(53))
		var got []int
		done := spawnAll(3, func(j int) {
			switch j {
			case 0:
				Send(a, 1, tb(54))
			case 1:
				Send(b, 2, tb(55))
			default:
				for k := 0; k < 2; k++ {
					sel := SelectStart(tb(56))
					SelectRecv[int](sel, a)
					SelectRecv[int](sel, b)
					sel.Do(false)
					if v, ok := SelectValue[int](sel); ok {
						got = append(got, v)
					}
				}
			}
		})
		joinAll(done)
		return fmt.Sprint(got)
	}}
}

// indexer is the indexer of Flanagan and Godefroid 2005 (section 6): n
// threads insert m messages each (message k of thread t is 11(k+1)+t)
// into a hash table of size entries with compare-and-swap and linear
// probing. Threads conflict only when their hashes collide (from 12
// threads with m = 4 and size 128). n*m must not exceed size.
func indexer(n, m, size int) textbook {
	return textbook{fmt.Sprintf("indexer(%d,%d,%d)", n, m, size), func() string {
		table := make([]int32, size)
		done := spawnAll(n, func(tid int) {
			for k := 0; k < m; k++ {
				w := int32(11*(k+1) + tid)
				h := int(w*7) % size
				for !AtomicCompareAndSwapInt32(&table[h], 0, w, tb(7)) {
					h = (h + 1) % size
				}
			}
		})
		joinAll(done)
		return fmt.Sprint(table)
	}}
}

// fileSystem is the file system of Flanagan and Godefroid 2005 (section
// 6): n threads each take an inode (tid mod inodes) under its lock and, if
// it has no block yet, look for a free block from (2*inode mod blocks)
// under the blocks' locks. With 32 inodes and 26 blocks threads conflict
// from 14 threads on.
func fileSystem(n, inodes, blocks int) textbook {
	return textbook{fmt.Sprintf("filesystem(%d,%d,%d)", n, inodes, blocks), func() string {
		locki := make([]sync.Mutex, inodes)
		lockb := make([]sync.Mutex, blocks)
		inode := make([]int, inodes)
		busy := make([]int, blocks) // a word each: bools would share words, and conflict
		done := spawnAll(n, func(tid int) {
			i := tid % inodes
			Lock(&locki[i], tb(8))
			Read(&inode[i], tb(9))
			if inode[i] == 0 {
				b := (i * 2) % blocks
				for {
					Lock(&lockb[b], tb(10))
					Read(&busy[b], tb(11))
					if busy[b] == 0 {
						Write(&busy[b], tb(12))
						busy[b] = 1
						Write(&inode[i], tb(13))
						inode[i] = b + 1
						Unlock(&lockb[b], tb(14))
						break
					}
					Unlock(&lockb[b], tb(15))
					b = (b + 1) % blocks
				}
			}
			Unlock(&locki[i], tb(16))
		})
		joinAll(done)
		return fmt.Sprint(inode)
	}}
}

// readersWriters: r readers read a value under RLock, w writers increment
// it under Lock; the outcome is what each reader saw.
func readersWriters(r, w int) textbook {
	return textbook{fmt.Sprintf("readers-writers(%d,%d)", r, w), func() string {
		var mu sync.RWMutex
		x := 0
		seen := make([]int, r)
		done := spawnAll(r+w, func(id int) {
			if id < r {
				RLock(&mu, tb(17))
				Read(&x, tb(18))
				seen[id] = x
				RUnlock(&mu, tb(19))
				return
			}
			RWLock(&mu, tb(20))
			Read(&x, tb(21))
			v := x
			Write(&x, tb(22))
			x = v + 1
			RWUnlock(&mu, tb(23))
		})
		joinAll(done)
		return fmt.Sprint(seen, x)
	}}
}

// philosophers: n dining philosophers, forks as mutexes, each taking the
// lower-numbered fork first (no deadlock), eating once: the outcome is the
// order of the meals.
func philosophers(n int) textbook {
	return textbook{fmt.Sprintf("philosophers(%d)", n), func() string {
		forks := make([]sync.Mutex, n)
		var order []int
		var omu sync.Mutex
		done := spawnAll(n, func(i int) {
			a, b := i, (i+1)%n
			if b < a {
				a, b = b, a
			}
			Lock(&forks[a], tb(24))
			Lock(&forks[b], tb(25))
			Lock(&omu, tb(26))
			Read(&order, tb(27))
			Write(&order, tb(27))
			order = append(order, i)
			Unlock(&omu, tb(28))
			Unlock(&forks[b], tb(29))
			Unlock(&forks[a], tb(30))
		})
		joinAll(done)
		return fmt.Sprint(order)
	}}
}

// peterson is Peterson's mutual exclusion for two threads, each entering
// the critical section once, its busy wait bounded by spins reads (a
// thread that gives up reports "starved"). With broken, each thread gives
// the turn before raising its flag: mutual exclusion fails.
func peterson(spins int, broken bool) textbook {
	name := fmt.Sprintf("peterson(%d)", spins)
	if broken {
		name = fmt.Sprintf("peterson-broken(%d)", spins)
	}
	return textbook{name, func() string {
		var flag [2]int
		var turn, in int
		res := make([]string, 2)
		done := spawnAll(2, func(i int) {
			o := 1 - i
			if broken {
				Write(&turn, tb(31))
				turn = o
				Write(&flag[i], tb(32))
				flag[i] = 1
			} else {
				Write(&flag[i], tb(33))
				flag[i] = 1
				Write(&turn, tb(34))
				turn = o
			}
			k := 0
			for ; k < spins; k++ {
				Read(&flag[o], tb(35))
				if flag[o] != 1 {
					break
				}
				Read(&turn, tb(36))
				if turn != o {
					break
				}
			}
			if k == spins {
				res[i] = "starved"
				return
			}
			Read(&in, tb(37))
			v := in
			Write(&in, tb(38))
			in = v + 1
			Read(&in, tb(39))
			if in != 1 {
				res[i] = "violation"
			} else {
				res[i] = "ok"
			}
			Read(&in, tb(40))
			v = in
			Write(&in, tb(41))
			in = v - 1
			Write(&flag[i], tb(42))
			flag[i] = 0
		})
		joinAll(done)
		return strings.Join(res, ",")
	}}
}

type sysResult struct {
	executions int
	blocked    int // dpor's executions cut by sleep sets
	exhausted  bool
	outcomes   []string
	finding    string
	traces     int
}

// runSystematic explores p with st, at most limit executions.
func runSystematic(t testing.TB, st strategy.Strategy, p textbook, limit int) sysResult {
	t.Helper()
	got := map[string]bool{}
	res := sched.Explore(sched.Config{
		Strategy:   st,
		Schedules:  limit,
		Leaks:      true,
		StuckAfter: 10 * time.Second,
		Stall:      100 * time.Millisecond,
	}, func() { got[p.body()] = true })
	r := sysResult{executions: res.Iterations, exhausted: res.Exhausted}
	if res.Finding != nil {
		r.finding = res.Finding.Kind
	}
	if res.Diverged != "" {
		t.Fatalf("%s under %s diverged: %s", p.name, st.Name(), res.Diverged)
	}
	for k := range got {
		r.outcomes = append(r.outcomes, k)
	}
	sort.Strings(r.outcomes)
	if tr, ok := st.(*dpor.Traces); ok {
		r.traces = tr.Count()
		st = tr.Strategy
	}
	if d, ok := st.(*dpor.DPOR); ok {
		r.blocked = d.SleepBlocked
		r.exhausted = d.Bounded() // bounded: every schedule within the bound
	}
	if pcb, ok := st.(*strategy.PCB); ok {
		r.exhausted = pcb.Bounded() // every schedule within the bound
	}
	return r
}

// dporTextbooks are the programs the dpor variants are compared on: the
// small ones, and without -short four that dfs cannot finish.
func dporTextbooks() []textbook {
	progs := smallTextbooks()
	if !testing.Short() {
		progs = append(progs, lastZero(4), philosophers(4), readersWriters(2, 2), indexer(4, 2, 8))
	}
	return progs
}

// small are the instances DFS exhausts quickly: dpor must reach exactly
// its outcomes there.
func smallTextbooks() []textbook {
	return []textbook{
		lastZero(2), lastZero(3), indexer(2, 2, 4), indexer(3, 2, 6),
		fileSystem(2, 1, 2), fileSystem(3, 2, 2),
		readersWriters(1, 1), readersWriters(2, 1), philosophers(2), philosophers(3),
		peterson(1, false), peterson(1, true), peterson(2, true), selector(),
	}
}

// TestSystematicSoundness: on every small textbook program, dpor reaches
// exactly the outcomes and the Mazurkiewicz traces of DFS, covers its
// space, and runs no more executions than DFS; so does pcb with a bound as
// large as needed. Where
// DFS cannot finish (its space is every interleaving), dpor must still
// reach every outcome that DFS's first executions and 20000 random
// schedules reach.
func TestSystematicSoundness(t *testing.T) {
	for _, p := range smallTextbooks() {
		p := p
		t.Run(p.name, func(t *testing.T) {
			dfs := runSystematic(t, dpor.CountTraces(strategy.NewDFS(0)), p, 100000)
			dp := runSystematic(t, dpor.CountTraces(dpor.NewSource(0)), p, 100000)
			op := runSystematic(t, dpor.CountTraces(dpor.NewOptimal(0)), p, 100000)
			t.Logf("dpor: %d executions (optimal: %d), dfs %d (exhausted %v), outcomes %q", dp.executions, op.executions, dfs.executions, dfs.exhausted, dp.outcomes)
			for _, r := range []sysResult{dp, op} {
				if !r.exhausted || r.finding != "" {
					t.Fatalf("dpor: exhausted %v after %d, finding %q", r.exhausted, r.executions, r.finding)
				}
			}
			if dfs.finding != "" {
				t.Fatalf("dfs: finding %q", dfs.finding)
			}
			if !dfs.exhausted {
				rnd := runSystematic(t, strategy.NewRandom(1), p, 20000)
				for _, o := range append(dfs.outcomes, rnd.outcomes...) {
					if !contains(dp.outcomes, o) || !contains(op.outcomes, o) {
						t.Errorf("dfs or random reach %q, dpor does not (dpor: %q, optimal: %q)", o, dp.outcomes, op.outcomes)
					}
				}
				return
			}
			if !p.selects() && (dp.traces != dfs.traces || op.traces != dfs.traces) {
				t.Errorf("dpor ran %d distinct traces (optimal: %d), dfs %d", dp.traces, op.traces, dfs.traces)
			}
			pcb := runSystematic(t, strategy.NewPCB(1000, 0), p, 100000)
			for _, r := range []sysResult{dp, op, pcb} {
				if strings.Join(r.outcomes, "|") != strings.Join(dfs.outcomes, "|") {
					t.Errorf("%q, dfs %q", r.outcomes, dfs.outcomes)
				}
				if r.executions > dfs.executions {
					t.Errorf("%d executions, dfs %d", r.executions, dfs.executions)
				}
			}
			if !pcb.exhausted {
				t.Errorf("pcb did not cover the space")
			}
		})
	}
}

// TestSystematicSoundnessLarger: on textbook programs too large for dfs,
// dpor covers its reduced space within 20000 executions and reaches every
// outcome that 20000 random schedules reach.
func TestSystematicSoundnessLarger(t *testing.T) {
	if testing.Short() {
		t.Skip("20000 random schedules per program")
	}
	for _, p := range []textbook{lastZero(4), philosophers(4), readersWriters(2, 2), indexer(4, 2, 8)} {
		t.Run(p.name, func(t *testing.T) {
			dp := runSystematic(t, dpor.NewSource(0), p, 20000)
			if !dp.exhausted || dp.finding != "" {
				t.Fatalf("dpor: exhausted %v after %d, finding %q", dp.exhausted, dp.executions, dp.finding)
			}
			rnd := runSystematic(t, strategy.NewRandom(1), p, 20000)
			t.Logf("dpor: %d executions, %d outcomes; random: %d outcomes", dp.executions, len(dp.outcomes), len(rnd.outcomes))
			for _, o := range rnd.outcomes {
				if !contains(dp.outcomes, o) {
					t.Errorf("random reaches %q, dpor does not (dpor: %q)", o, dp.outcomes)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// abandonedSender is the shape of the kernel context-abandoned-sender in
// rt calls: a goroutine closes stop, another sends on res, and the main
// goroutine takes whichever its select finds first, abandoning the
// sender when it takes stop. The sender's steps are announced to no
// strategy before it runs, and it runs only after the main goroutine's
// exit (leaks on) or not at all (leaks off).
func abandonedSender() string {
	stop := MakeChan[struct{}](0, tb(40))
	res := MakeChan[int](0, tb(41))
	closed := MakeChan[struct{}](1, tb(42))
	Go(func() { Close(stop, tb(43)); Send(closed, struct{}{}, tb(44)) }, tb(45))
	Go(func() { Send(res, 1, tb(46)) }, tb(47))
	sel := SelectStart(tb(48))
	SelectRecv[int](sel, res)
	SelectRecv[struct{}](sel, stop)
	k := sel.Do(false)
	Recv(closed, tb(50))
	return []string{"res", "stop"}[k]
}

// TestDPORUnannouncedSteps: dpor reaches the outcome in which the sender
// is received, which dfs reaches: with leaks off, where the sender never
// runs unless a schedule starts it before the main goroutine returns
// (dpor's executions ended with it never started, and nothing raced with
// it), and with leaks on, where it first runs after the main goroutine's
// exit (a start no Pending announced, whose race with the exit went
// unchecked); there the leak, which depends on the interleaving, is the
// finding.
func TestDPORUnannouncedSteps(t *testing.T) {
	for _, leaks := range []bool{false, true} {
		for i, st := range []strategy.Strategy{strategy.NewDFS(0), dpor.NewSource(0), dpor.NewOptimal(0)} {
			got := map[string]bool{}
			res := sched.Explore(sched.Config{
				Strategy: st, Schedules: 1000, Leaks: leaks, LeakNotes: leaks,
				StuckAfter: 10 * time.Second, Stall: 100 * time.Millisecond,
			}, func() { got[abandonedSender()] = true })
			name := fmt.Sprintf("%s, leaks %v", []string{"dfs", "dpor -dpor source", "dpor"}[i], leaks)
			if !got["res"] || !got["stop"] {
				t.Errorf("%s: outcomes %v after %d executions, want res and stop", name, got, res.Iterations)
			}
			switch {
			case leaks && (res.Finding == nil || res.Finding.Kind != "goroutine leak"):
				t.Errorf("%s: finding %v, want the goroutine leak", name, res.Finding)
			case !leaks && res.Finding != nil:
				t.Errorf("%s: finding %v, want none", name, res.Finding)
			}
		}
	}
}

// TestSystematicDeadlock: the philosophers who all take their left fork
// first deadlock; dpor, pcb and bounded dpor find it as dfs does. hapset
// need not: every ordering of two statements the deadlock shows (a
// philosopher's second Lock right after its neighbour's first) is one
// that passing schedules show too, so its HaPSets count the deadlock
// covered (docs/systematic.md).
func TestSystematicDeadlock(t *testing.T) {
	p := textbook{"philosophers-left(3)", func() string {
		forks := make([]sync.Mutex, 3)
		done := spawnAll(3, func(i int) {
			Lock(&forks[i], tb(43))
			Lock(&forks[(i+1)%3], tb(44))
			Unlock(&forks[(i+1)%3], tb(45))
			Unlock(&forks[i], tb(46))
		})
		joinAll(done)
		return ""
	}}
	for _, st := range []strategy.Strategy{strategy.NewDFS(0), dpor.NewSource(0), dpor.NewOptimal(0), strategy.NewPCB(2, 0), dpor.NewBounded(1, 0)} {
		if r := runSystematic(t, st, p, 100000); r.finding != sched.KindDeadlock {
			t.Errorf("%s: finding %q after %d executions, want a deadlock", st.Name(), r.finding, r.executions)
		}
	}
}

// TestSystematicTable prints the executions of dfs, dpor and pcb and the
// Mazurkiewicz traces (the executions of an optimal reduction) on the
// textbook programs: the table of docs/systematic.md.
func TestSystematicTable(t *testing.T) {
	if !*systematicTable {
		t.Skip("run with -systematic.table")
	}
	const limit = 20000
	cell := func(r sysResult) string {
		if !r.exhausted {
			return fmt.Sprintf(">%d", r.executions)
		}
		return fmt.Sprint(r.executions)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| program | dfs | traces under dfs | dpor | traces under dpor | sleep-blocked | dpor -dpor source | sleep-blocked | pcb K=1 | pcb K=2 | dpor K=1 | dpor K=2 | hapset on dpor | hapset on pcb K=2 | outcomes (dpor / hapset on dpor) |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	progs := append(smallTextbooks(),
		lastZero(4), lastZero(5),
		indexer(8, 4, 128), indexer(12, 4, 128),
		fileSystem(8, 32, 26), fileSystem(14, 32, 26),
		readersWriters(3, 2), philosophers(4), peterson(3, false),
	)
	for _, p := range progs {
		tr := dpor.CountTraces(strategy.NewDFS(0))
		dfs := runSystematic(t, tr, p, limit)
		dfs.traces = tr.Count()
		dp := runSystematic(t, dpor.CountTraces(dpor.NewOptimal(0)), p, limit)
		ds := runSystematic(t, dpor.CountTraces(dpor.NewSource(0)), p, limit)
		if dp.exhausted && ds.exhausted && dp.traces != ds.traces {
			t.Errorf("%s: dpor ran %d traces, with source sets %d", p.name, dp.traces, ds.traces)
		}
		p1 := runSystematic(t, strategy.NewPCB(1, 0), p, limit)
		p2 := runSystematic(t, strategy.NewPCB(2, 0), p, limit)
		traces := func(r sysResult) string {
			if !r.exhausted {
				return fmt.Sprintf(">=%d", r.traces)
			}
			return fmt.Sprint(r.traces)
		}
		b1 := runSystematic(t, dpor.NewBounded(1, 0), p, limit)
		b2 := runSystematic(t, dpor.NewBounded(2, 0), p, limit)
		hd := guidedSearch(t, "dpor", p, limit)
		hp := guidedSearch(t, "pcb", p, limit)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %s | %d | %s | %s | %s | %s | %d | %d | %d / %d |\n", p.name, cell(dfs), traces(dfs), cell(dp), traces(dp), dp.blocked, cell(ds), ds.blocked, cell(p1), cell(p2), cell(b1), cell(b2), hd.executions, hp.executions, len(dp.outcomes), len(hd.outcomes))
	}
	t.Log("\n" + b.String())
}

// guidedSearch explores p with hapset guiding search, with an empty
// store, and counts the random runs it learns from first and the guided
// search's executions, not the random runs it goes on with once no
// uncovered ordering is left (which fill the limit).
func guidedSearch(t *testing.T, search string, p textbook, limit int) sysResult {
	st := hapsetOn(search, hapset.NewHaPSets())
	r := runSystematic(t, st, p, limit)
	hs, ok := st.(*hapset.HaPSet)
	if !ok {
		t.Fatalf("hapset on %s is a %T", search, st)
	}
	r.executions -= hs.After
	return r
}

// BenchmarkSystematic: the cost of one exploration of a textbook program
// per strategy (dpor pays for observing every event, and saves
// executions).
func BenchmarkSystematic(b *testing.B) {
	p := indexer(3, 2, 6)
	for _, c := range []struct {
		name string
		st   func() strategy.Strategy
	}{
		{"dfs-1000", func() strategy.Strategy { return strategy.NewDFS(0) }},
		{"dpor", func() strategy.Strategy { return dpor.NewOptimal(0) }},
		{"dpor-source", func() strategy.Strategy { return dpor.NewSource(0) }},
		{"pcb1-1000", func() strategy.Strategy { return strategy.NewPCB(1, 0) }},
		{"dpor-K1", func() strategy.Strategy { return dpor.NewBounded(1, 0) }},
		{"hapset", func() strategy.Strategy { return hapsetOn("dpor", hapset.NewHaPSets()) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r := runSystematic(b, c.st(), p, 1000)
				b.ReportMetric(float64(r.executions), "executions/op")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(r.executions*(i+1)), "ns/execution")
			}
		})
	}
}

// TestBoundedDPOR: dpor bounded to K preemptions reaches every outcome
// that pcb reaches with the same bound (Coons et al. 2013: conservative
// backtracking keeps what the bound allows), for K = 0, 1, 2.
func TestBoundedDPOR(t *testing.T) {
	for _, p := range smallTextbooks() {
		p := p
		t.Run(p.name, func(t *testing.T) {
			for k := 0; k <= 2; k++ {
				pcb := runSystematic(t, strategy.NewPCB(k, 0), p, 100000)
				bd := dpor.NewBounded(k, 0)
				dp := runSystematic(t, bd, p, 100000)
				t.Logf("K=%d: bounded dpor %d executions, %d outcomes; pcb %d, %d outcomes", k, dp.executions, len(dp.outcomes), pcb.executions, len(pcb.outcomes))
				if !pcb.exhausted || !bd.Bounded() {
					t.Fatalf("K=%d: not covered within the bound: pcb %v, dpor %v", k, pcb.exhausted, bd.Bounded())
				}
				for _, o := range pcb.outcomes {
					if !contains(dp.outcomes, o) {
						t.Errorf("K=%d: pcb reaches %q, bounded dpor does not (it reaches %q)", k, o, dp.outcomes)
					}
				}
			}
		})
	}
}

// TestOptimalDPOR: dpor with wakeup trees reaches exactly the outcomes
// and the Mazurkiewicz traces of dpor with source sets and covers its
// space, on the small textbook programs and on larger ones (where dfs
// cannot finish: TestSystematicSoundness compares both with dfs where it
// does). The executions of each are in docs/systematic.md.
func TestOptimalDPOR(t *testing.T) {
	progs := dporTextbooks()
	for _, p := range progs {
		p := p
		t.Run(p.name, func(t *testing.T) {
			src := runSystematic(t, dpor.CountTraces(dpor.NewSource(0)), p, 100000)
			od := dpor.NewOptimal(0)
			opt := runSystematic(t, dpor.CountTraces(od), p, 100000)
			t.Logf("optimal: %d executions, %d traces, %d sleep-blocked, %d diverged; source sets: %d executions, %d traces", opt.executions, opt.traces, opt.blocked, od.Diverged, src.executions, src.traces)
			if !opt.exhausted || opt.finding != "" {
				t.Fatalf("optimal: exhausted %v after %d, finding %q", opt.exhausted, opt.executions, opt.finding)
			}
			if strings.Join(opt.outcomes, "|") != strings.Join(src.outcomes, "|") {
				t.Errorf("outcomes %q, source sets %q", opt.outcomes, src.outcomes)
			}
			if opt.traces != src.traces {
				t.Errorf("%d traces, source sets %d", opt.traces, src.traces)
			}
		})
	}
}

// splitDPOR explores p with dpor split into rounds (as between
// processes), its jobs run in this process; shuffle, if set, reorders
// the jobs of each round.
func splitDPOR(t testing.TB, p textbook, optimal bool, limit int, shuffle func([]*dpor.Job)) (sysResult, *dpor.LocalRounds) {
	return splitBoundedDPOR(t, p, optimal, -1, limit, shuffle)
}

// splitBoundedDPOR is splitDPOR bounded to bound preemptions (negative:
// none).
func splitBoundedDPOR(t testing.TB, p textbook, optimal bool, bound, limit int, shuffle func([]*dpor.Job)) (sysResult, *dpor.LocalRounds) {
	t.Helper()
	lr := dpor.NewLocalRounds(optimal, bound, limit)
	lr.Shuffle = shuffle
	lr.Encode = shuffle != nil // as between processes
	r := runSystematic(t, dpor.CountTraces(dpor.NewJobs(lr, optimal, bound, 0)), p, limit)
	r.exhausted, r.blocked = lr.Complete(), lr.SleepBlocked
	if bound >= 0 {
		r.exhausted = lr.Bounded() // every schedule within the bound
	}
	return r, lr
}

// TestSplitDPOR: dpor split into rounds (dporsplit.go), with wakeup trees
// and with source sets, covers its space and reaches exactly the
// outcomes and the Mazurkiewicz traces of the sequential search (of dfs
// where dfs finishes), on the small textbook programs and on larger
// ones; and a round's jobs run in any order, their results encoded and
// decoded as between processes, give the same search.
func TestSplitDPOR(t *testing.T) {
	progs := dporTextbooks()
	for _, p := range progs {
		p := p
		t.Run(p.name, func(t *testing.T) {
			dfs := runSystematic(t, dpor.CountTraces(strategy.NewDFS(0)), p, 100000)
			for _, optimal := range []bool{true, false} {
				seq := dpor.NewSource(0)
				if optimal {
					seq = dpor.NewOptimal(0)
				}
				want := runSystematic(t, dpor.CountTraces(seq), p, 100000)
				got, lr := splitDPOR(t, p, optimal, 100000, nil)
				t.Logf("optimal %v: split %d executions (%d rounds, %d jobs, %d sleep-blocked), sequential %d; %d traces", optimal, got.executions, lr.Rounds, lr.Jobs, got.blocked, want.executions, got.traces)
				if !got.exhausted || got.finding != "" {
					t.Fatalf("optimal %v: covered %v after %d, finding %q", optimal, got.exhausted, got.executions, got.finding)
				}
				if strings.Join(got.outcomes, "|") != strings.Join(want.outcomes, "|") || got.traces != want.traces {
					t.Errorf("optimal %v: %d traces, outcomes %q; sequential %d, %q", optimal, got.traces, got.outcomes, want.traces, want.outcomes)
				}
				if dfs.exhausted && !p.selects() && got.traces != dfs.traces {
					t.Errorf("optimal %v: %d traces, dfs %d", optimal, got.traces, dfs.traces)
				}
				rng := rand.New(rand.NewSource(int64(len(p.name))))
				again, _ := splitDPOR(t, p, optimal, 100000, func(jobs []*dpor.Job) {
					rng.Shuffle(len(jobs), func(a, b int) { jobs[a], jobs[b] = jobs[b], jobs[a] })
				})
				if again.executions != got.executions || again.traces != got.traces || strings.Join(again.outcomes, "|") != strings.Join(got.outcomes, "|") {
					t.Errorf("optimal %v: jobs in another order: %d executions, %d traces; in theirs %d, %d", optimal, again.executions, again.traces, got.executions, got.traces)
				}
			}
		})
	}
}

// TestSplitBoundedDPOR: bounded dpor split into rounds reaches the
// traces and the outcomes of the sequential search, and so every outcome
// of pcb with the same bound (TestBoundedDPOR); its executions may
// differ (the conservative backtracking marks the last context switch of
// the path it is on, which the rounds reach in another order).
func TestSplitBoundedDPOR(t *testing.T) {
	for _, p := range smallTextbooks() {
		p := p
		t.Run(p.name, func(t *testing.T) {
			for k := 0; k <= 2; k++ {
				seq := runSystematic(t, dpor.CountTraces(dpor.NewBounded(k, 0)), p, 100000)
				got, lr := splitBoundedDPOR(t, p, false, k, 100000, nil)
				t.Logf("K=%d: split %d executions, sequential %d", k, got.executions, seq.executions)
				if got.traces != seq.traces || strings.Join(got.outcomes, "|") != strings.Join(seq.outcomes, "|") || !got.exhausted {
					t.Errorf("K=%d: split %d traces, outcomes %q, covered %v; sequential %d, %q", k, got.traces, got.outcomes, got.exhausted, seq.traces, seq.outcomes)
				}
				if lr.Jobs < 2 && got.executions > 1 {
					t.Errorf("K=%d: %d jobs: nothing was split", k, lr.Jobs)
				}
			}
		})
	}
}

// TestSystematicOneOffPoll: a goroutine that polls a channel once (a
// select with default) goes on at once natively. The systematic searches
// once passed it over at the next point, as if it had yielded, and so
// never ran its read lock before the other goroutine's write lock: dpor
// said it covered every interleaving of a program with a data race (the
// unguarded write before Lock against the read under RLock).
func TestSystematicOneOffPoll(t *testing.T) {
	body := func() {
		var rw sync.RWMutex
		x := 0
		c := MakeChan[int](0, 0)
		done := MakeChan[struct{}](0, 0)
		Go(func() {
			sel := SelectStart(tb(50))
			SelectRecv[int](sel, c)
			sel.Do(true)
			RLock(&rw, tb(51))
			Read(&x, tb(52))
			_ = x
			RUnlock(&rw, tb(53))
			Close(done, tb(54))
		}, tb(55))
		Write(&x, tb(56))
		x = 1
		RWLock(&rw, tb(57))
		RWUnlock(&rw, tb(58))
		Recv(done, tb(59))
	}
	for _, s := range []string{"dfs", "dpor"} {
		rep, err := Explore(t.Name(), Options{Strategy: s, Schedules: 10000, ScheduleDir: "-"}, body)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != "data race" {
			t.Errorf("%s: %q after %d schedules (covered every interleaving: %v), want a data race", s, rep.Kind, rep.Schedules, rep.Exhausted)
		}
	}
}

// yieldRace is the shrunk program of difftest's seed 460: goroutine 2
// writes b and then takes mu; goroutine 3 yields before it closes the
// channel the test waits on, which then takes mu and writes b. The
// writes race when the test takes mu first, which needs goroutine 3's
// yield to come before goroutine 2's write: the yield passes goroutine 3
// over at the next point, where goroutine 2 then runs. spin polls a
// channel twice with select-default instead, whose second poll yields.
func yieldRace(spin bool) func() {
	return func() {
		var b int
		var mu sync.Mutex
		joined := MakeChan[struct{}](1, tb(10))
		Go(func() {
			Write(&b, tb(11))
			Lock(&mu, tb(12))
			Unlock(&mu, tb(13))
			Send(joined, struct{}{}, tb(14))
		}, tb(15))
		done := MakeChan[struct{}](0, tb(16))
		never := MakeChan[struct{}](1, tb(17))
		Go(func() {
			if spin {
				for i := 0; i < 2; i++ {
					sel := SelectStart(tb(18))
					SelectRecv[struct{}](sel, never)
					sel.Do(true)
				}
			} else {
				Gosched(tb(19))
			}
			Close(done, tb(20))
		}, tb(21))
		Recv(done, tb(22))
		Lock(&mu, tb(23))
		Unlock(&mu, tb(24))
		Write(&b, tb(25))
		Recv(joined, tb(26))
	}
}

// TestDPORYield: a runtime.Gosched, and a poll that repeats, pass their
// goroutine over at the next point (fair), so a step of another goroutine
// comes right after them: dpor must place them before each step of the
// others, not only where they are independent of them. It said
// "verified" in 4 executions on both, where dfs finds the race.
func TestDPORYield(t *testing.T) {
	for _, spin := range []bool{false, true} {
		for i, st := range []strategy.Strategy{strategy.NewDFS(0), dpor.NewSource(0), dpor.NewOptimal(0)} {
			res := sched.Explore(sched.Config{Strategy: st, Schedules: 5000, Race: true, StuckAfter: 10 * time.Second}, yieldRace(spin))
			if res.Finding == nil || res.Finding.Kind != sched.KindRace {
				t.Errorf("%s, spin %v: %v after %d executions (whole space %v), want the data race", []string{"dfs", "dpor -dpor source", "dpor"}[i], spin, res.Finding, res.Iterations, res.Exhausted)
			}
		}
	}
}
