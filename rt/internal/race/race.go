// Package race is a happens-before data race detector with vector clocks
// and FastTrack epochs (Flanagan and Freund, PLDI 2009): each variable keeps
// the epoch of its last write and, while its reads are totally ordered, the
// epoch of its last read, falling back to a read vector clock only when
// concurrent reads appear. Synchronization objects carry vector clocks
// that goroutines acquire and release. Goroutines and synchronization
// objects keep their vector clocks as tree clocks (TreeClock), so that a
// synchronization costs about the entries it changes rather than the
// number of goroutines.
//
// Memory is shadowed per 8-byte word, as in Go's race detector: each
// access names a word and the bytes of it that it touches (a mask), and
// two accesses conflict only when their bytes overlap. A word accessed
// always with the same bytes keeps one state; the first access with
// different bytes splits it into one state per byte. Atomic accesses are
// accesses too: an atomic never races with an atomic, but races with an
// unordered plain access to overlapping bytes.
//
// The detector is driven by the scheduler, which calls it from the one
// running goroutine: it does no locking of its own.
package race

// vc is a vector clock indexed by goroutine id: the read clocks of a
// location whose reads are concurrent.
type vc []uint32

func grow(v vc, n int) vc {
	for len(v) < n {
		v = append(v, 0)
	}
	return v
}

// Access is one side of a race: who accessed, where, and how.
type Access struct {
	G      int32
	Site   uint32
	Write  bool
	Atomic bool
}

// Race is a pair of accesses to one location, at least one a write, not
// ordered by happens-before.
type Race struct {
	Var  int32  // the location's object id
	Prev Access // the earlier access
	Cur  Access // the access that revealed the race
}

// FullWord is the mask of an access to all 8 bytes of a word.
const FullWord uint8 = 0xff

// varState is the history of one location. Every word a program touches
// has one (a copy of a large slice, millions), and few ever see
// concurrent reads: their read clocks are apart, in reads.
type varState struct {
	w       uint32 // clock of the last write (0: none)
	wg      int32
	wsite   uint32
	r       uint32 // clock of the last read in exclusive mode
	rg      int32
	rsite   uint32
	split   int32 // 1 + index of the per-byte states in Detector.splits (0: none)
	watomic bool
	ratomic bool  // the exclusive read was atomic
	shared  bool  // reads are in reads
	mask    uint8 // the bytes every access so far touched (0: none yet)
	// reads is 1 + the index in Detector.reads of the read clocks in
	// shared mode, 0 until the location first has concurrent reads; kept,
	// empty, once it is back to exclusive mode, for its storage. No two
	// states share one. An index, not a pointer: the states are free of
	// pointers, which the garbage collector then does not scan.
	reads int32
}

// readSet is the read clocks of a location whose reads are concurrent.
type readSet struct {
	rvc    vc // read clocks, by goroutine id
	rsites []uint32
	rat    []bool // which reads of rvc were atomic
}

// empty makes s empty, keeping its storage.
func (s *readSet) empty() {
	s.rvc, s.rsites, s.rat = s.rvc[:0], s.rsites[:0], s.rat[:0]
}

// readSet returns v's read clocks, which it gets if it has none. The
// pointer is good until the next call.
func (d *Detector) readSet(v *varState) *readSet {
	if v.reads == 0 {
		d.reads = append(d.reads, readSet{})
		v.reads = int32(len(d.reads))
	}
	return &d.reads[v.reads-1]
}

// reset clears v, keeping its storage.
func (d *Detector) reset(v *varState) {
	if v.reads != 0 {
		d.reads[v.reads-1].empty()
	}
	*v = varState{reads: v.reads}
}

// copyState makes v a deep copy of the access history of src.
func (d *Detector) copyState(v, src *varState) {
	d.reset(v)
	rs := v.reads
	*v = *src
	v.split, v.mask = 0, 0
	v.reads = rs
	if src.reads != 0 {
		dst := d.readSet(v)
		s := &d.reads[src.reads-1]
		dst.rvc = append(dst.rvc, s.rvc...)
		dst.rsites = append(dst.rsites, s.rsites...)
		dst.rat = append(dst.rat, s.rat...)
	}
}

// Detector holds the clocks of one iteration.
type Detector struct {
	clocks []TreeClock // indexed by goroutine id
	// syncs holds the clocks of synchronization objects by object id,
	// in pages of syncPage, allocated on first use: ids number memory
	// words too, and a lock made after a program touched millions of
	// words has a number in the millions.
	syncs  [][]TreeClock
	vars   []varState // indexed by object id
	splits [][8]varState
	reads  []readSet // the read clocks of states (varState.reads)
}

// New returns an empty detector.
func New() *Detector { return &Detector{} }

