// Package event defines the event model shared by the scheduler, the
// strategies and the detectors: one visible operation of one goroutine,
// reported before it happens, and the one definition of when two events
// conflict.
package event

// Op is the kind of a visible operation.
type Op uint8

// The operations. Obj names the object an operation touches; Site its
// static source position.
const (
	OpNone Op = iota
	OpStart
	OpResume
	OpSpawn
	OpExit
	OpRead
	OpWrite
	OpAtomicLoad
	OpAtomicStore
	OpAtomicRMW
	OpLock
	OpUnlock
	OpTryLock
	OpRLock
	OpRUnlock
	OpTryRLock
	OpWLock
	OpWUnlock
	OpTryWLock
	OpWGAdd
	OpWGWait
	OpOnce
	OpCondWait
	OpCondSignal
	OpCondBroadcast
	OpMakeChan
	OpSend
	OpRecv
	OpClose
	OpChanLen
	OpSelect
	OpSleep
	OpTimerNew
	OpTimerStop
	OpTimerReset
	OpTimerFire
	OpNow
	OpYield
	OpMapRead
	OpMapWrite
	OpCancel
	OpProcessExit
	OpPoolGet
	OpPoolPut
	OpEnter // a goroutine enters the schedule from code the tool does not control
	numOps
)

var opNames = [numOps]string{
	OpNone: "none", OpStart: "start", OpResume: "resume", OpSpawn: "go", OpExit: "exit",
	OpRead: "read", OpWrite: "write",
	OpAtomicLoad: "atomic load", OpAtomicStore: "atomic store", OpAtomicRMW: "atomic update",
	OpLock: "Lock", OpUnlock: "Unlock", OpTryLock: "TryLock",
	OpRLock: "RLock", OpRUnlock: "RUnlock", OpTryRLock: "TryRLock",
	OpWLock: "Lock", OpWUnlock: "Unlock", OpTryWLock: "TryLock",
	OpWGAdd: "WaitGroup.Add", OpWGWait: "WaitGroup.Wait", OpOnce: "Once.Do",
	OpCondWait: "Cond.Wait", OpCondSignal: "Cond.Signal", OpCondBroadcast: "Cond.Broadcast",
	OpMakeChan: "make chan", OpSend: "send", OpRecv: "receive", OpClose: "close", OpChanLen: "len",
	OpSelect: "select", OpSleep: "sleep",
	OpTimerNew: "timer start", OpTimerStop: "timer stop", OpTimerReset: "timer reset", OpTimerFire: "timer fires",
	OpNow: "time.Now", OpYield: "yield", OpMapRead: "sync.Map read", OpMapWrite: "sync.Map write",
	OpCancel: "context cancel", OpProcessExit: "os.Exit", OpPoolGet: "Pool.Get", OpPoolPut: "Pool.Put",
	OpEnter: "enter from uncontrolled code",
}

func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return "op?"
}

// Event is one visible operation of one goroutine.
type Event struct {
	G    int32  // goroutine id, numbered from 1 in creation order; 0 for the timer
	Op   Op     // what it does
	Obj  int32  // the object touched, numbered from 1 in order of first use in the iteration (memory words from -1 down); 0 for none
	Site uint32 // static source position (an rt.Site)
}

// ObjNumber is the number an object is shown by: memory words are
// numbered from -1 down, apart from the other objects, and shown from 1
// up, as "variable#1".
func ObjNumber(obj int32) int32 {
	if obj < 0 {
		return -obj
	}
	return obj
}

// Modifies reports whether an operation changes the state of its object.
func (o Op) Modifies() bool {
	switch o {
	case OpRead, OpAtomicLoad, OpMapRead, OpChanLen, OpNow, OpNone, OpStart, OpResume, OpYield:
		return false
	}
	return true
}

// Global reports whether e conflicts with every event of another
// goroutine, whatever it touches. The time operations and a timer firing
// read or change the virtual clock, which every scheduling point advances
// (a time.Now, a Sleep's deadline or a timer being due depends on how many
// events ran before it, not only on which); os.Exit and the return of the
// test's main goroutine (goroutine 1) end what the others can still do (a
// t.Error after it panics); a goroutine entering from uncontrolled code
// arrives where timing puts it; a runtime.Gosched passes its goroutine
// over at the next scheduling point (the scheduler's fairness), so what
// the others can do right after it depends on where it comes. Being
// conservative here only costs a reducing strategy executions.
func (e Event) Global() bool {
	switch e.Op {
	case OpNow, OpSleep, OpTimerNew, OpTimerStop, OpTimerReset, OpTimerFire, OpProcessExit, OpEnter, OpYield:
		return true
	case OpExit:
		return e.G == 1
	}
	return false
}

// Conflicts reports whether a and b are dependent: they are performed by
// different goroutines (the timer, G == 0, counts as one) and either one
// of them is Global, or they touch the same object and at least one of
// them changes it. Two read-locks of one RWMutex do not conflict; every
// other pair of synchronization operations on one object does (lock
// against lock, send against receive, Add against Wait, ...). Swapping two
// conflicting events can change the outcome; swapping two independent
// ones cannot (Flanagan and Godefroid 2005, section 2: independent
// transitions neither enable nor disable each other and commute). DPOR,
// HaPSets, race detection and active testing all use this one definition.
func Conflicts(a, b Event) bool {
	if a.G == b.G {
		return false
	}
	if a.Global() || b.Global() {
		return true
	}
	if a.Obj == 0 || a.Obj != b.Obj {
		return false
	}
	if a.Op == OpRLock && b.Op == OpRLock {
		return false
	}
	return a.Op.Modifies() || b.Op.Modifies()
}

// Key is the name of an operation in schedule files' bug signatures: the
// name String gives, except that the operations String names alike (the
// Lock of a Mutex and of an RWMutex) get distinct keys.
func (o Op) Key() string {
	switch o {
	case OpWLock:
		return "RWMutex.Lock"
	case OpWUnlock:
		return "RWMutex.Unlock"
	case OpTryWLock:
		return "RWMutex.TryLock"
	}
	return o.String()
}

// ParseOp returns the operation whose Key is k.
func ParseOp(k string) (Op, bool) {
	for o := OpNone; o < numOps; o++ {
		if o.Key() == k {
			return o, true
		}
	}
	return OpNone, false
}
