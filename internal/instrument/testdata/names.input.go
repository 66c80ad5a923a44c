package names

import (
	"sync"
	"sync/atomic"
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
	from.mu.Lock() // names: l*from.mu
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= amount // names: v*from.balance
	to.balance += amount
}

func (c *counter) hit() { c.n++ } // names: v*c.n

func (st *store) get(k string) int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.m[k] // names: v*st.m[k]
}

func timeout() int { return Opts.DeadlockTimeout } // names: v*Opts.DeadlockTimeout

func misses(segs []segment, i int) int { return segs[i].misses } // names: v*segs[i].misses

func (st *store) run(done chan struct{}) {
	st.ch = make(chan int, 1) // names: c*st.ch
	st.wg.Add(1)              // names: w*st.wg
	go func() {
		defer st.wg.Done()
		st.ch <- 1 // names: c*st.ch
	}()
	st.wg.Wait()
	select { // names: c<st.ch, c<done
	case v := <-st.ch:
		_ = v
	case <-done:
	}
	st.c.L.Lock() // names: l*st.c.L
	st.c.Wait()   // names: k*st.c
	st.c.L.Unlock()
	close(st.ch) // names: c*st.ch
}

type tables struct{ byName map[string]map[string][]*counter }

// A long operand is shortened: its start and end, joined by an ellipsis.
func long(t *tables, regionName, counterName string, index int) {
	t.byName[regionName][counterName][index].n = 1 // names: v*t.byName[regionName…ounterName][index].n
}

var hits int64

func count() { atomic.AddInt64(&hits, 1) } // names: v*hits

func copyInto(dst, src []int) { copy(dst, src) } // names: v>dst, v<src
