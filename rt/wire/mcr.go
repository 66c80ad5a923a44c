package wire

// The messages between strategy mcr (maximal causality reduction, in the
// test binary) and its solver (interleave-solver, a separate process that
// links Z3, so that the runtime stays free of cgo). The test binary starts
// the solver and writes one MCRQuery per line of JSON to its standard
// input; the solver answers each with one MCRAnswer line on its standard
// output, in order.
//
// A trace is what the strategy makes of an execution, in terms that need
// no knowledge of Go: threads, program order, edges that must be kept,
// lock regions, and memory accesses with the values they read and wrote.
// The solver's model (Huang, "Stateless model checking concurrent programs
// with maximal causality reduction", PLDI 2015; and section 2 of Yi and
// Huang, "Concurrency verification with maximal path causality", FSE
// 2018): every event e gets an order variable O_e; for a target read r and
// a value v, the prefix of a new schedule is the set of events e with
// O_e < O_r, plus r. The constraints:
//
//   - program order: each event of a thread after the one before it;
//   - MCREvent.After: each listed event before this one;
//   - lock mutual exclusion: on each lock object, the acquire/release
//     pairs taken in trace order (an acquire with no release after it
//     holds the lock to the end; a release with no open acquire is
//     ignored; an acquire while the lock's last acquire is still open is
//     a malformed trace); of two regions whose acquires are both in the
//     prefix, one ends before the other begins;
//   - data validity: every read access of every event in the prefix other
//     than r returns the value it returned in the trace, and r's access
//     returns v: it reads from a write w to the location whose written
//     bytes cover the read's and equal the value under the read's mask,
//     ordered before the read, with no other write touching the read's
//     bytes in between; or, with no such write before it, the location's
//     initial value (a location with no MCRInit entry has none). A value
//     assembled from several partial writes is not looked for. An event
//     that reads and writes a location reads first, so it never reads
//     from itself. r's other read accesses, if any, are free.
//
// A satisfying assignment gives the new prefix: its events sorted by O
// (ties in trace order).

// MCRKind says what an event of an MCR trace does.
type MCRKind uint8

const (
	// MCROther is an event with no effect the solver models besides its
	// order (edges, program order).
	MCROther MCRKind = iota
	// MCRAccess reads and/or writes memory: MCREvent.Acc.
	MCRAccess
	// MCRAcquire takes the lock MCREvent.Obj.
	MCRAcquire
	// MCRRelease releases the lock MCREvent.Obj.
	MCRRelease
)

// MCREvent is one event of an MCR trace.
type MCREvent struct {
	// T is the thread, 0 to MCRTrace.Threads-1. The events of a thread
	// appear in the trace in program order.
	T int32 `json:"t"`
	// K is what the event does.
	K MCRKind `json:"k,omitempty"`
	// Obj is the lock of an acquire or release.
	Obj int32 `json:"o,omitempty"`
	// Shared marks the acquire or release of a read lock (an RWMutex's
	// RLock and RUnlock): shared critical sections of one lock may
	// overlap; a shared and an exclusive one, or two exclusive ones, may
	// not.
	Shared bool `json:"s,omitempty"`
	// After lists events (indices in MCRTrace.Events, all earlier) that
	// must happen before this one besides its thread's earlier events: the
	// go statement that started the thread, the operation that woke it,
	// the operation before it on an object whose order is kept.
	After []int32 `json:"a,omitempty"`
	// Acc are the memory accesses of an MCRAccess event, all at once
	// (events of the other kinds have none). An event writes a location
	// at most once.
	Acc []MCRMemAccess `json:"m,omitempty"`
}

// MCRMemAccess is an access of an event to one memory location (a word).
type MCRMemAccess struct {
	// Loc is the location.
	Loc int32 `json:"l"`
	// Mask is the bits of the location accessed, byte by byte (all ones:
	// the whole word); never zero. Values are compared under the mask.
	Mask uint64 `json:"k"`
	// Read says that the access reads the location, RV the value it read.
	// An access reads, writes, or both.
	Read bool   `json:"r,omitempty"`
	RV   uint64 `json:"rv,omitempty"`
	// Write says that the access writes the location, WV the value of the
	// location after it (an event that reads and writes reads first).
	Write bool   `json:"w,omitempty"`
	WV    uint64 `json:"wv,omitempty"`
}

