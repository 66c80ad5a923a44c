//line testdata/names.go:1
package names; import __rt "interleave.dev/rt"

import (
	"sync"
	_ "sync/atomic"
)

// Reports name an operation's object as the source does: each site
// registers the text of its operand. A comment "names: K*text, ..." says
// what the sites of its line name (TestOperandNames).

type Options struct{ DeadlockTimeout int }

var Opts Options

type counter struct{ n int }

type segment struct{ misses int }

type store struct {
	mu sync.Mutex
	m  map[string]int
	ch chan int
	wg sync.WaitGroup
	c  *sync.Cond
}

type account struct {
	mu      sync.Mutex
	balance int
}

func transfer(from, to *account, amount int) {
	__rt.Lock(&from.mu, __rtSites_a465cae9+0) // names: l*from.mu
	defer __rt.Unlock(&from.mu, __rtSites_a465cae9+1)
	__rt.Lock(&to.mu, __rtSites_a465cae9+2)
	defer __rt.Unlock(&to.mu, __rtSites_a465cae9+3)
	__rt.Update(&from.balance, __rtSites_a465cae9+18); from.balance -= amount // names: v*from.balance
	__rt.Update(&to.balance, __rtSites_a465cae9+19); to.balance += amount
}

func (c *counter) hit() { __rt.Update(&c.n, __rtSites_a465cae9+20); c.n++ } // names: v*c.n

func (st *store) get(k string) int {
	__rt.Lock(&st.mu, __rtSites_a465cae9+4)
	defer __rt.Unlock(&st.mu, __rtSites_a465cae9+5)
	__rt.Read(&st.m, __rtSites_a465cae9+21); __rt.Read(st.m, __rtSites_a465cae9+22); return st.m[k] // names: v*st.m[k]
}

func timeout() int { __rt.Read(&Opts.DeadlockTimeout, __rtSites_a465cae9+23); return Opts.DeadlockTimeout } // names: v*Opts.DeadlockTimeout

func misses(segs []segment, i int) int { __rt.Read(&segs[i].misses, __rtSites_a465cae9+24); return segs[i].misses } // names: v*segs[i].misses

func (st *store) run(done chan struct{}) {
	__rt.Write(&st.ch, __rtSites_a465cae9+25); st.ch = __rt.MakeChan[int](1, __rtSites_a465cae9+6) // names: c*st.ch
	__rt.WGAdd(&st.wg, 1, __rtSites_a465cae9+7)              // names: w*st.wg
	__rt.Go(func() {
		defer __rt.WGDone(&st.wg, __rtSites_a465cae9+9)
		__rt.Read(&st.ch, __rtSites_a465cae9+33); __rt.Send[int](st.ch, 1, __rtSites_a465cae9+10) // names: c*st.ch
	}, __rtSites_a465cae9+8)
	__rt.WGWait(&st.wg, __rtSites_a465cae9+11)
	__rt.Read(&st.ch, __rtSites_a465cae9+26); { __rtC2, __rtC3 := st.ch, done; __rtSel1 := __rt.SelectStart(__rtSites_a465cae9+12); __rt.SelectRecv[int](__rtSel1, __rtC2); __rt.SelectRecv[struct{}](__rtSel1, __rtC3); switch __rtSel1.Do(false) { // names: c<st.ch, c<done
	case 0: v, _ := __rt.SelectValue[int](__rtSel1);
		_ = v
	default:
	}}
	__rt.Read(&st.c, __rtSites_a465cae9+27); __rt.Read(&st.c.L, __rtSites_a465cae9+28); __rt.LockerLock(st.c.L, __rtSites_a465cae9+13) // names: l*st.c.L
	__rt.Read(&st.c, __rtSites_a465cae9+29); __rt.CondWait(st.c, __rtSites_a465cae9+14)   // names: k*st.c
	__rt.Read(&st.c, __rtSites_a465cae9+30); __rt.Read(&st.c.L, __rtSites_a465cae9+31); __rt.LockerUnlock(st.c.L, __rtSites_a465cae9+15)
	__rt.Read(&st.ch, __rtSites_a465cae9+32); __rt.Close[int](st.ch, __rtSites_a465cae9+16) // names: c*st.ch
}

type tables struct{ byName map[string]map[string][]*counter }

// A long operand is shortened: its start and end, joined by an ellipsis.
func long(t *tables, regionName, counterName string, index int) {
	__rt.Read(&t.byName, __rtSites_a465cae9+34); __rt.Read(t.byName, __rtSites_a465cae9+35); __rt.Read(t.byName[regionName], __rtSites_a465cae9+36); __rt.Read(&t.byName[regionName][counterName][index], __rtSites_a465cae9+37); __rt.Write(&t.byName[regionName][counterName][index].n, __rtSites_a465cae9+38); t.byName[regionName][counterName][index].n = 1 // names: v*t.byName[regionName…ounterName][index].n
}

var hits int64

func count() { __rt.AtomicAddInt64(&hits, 1, __rtSites_a465cae9+17) } // names: v*hits

func copyInto(dst, src []int) { __rt.Copy(dst, src, __rtSites_a465cae9+39); copy(dst, src) } // names: v>dst, v<src

var __rtSites_a465cae9 = __rt.RegisterFile("testdata/names.go", "l*from.mu\nl*from.mu\nl*to.mu\nl*to.mu\nl*st.mu\nl*st.mu\nc*st.ch\nw*st.wg\n\nw*st.wg\nc*st.ch\nw*st.wg\nc<st.ch\tc<done\nl*st.c.L\nk*st.c\nl*st.c.L\nc*st.ch\nv*hits\nv*from.balance\nv*to.balance\nv*c.n\nv*st.m\nv*st.m[k]\nv*Opts.DeadlockTimeout\nv*segs[i].misses\nv*st.ch\nv*st.ch\nv*st.c\nv*st.c.L\nv*st.c\nv*st.c\nv*st.c.L\nv*st.ch\nv*st.ch\nv*t.byName\nv*t.byName[regionName]\nv*t.byName[regionName][counterName]\nv*t.byName[regionName][counterName][index]\nv*t.byName[regionName…ounterName][index].n\nv>dst\tv<src", 34, 2, 35, 8, 36, 2, 37, 8, 45, 2, 46, 8, 55, 10, 56, 2, 57, 2, 58, 9, 59, 9, 61, 2, 62, 2, 67, 2, 68, 2, 69, 2, 70, 2, 82, 16, 38, 2, 39, 2, 42, 27, 47, 9, 47, 9, 50, 29, 52, 49, 55, 2, 63, 14, 67, 2, 67, 2, 68, 2, 69, 2, 69, 2, 70, 8, 59, 3, 77, 2, 77, 2, 77, 2, 77, 2, 77, 2, 84, 33)