// Reset forgets everything, keeping storage for the next iteration.
func (d *Detector) Reset() {
	for i := 1; i < len(d.clocks); i++ {
		d.clocks[i].Init(int32(i))
	}
	for _, p := range d.syncs {
		for i := range p {
			p[i].Reset()
		}
	}
	for i := range d.reads {
		d.reads[i].empty()
	}
	for i := range d.vars {
		v := &d.vars[i]
		*v = varState{reads: v.reads}
	}
	for i := range d.splits {
		for b := range d.splits[i] {
			v := &d.splits[i][b]
			*v = varState{reads: v.reads}
		}
	}
	d.splits = d.splits[:0]
}

// clock returns the clock of goroutine g.
func (d *Detector) clock(g int32) *TreeClock {
	if int(g) < len(d.clocks) {
		return &d.clocks[g]
	}
	return d.startClocks(g)
}

// startClocks makes room for the clocks of goroutines up to g and returns
// g's.
func (d *Detector) startClocks(g int32) *TreeClock {
	n := len(d.clocks)
	d.clocks = extend(d.clocks, int(g)+1)
	for i := max(n, 1); i <= int(g); i++ {
		d.clocks[i].Init(int32(i))
	}
	return &d.clocks[g]
}

// extend lengthens s to n. The detector never shortens its slices of
// clocks: the elements past their length are zero.
func extend(s []TreeClock, n int) []TreeClock {
	if n <= cap(s) {
		return s[:n]
	}
	return append(s[:cap(s)], make([]TreeClock, n-cap(s))...)
}

// Spawn starts goroutine child from parent (0: the test's main goroutine,
// which has no parent): everything parent did happens before child starts.
// Goroutine ids start at 1, and every goroutine starts with a Spawn,
// which makes its own entry at least 1 before it learns anything.
func (d *Detector) Spawn(parent, child int32) {
	if parent > child {
		d.clock(parent) // grow d.clocks first: c must not move
	}
	c := d.clock(child)
	c.Increment() // first: what child learns is attached at its new entry
	if parent > 0 {
		p := d.clock(parent)
		c.Join(p)
		p.Increment()
	}
}

// syncPage is the number of clocks of a page of Detector.syncs.
const syncPage = 256

func (d *Detector) sync(obj int32) *TreeClock {
	n := int(obj) / syncPage
	if n >= len(d.syncs) {
		d.syncs = lengthen(d.syncs, n+1)
	}
	p := d.syncs[n]
	if p == nil {
		p = make([]TreeClock, syncPage)
		d.syncs[n] = p
	}
	return &p[int(obj)%syncPage]
}

// Acquire makes everything released into obj happen before g's next step.
func (d *Detector) Acquire(g, obj int32) {
	d.clock(g).Join(d.sync(obj))
}

// Release makes g's past happen before every later Acquire of obj.
func (d *Detector) Release(g, obj int32) {
	d.ReleaseClock(g, d.sync(obj))
}

// AcquireClock makes everything released into v happen before g's next
// step. v is a clock owned by the caller (a channel's buffer position,
// ...), the zero TreeClock at first.
func (d *Detector) AcquireClock(g int32, v *TreeClock) {
	d.clock(g).Join(v)
}

// ReleaseClock makes g's past happen before every later AcquireClock of v.
func (d *Detector) ReleaseClock(g int32, v *TreeClock) {
	c := d.clock(g)
	v.MonotoneCopy(c)
	c.Increment()
}

// AcquireRelease is an atomic read-modify-write: both at once.
func (d *Detector) AcquireRelease(g, obj int32) {
	d.Acquire(g, obj)
	d.Release(g, obj)
}

func (d *Detector) state(obj int32) *varState {
	for int(obj) >= len(d.vars) {
		if len(d.vars) < cap(d.vars) {
			d.vars = d.vars[:len(d.vars)+1]
		} else {
			d.vars = append(d.vars, varState{})
		}
	}
	return &d.vars[obj]
}

// Read records a plain read of all of the word obj by g and returns the
// race it completes, if any.
func (d *Detector) Read(g int32, obj int32, site uint32) *Race {
	return d.Access(g, obj, FullWord, false, false, site)
}

// Write records a plain write of all of the word obj by g and returns the
// race it completes, if any.
func (d *Detector) Write(g int32, obj int32, site uint32) *Race {
	return d.Access(g, obj, FullWord, true, false, site)
}

