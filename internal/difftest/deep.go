package difftest

import "math/rand"

// Deep bugs. The Bug forms of the first generator were shallow: a lossy
// channel read, found by every randomized strategy within a few schedules,
// and every goroutine joined. The defects users hit were deeper: dpor
// said "verified" where a goroutine blocked on a send after the select
// that should have received it took a context's Done (a leak only an
// interleaving reaches), a lock-order inversion, a writer arriving between
// two read locks of one goroutine. deepen adds one such bug to the Bug
// form of half the programs that have one, drawn with a generator of its
// own: the Safe and Racy forms, and the programs of earlier seeds, stay
// as they were. Each bug is Bug-only statements (Code "") placed at random
// in two goroutines, on objects of their own (BugDecls), so that no other
// statement can take part in it: every other statement holds at most one
// lock at a time and never waits while holding it.

// deepSeed separates the generator of the deep bugs from the program's.
const deepSeed = 0x5eed_dee9

// deepBugs are the deep bugs, each a function adding it to p.
var deepBugs = []struct {
	kind string
	add  func(p *Program, r *rand.Rand, a, b int)
}{
	{"deep.abandonedsender", func(p *Program, r *rand.Rand, a, b int) {
		// The receiver gives up when the context is cancelled, by another
		// goroutine; the sender, never joined, then blocks forever: a leak.
		p.BugDecls = append(p.BugDecls, "actx, acancel := context.WithCancel(context.Background()); _ = actx; defer acancel()")
		insert(p, r, a, Stmt{Kind: "deep.abandonedsender", Bug: "{ ab := make(chan int); go func() { ab <- 1 }(); select { case v := <-ab: acc += v; case <-actx.Done(): } }"})
		insert(p, r, b, Stmt{Kind: "deep.cancel", Bug: "acancel()"})
	}},
	{"deep.lockorder", func(p *Program, r *rand.Rand, a, b int) {
		// Two locks taken in opposite orders: a deadlock when each
		// goroutine holds its first.
		p.BugDecls = append(p.BugDecls, "var lo1, lo2 sync.Mutex; _, _ = &lo1, &lo2")
		insert(p, r, a, Stmt{Kind: "deep.lockorder", Bug: "lo1.Lock(); lo2.Lock(); acc++; lo2.Unlock(); lo1.Unlock()"})
		insert(p, r, b, Stmt{Kind: "deep.lockorder", Bug: "lo2.Lock(); lo1.Lock(); acc++; lo1.Unlock(); lo2.Unlock()"})
	}},
	{"deep.recursiverlock", func(p *Program, r *rand.Rand, a, b int) {
		// A goroutine read-locks twice (the second time through
		// RLocker, or through a sync.Cond's L that is one); a writer that
		// arrives between the two waits for the first, and the second
		// waits for the writer: a deadlock.
		p.BugDecls = append(p.BugDecls, "var rrw sync.RWMutex; _ = &rrw")
		second := []string{"rrw.RLock(); acc++; rrw.RUnlock()", "rrw.RLocker().Lock(); acc++; rrw.RLocker().Unlock()", "{ cd := sync.NewCond(rrw.RLocker()); cd.L.Lock(); acc++; cd.L.Unlock() }"}[r.Intn(3)]
		insert(p, r, a, Stmt{Kind: "deep.recursiverlock", Bug: "rrw.RLock(); " + second + "; rrw.RUnlock()"})
		insert(p, r, b, Stmt{Kind: "deep.writer", Bug: "rrw.Lock(); acc++; rrw.Unlock()"})
	}},
	{"deep.doubleclose", func(p *Program, r *rand.Rand, a, b int) {
		// Check-then-act on a channel: both goroutines see it open, both
		// close it: a panic.
		p.BugDecls = append(p.BugDecls, "quit := make(chan struct{}); _ = quit")
		const stop = "select { case <-quit: default: close(quit) }"
		insert(p, r, a, Stmt{Kind: "deep.doubleclose", Bug: stop})
		insert(p, r, b, Stmt{Kind: "deep.doubleclose", Bug: stop})
	}},
}

// deepen adds a deep bug to p's Bug form, for half the seeds, between two
// of its n goroutines (and the program keeps to 40 statements).
func deepen(p *Program, n int) {
	r := rand.New(rand.NewSource(p.Seed ^ deepSeed))
	if r.Intn(2) == 0 || p.Size()-len(p.Pre)+2 > 40 {
		return
	}
	a := r.Intn(n)
	b := (a + 1 + r.Intn(n-1)) % n
	d := deepBugs[r.Intn(len(deepBugs))]
	d.add(p, r, a, b)
}

// insert puts s at a random place among the statements of goroutine gi.
func insert(p *Program, r *rand.Rand, gi int, s Stmt) {
	st := p.Gs[gi].Stmts
	i := r.Intn(len(st) + 1)
	st = append(st, Stmt{})
	copy(st[i+1:], st[i:])
	st[i] = s
	p.Gs[gi].Stmts = st
}
