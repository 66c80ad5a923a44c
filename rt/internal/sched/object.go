package sched

import "unsafe"

type objKind uint8

const (
	kindMemory objKind = iota
	kindAtomic
	kindMutex
	kindRWMutex
	kindWaitGroup
	kindOnce
	kindCond
	kindChan
	kindMap
	kindTimer
	kindPool
)

var kindNames = [...]string{
	kindMemory: "variable", kindAtomic: "atomic", kindMutex: "Mutex", kindRWMutex: "RWMutex",
	kindWaitGroup: "WaitGroup", kindOnce: "Once", kindCond: "Cond", kindChan: "channel",
	kindMap: "sync.Map", kindTimer: "timer", kindPool: "Pool",
}

// Kinds of memory an object's address is in (object.memory).
const (
	memUnknown uint8 = iota
	memGo
	memForeign
)

const (
	onceIdle uint8 = iota
	onceRunning
	onceDone
)

// object is the model of one shared object in one iteration. Memory
// words (kindMemory, kindAtomic), the bulk of the objects (a copy of a
// large slice models every word), have only the fields below; the state
// of a synchronization object is in its syncState, which object
// allocates for every other kind (and when a word first seen as memory
// becomes one), so that the code of each kind reaches its fields
// directly.
type object struct {
	id   int32 // the race detector's number (every object has one)
	id2  int32 // a second clock for RWMutex readers; a WaitGroup's semaphore, for the race detector
	eid  int32 // the number events name it by, 0 until one does (eventID)
	kind objKind
	// memory says whether addr is Go's memory (gc.go).
	memory uint8
	addr   unsafe.Pointer // keeps the memory alive while the iteration models it (gc.go)

	// Progress (progress.go): an atomic load polls a memory word too.
	holder int32 // the goroutine that took the lock last
	seen   int   // the progress epoch in which it was last polled

	*syncState // nil for a memory word
}

// syncState is the state of a synchronization object. One struct serves
// every kind; each kind uses its own fields.
type syncState struct {
	// Mutex; RWMutex writer side.
	locked   bool
	owner    int32 // goroutine holding the Mutex or the RWMutex's write lock (for reports)
	wHeld    bool  // RWMutex: a writer holds or awaits the lock (blocks new readers)
	wActive  bool  // RWMutex: a writer holds the lock
	readers  int
	writer   *G   // RWMutex: writer waiting for readers to drain
	rblocked []*G // RWMutex: readers blocked by a writer
	counter  int64
	waiters  []*G // WaitGroup waiters; Cond waiters
	waking   bool // WaitGroup: the Add that took the counter to zero has yet to wake its waiters
	once     uint8
	ch       *chanState
	timer    *timer
	pool     []poolItem // Pool: the objects put and not yet taken

	// The enabled set (runq.go): goroutines waiting for a gated
	// operation on it while it is closed, and those placed in the run
	// queue while it was open.
	group    *gset
	arrivals []*G
}

// poolItem is an object in a sync.Pool, with the clock its Put released.
type poolItem struct {
	v     any
	clock int32
}

// recentSize is the number of entries of Iteration.recent.
const recentSize = 256

// Object returns the model of the object at addr, creating it on first
// use. Object ids number objects in order of first use, so they mean the
// same thing in every run of the same schedule.
func (it *Iteration) object(addr unsafe.Pointer, k objKind) *object {
	r := &it.recent[uintptr(addr)/8%recentSize]
	o := r.o
	ok := o != nil && r.addr == uintptr(addr)
	if !ok {
		if o, ok = it.objs[uintptr(addr)]; ok {
			r.addr, r.o = uintptr(addr), o
		}
	}
	if ok {
		if o.kind != k && k > kindAtomic && o.kind <= kindAtomic {
			// A word first seen through a plain or atomic access (a copy
			// of the struct holding it) becomes the synchronization
			// object it is.
			o.kind = k
			it.toolBegin()
			o.syncState = new(syncState)
			it.toolEnd()
			if (k == kindRWMutex || k == kindWaitGroup) && o.id2 == 0 {
				o.id2 = it.newID()
			}
		}
		return o
	}
	it.toolBegin()
	o = &object{id: it.newID(), kind: k, addr: addr}
	if k > kindAtomic {
		o.syncState = new(syncState)
	}
	if k == kindRWMutex || k == kindWaitGroup {
		o.id2 = it.newID()
	}
	it.objs[uintptr(addr)] = o
	if len(it.objs) > it.x.cfg.MaxObjects {
		it.overLimit = true // step fails the iteration
	}
	it.toolEnd()
	r.addr, r.o = uintptr(addr), o
	return o
}

// eventID returns the number events name o by. Objects are numbered in
// order of their first use by an event, not of their creation: an access
// also creates the objects of the further words it covers, and how many
// words a value of less than 8 bytes spans depends on where the allocator
// put it, which differs between processes (Go packs small allocations
// without pointers). Numbered this way, events mean the same thing, and
// hash the same, in every run of a schedule.
//
// Memory words (plain and atomic) are numbered apart, with negative
// numbers: the allocator also packs two small values made by two calls
// (the flag of each of two runs of a helper) into one word or into two,
// depending on what the process allocated before, so whether a first
// access finds a known word differs between processes. Numbered apart,
// that changes no other object's number; the event hash leaves memory
// words' numbers out (record).
func (it *Iteration) eventID(o *object) int32 {
	if o.eid == 0 {
		if o.kind <= kindAtomic {
			it.nextMemObj--
			o.eid = it.nextMemObj
		} else {
			it.nextEvObj++
			o.eid = it.nextEvObj
		}
	}
	return o.eid
}

func (it *Iteration) newID() int32 {
	it.nextObj++
	return it.nextObj
}

// objectByID finds an object for a report.
func (it *Iteration) objectByID(id int32) *object {
	for _, o := range it.objs {
		if o.id == id || (o.id2 == id && o.id2 != 0) {
			return o
		}
	}
	return nil
}

// objectNames names the objects of the trace kept for a report by their
// kind. Only those: a run over a large data structure has millions of
// memory words, and naming them all took long enough for the watchdog to
// take the report's own work for code stuck outside the tool's control.
func (it *Iteration) objectNames() map[int32]string {
	m := make(map[int32]string)
	for _, ev := range it.trace {
		if ev.Obj != 0 {
			m[ev.Obj] = ""
		}
	}
	for _, o := range it.objs {
		if _, ok := m[o.eid]; ok && o.eid != 0 {
			m[o.eid] = kindNames[o.kind]
		}
	}
	for id, name := range m {
		if name == "" {
			delete(m, id) // a timer or pool: named by the event itself
		}
	}
	return m
}
