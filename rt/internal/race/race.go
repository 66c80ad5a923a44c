// Package race is a happens-before data race detector with vector clocks
// and FastTrack epochs (Flanagan and Freund, PLDI 2009): each variable keeps
// the epoch of its last write and, while its reads are totally ordered, the
// epoch of its last read, falling back to a read vector clock only when
// concurrent reads appear. Synchronization objects carry vector clocks
// that goroutines acquire and release.
//
// The detector is driven by the scheduler, which calls it from the one
// running goroutine: it does no locking of its own.
package race

// VC is a vector clock indexed by goroutine id.
type VC []uint32

func (v VC) get(g int32) uint32 {
	if int(g) < len(v) {
		return v[g]
	}
	return 0
}

func grow(v VC, n int) VC {
	for len(v) < n {
		v = append(v, 0)
	}
	return v
}

// join sets *dst to the pointwise maximum of *dst and src.
func join(dst *VC, src VC) {
	if len(*dst) < len(src) {
		*dst = grow(*dst, len(src))
	}
	d := *dst
	for i, c := range src {
		if c > d[i] {
			d[i] = c
		}
	}
}

// Access is one side of a race: who accessed, where, and how.
type Access struct {
	G     int32
	Site  uint32
	Write bool
}

// Race is a pair of accesses to one location, at least one a write, not
// ordered by happens-before.
type Race struct {
	Var  int32  // the location's object id
	Prev Access // the earlier access
	Cur  Access // the access that revealed the race
}

type varState struct {
	w      uint32 // clock of the last write (0: none)
	wg     int32
	wsite  uint32
	r      uint32 // clock of the last read in exclusive mode
	rg     int32
	rsite  uint32
	shared bool
	rvc    VC // read clocks, in shared mode
	rsites []uint32
}

// Detector holds the clocks of one iteration.
type Detector struct {
	clocks []VC
	syncs  []VC       // indexed by object id
	vars   []varState // indexed by object id
}

// New returns an empty detector.
func New() *Detector { return &Detector{} }

// Reset forgets everything, keeping storage for the next iteration.
func (d *Detector) Reset() {
	for i := range d.clocks {
		d.clocks[i] = d.clocks[i][:0]
	}
	d.clocks = d.clocks[:0]
	for i := range d.syncs {
		d.syncs[i] = d.syncs[i][:0]
	}
	for i := range d.vars {
		v := &d.vars[i]
		rvc, rs := v.rvc[:0], v.rsites[:0]
		*v = varState{rvc: rvc, rsites: rs}
	}
}

func (d *Detector) clock(g int32) *VC {
	for int(g) >= len(d.clocks) {
		if len(d.clocks) < cap(d.clocks) {
			d.clocks = d.clocks[:len(d.clocks)+1]
		} else {
			d.clocks = append(d.clocks, nil)
		}
	}
	c := &d.clocks[g]
	if len(*c) <= int(g) {
		*c = grow(*c, int(g)+1)
	}
	return c
}

// Spawn starts goroutine child from parent (0: the test's main goroutine,
// which has no parent): everything parent did happens before child starts.
func (d *Detector) Spawn(parent, child int32) {
	c := d.clock(child)
	if parent > 0 {
		p := d.clock(parent)
		join(c, *p)
		(*p)[parent]++
	}
	(*c)[child]++
}

func (d *Detector) sync(obj int32) *VC {
	for int(obj) >= len(d.syncs) {
		if len(d.syncs) < cap(d.syncs) {
			d.syncs = d.syncs[:len(d.syncs)+1]
		} else {
			d.syncs = append(d.syncs, nil)
		}
	}
	return &d.syncs[obj]
}

// Acquire makes everything released into obj happen before g's next step.
func (d *Detector) Acquire(g, obj int32) {
	join(d.clock(g), *d.sync(obj))
}

// Release makes g's past happen before every later Acquire of obj.
func (d *Detector) Release(g, obj int32) {
	c := d.clock(g)
	join(d.sync(obj), *c)
	(*c)[g]++
}

// AcquireVC makes everything released into v happen before g's next step.
// v is a clock owned by the caller (a channel's buffer position, ...).
func (d *Detector) AcquireVC(g int32, v *VC) {
	join(d.clock(g), *v)
}

// ReleaseVC makes g's past happen before every later AcquireVC of v.
func (d *Detector) ReleaseVC(g int32, v *VC) {
	c := d.clock(g)
	join(v, *c)
	(*c)[g]++
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

// Read records a read of the location obj by g and returns the race it completes, if
// any.
func (d *Detector) Read(g int32, obj int32, site uint32) *Race {
	c := *d.clock(g)
	now := c[g]
	v := d.state(obj)
	if !v.shared && v.rg == g && v.r == now {
		return nil // same epoch
	}
	if v.w != 0 && v.wg != g && v.w > c.get(v.wg) {
		return &Race{Var: obj, Prev: Access{G: v.wg, Site: v.wsite, Write: true}, Cur: Access{G: g, Site: site}}
	}
	if v.shared {
		v.rvc = grow(v.rvc, int(g)+1)
		for len(v.rsites) < len(v.rvc) {
			v.rsites = append(v.rsites, 0)
		}
		v.rvc[g], v.rsites[g] = now, site
		return nil
	}
	if v.r == 0 || v.rg == g || v.r <= c.get(v.rg) {
		v.r, v.rg, v.rsite = now, g, site
		return nil
	}
	// Two unordered reads: switch to a read vector clock.
	v.shared = true
	n := int(g) + 1
	if int(v.rg)+1 > n {
		n = int(v.rg) + 1
	}
	v.rvc = grow(v.rvc[:0], n)
	for len(v.rsites) < n {
		v.rsites = append(v.rsites, 0)
	}
	v.rvc[v.rg], v.rsites[v.rg] = v.r, v.rsite
	v.rvc[g], v.rsites[g] = now, site
	return nil
}

// Write records a write of the location obj by g and returns the race it completes,
// if any.
func (d *Detector) Write(g int32, obj int32, site uint32) *Race {
	c := *d.clock(g)
	now := c[g]
	v := d.state(obj)
	if v.wg == g && v.w == now {
		return nil
	}
	cur := Access{G: g, Site: site, Write: true}
	if v.w != 0 && v.wg != g && v.w > c.get(v.wg) {
		return &Race{Var: obj, Prev: Access{G: v.wg, Site: v.wsite, Write: true}, Cur: cur}
	}
	if v.shared {
		for t, rc := range v.rvc {
			if int32(t) != g && rc > c.get(int32(t)) {
				return &Race{Var: obj, Prev: Access{G: int32(t), Site: v.rsites[t]}, Cur: cur}
			}
		}
		v.shared = false
		v.rvc = v.rvc[:0]
		v.r, v.rg = 0, 0
	} else if v.r != 0 && v.rg != g && v.r > c.get(v.rg) {
		return &Race{Var: obj, Prev: Access{G: v.rg, Site: v.rsite}, Cur: cur}
	}
	v.w, v.wg, v.wsite = now, g, site
	return nil
}