// Access records an access by g to the bytes mask (bit i: byte i) of the
// 8-byte word obj, a write or a read, atomic or plain, and returns the
// race it completes, if any.
func (d *Detector) Access(g int32, obj int32, mask uint8, write, atomic bool, site uint32) *Race {
	c := d.clock(g)
	v := d.state(obj)
	if v.split == 0 {
		if v.mask == mask {
			// FastTrack's fast path: nothing new in this epoch.
			now := c.clk[g]
			if write {
				if v.wg == g && v.w == now && (atomic || !v.watomic) {
					return nil
				}
			} else if !v.shared && v.rg == g && v.r == now && (atomic || !v.ratomic) {
				return nil
			}
			return d.check(v, obj, c, g, write, atomic, site)
		}
		if v.mask == 0 {
			v.mask = mask
			return d.check(v, obj, c, g, write, atomic, site)
		}
		d.splitWord(v)
	}
	bs := &d.splits[v.split-1]
	for b := 0; b < 8; b++ {
		if mask&(1<<b) != 0 {
			if r := d.check(&bs[b], obj, c, g, write, atomic, site); r != nil {
				return r
			}
		}
	}
	return nil
}

// splitWord gives v one state per byte, each a copy of v's history for the
// bytes v's accesses touched.
func (d *Detector) splitWord(v *varState) {
	if len(d.splits) < cap(d.splits) {
		d.splits = d.splits[:len(d.splits)+1]
	} else {
		d.splits = append(d.splits, [8]varState{})
	}
	v.split = int32(len(d.splits))
	bs := &d.splits[v.split-1]
	for b := range bs {
		if v.mask&(1<<b) != 0 {
			d.copyState(&bs[b], v)
		} else {
			d.reset(&bs[b])
		}
	}
}

// check is FastTrack on one location, with atomic accesses that do not
// race with each other.
func (d *Detector) check(v *varState, obj int32, c *TreeClock, g int32, write, atomic bool, site uint32) *Race {
	now := c.clk[g]
	if write {
		if v.wg == g && v.w == now && (atomic || !v.watomic) {
			return nil // same epoch, nothing new
		}
	} else if !v.shared && v.rg == g && v.r == now && (atomic || !v.ratomic) {
		return nil
	}
	cur := Access{G: g, Site: site, Write: write, Atomic: atomic}
	if v.w != 0 && v.wg != g && v.w > c.Get(v.wg) && !(atomic && v.watomic) {
		return &Race{Var: obj, Prev: Access{G: v.wg, Site: v.wsite, Write: true, Atomic: v.watomic}, Cur: cur}
	}
	if !write {
		return d.read(v, c, g, now, atomic, site)
	}
	// A write: every read must happen before it, except atomic reads for
	// an atomic write, which stay recorded.
	keep := false
	if v.shared {
		rs := &d.reads[v.reads-1]
		for t, rc := range rs.rvc {
			if int32(t) != g && rc > c.Get(int32(t)) {
				if !(atomic && rs.rat[t]) {
					return &Race{Var: obj, Prev: Access{G: int32(t), Site: rs.rsites[t], Atomic: rs.rat[t]}, Cur: cur}
				}
				keep = true
			}
		}
		if !keep {
			v.shared = false
			rs.empty()
			v.r, v.rg = 0, 0
		}
	} else if v.r != 0 && v.rg != g && v.r > c.Get(v.rg) {
		if !(atomic && v.ratomic) {
			return &Race{Var: obj, Prev: Access{G: v.rg, Site: v.rsite, Atomic: v.ratomic}, Cur: cur}
		}
	} else {
		v.r, v.rg = 0, 0
	}
	v.w, v.wg, v.wsite, v.watomic = now, g, site, atomic
	return nil
}

// read records a read that races with no write.
func (d *Detector) read(v *varState, c *TreeClock, g int32, now uint32, atomic bool, site uint32) *Race {
	if v.shared {
		rs := &d.reads[v.reads-1]
		n := int(g) + 1
		rs.rvc = grow(rs.rvc, n)
		for len(rs.rsites) < n {
			rs.rsites = append(rs.rsites, 0)
			rs.rat = append(rs.rat, false)
		}
		if rs.rvc[g] == now && !rs.rat[g] {
			atomic = false // a plain read in this epoch covers an atomic one
		}
		rs.rvc[g], rs.rsites[g], rs.rat[g] = now, site, atomic
		return nil
	}
	if v.r == 0 || v.rg == g || v.r <= c.Get(v.rg) {
		v.r, v.rg, v.rsite, v.ratomic = now, g, site, atomic
		return nil
	}
	// Two unordered reads: switch to a read vector clock.
	v.shared = true
	rs := d.readSet(v)
	n := int(g) + 1
	if int(v.rg)+1 > n {
		n = int(v.rg) + 1
	}
	rs.rvc = grow(rs.rvc[:0], n)
	for len(rs.rsites) < n {
		rs.rsites = append(rs.rsites, 0)
		rs.rat = append(rs.rat, false)
	}
	rs.rvc[v.rg], rs.rsites[v.rg], rs.rat[v.rg] = v.r, v.rsite, v.ratomic
	rs.rvc[g], rs.rsites[g], rs.rat[g] = now, site, atomic
	return nil
}