// MCRInit is the value of a location before the first write to it.
type MCRInit struct {
	Loc int32  `json:"l"`
	V   uint64 `json:"v"`
}

// MCRTrace is an execution as the solver sees it.
type MCRTrace struct {
	// Threads is the number of threads.
	Threads int `json:"threads"`
	// Events are the events in the order they ran.
	Events []MCREvent `json:"events"`
	// Init gives the initial values of locations.
	Init []MCRInit `json:"init,omitempty"`
}

// MCRTarget asks for a prefix in which access Acc of event Event (a read)
// returns the value Value; or, with Blocked, for a prefix that reaches
// Event, an acquire, while another thread holds its lock: a prefix of the
// events before R = O_Event (Event itself, last, is reached but does not
// run), in which some critical section of the lock in another thread has
// its acquire before R and no release before R. Such a state is where a
// goroutine waits for a lock, the way to a deadlock that no read's value
// shows.
type MCRTarget struct {
	Event   int32  `json:"e"`
	Acc     int32  `json:"a"`
	Value   uint64 `json:"v"`
	Blocked bool   `json:"b,omitempty"`
}

// MCRQuery is one request to the solver: the targets of one trace.
type MCRQuery struct {
	Trace   MCRTrace    `json:"trace"`
	Targets []MCRTarget `json:"targets"`
	// TimeoutMillis bounds each target's check (0: 10000).
	TimeoutMillis int `json:"timeout_ms,omitempty"`
	// BudgetMillis bounds the whole query (0: none): the targets not
	// checked when it runs out are answered MCRUnknown, with the reason
	// MCRBudgetOut.
	BudgetMillis int `json:"budget_ms,omitempty"`
}

// MCR results.
const (
	MCRSat     = "sat"
	MCRUnsat   = "unsat"
	MCRUnknown = "unknown" // timed out or gave up; Reason says why
)

// MCRBudgetOut is the reason of the targets a query's budget left
// unchecked.
const MCRBudgetOut = "the query's time budget ran out"

// MCRResult answers one target.
type MCRResult struct {
	// Status is MCRSat, MCRUnsat or MCRUnknown.
	Status string `json:"status"`
	// Prefix, when Status is MCRSat, lists the events of the new prefix
	// in the order the schedule must run them; the target event is last.
	Prefix []int32 `json:"prefix,omitempty"`
	// Reason explains an unknown result.
	Reason string `json:"reason,omitempty"`
	// Micros is the time the solver spent on the target.
	Micros int64 `json:"us"`
}

// MCRAnswer answers an MCRQuery: one result per target, in order, or an
// error for the whole query (a malformed trace, a solver failure).
type MCRAnswer struct {
	Results []MCRResult `json:"results,omitempty"`
	Error   string      `json:"error,omitempty"`
}

// MCRStats says what strategy mcr (or mpc) asked its solver during the
// exploration of one test: the queries, the targets (mcr: a read and a
// value each; mpc: a path prefix each) and their answers, the time the
// solver took, and why the search could not claim to have covered every
// state or path (empty: it could, or it stopped at a finding or the
// budget). For mpc, Paths counts the distinct paths run and Extended the
// prefixes run because an unsatisfiable core named threads to extend.
type MCRStats struct {
	Queries    int      `json:"queries"`
	Targets    int      `json:"targets"`
	Paths      int      `json:"paths,omitempty"`
	Extended   int      `json:"extended,omitempty"`
	Sat        int      `json:"sat"`
	Unsat      int      `json:"unsat"`
	Unknown    int      `json:"unknown,omitempty"`
	Seconds    float64  `json:"seconds"`
	Diverged   int      `json:"diverged,omitempty"`
	Incomplete []string `json:"incomplete,omitempty"`
}
