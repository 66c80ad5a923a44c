package wire

// The messages between strategy mpc (maximal path causality, in the test
// binary) and its solver (interleave-solver, the process that answers
// MCRQuery too). A line of the solver's input is an MCRQuery, or an
// MPCQuery when it has the field "mpc"; an MPCQuery is answered with an
// MPCAnswer.
//
// The model is section 4.2 of Yi and Huang, "Concurrency verification
// with maximal path causality" (FSE 2018): a path is, for each thread,
// the sequence of outcomes of its branches whose conditions depend on
// the inputs or on values read from shared memory; a path prefix keeps
// of each thread the outcomes of its first branches. For a prefix p of
// the path of the trace, MPC(p) = sync AND pc AND dc over the subtrace of
// p (each thread's events up to its last branch in p; a thread that p
// keeps whole, all of them):
//
//   - sync: the constraints of MCRQuery (program order, MCREvent.After,
//     lock mutual exclusion, shared regions) over the subtrace's events;
//     an event of the subtrace that must follow an event outside it
//     makes p unsatisfiable, and its thread and the other's are the core;
//   - pc: each branch of p holds as it went in the trace, except the last
//     of a cut thread that is negated (MPCCut.Negate);
//   - dc: every read that a condition (or a symbolic write) uses returns
//     the value of the last write to its bytes before it in the
//     subtrace, or the location's initial value; a write's value is the
//     one it wrote in the trace, or its symbolic value (MPCWrite). The
//     values of the other reads are free: a path, not a state, is the
//     equivalence class.
//
// Inputs are integers within their type's range (MPCInput); terms are
// evaluated over mathematical integers (a sum that wraps around in Go
// does not in the model; a prefix that relies on it departs when run,
// and is counted).
//
// The answer to a satisfiable prefix is the order of the subtrace's
// events (each thread's events in program order) and an input; to an
// unsatisfiable one, the threads whose path conditions are in an
// unsatisfiable core (section 4.3.2, strategy S2, extends the prefix
// along the others).

// MPCQuery asks for schedules and inputs that take the prefixes of one
// trace's path.
type MPCQuery struct {
	// MPC is always true: it tells the solver the line is an MPCQuery.
	MPC bool `json:"mpc"`
	// Trace is the run's trace, as for MCRQuery; its read and write
	// values are the concrete ones of the run.
	Trace MCRTrace `json:"trace"`
	// Inputs are the symbolic inputs of the run: one per argument of the
	// fuzz body, in order (an integer or a boolean; the length of a string
	// or []byte; fixed for other types), then the bytes of string inputs
	// that terms read.
	Inputs []MPCInput `json:"inputs,omitempty"`
	// Writes are the writes whose value depends on inputs or reads.
	Writes []MPCWrite `json:"writes,omitempty"`
	// Branches are the symbolic branches of the run, each thread's in
	// program order.
	Branches []MPCBranch `json:"branches,omitempty"`
	// Prefixes are the path prefixes to solve.
	Prefixes []MPCPrefix `json:"prefixes"`
	// TimeoutMillis bounds each prefix's check (0: 10000); BudgetMillis
	// the whole query (0: none), as for MCRQuery.
	TimeoutMillis int `json:"timeout_ms,omitempty"`
	BudgetMillis  int `json:"budget_ms,omitempty"`
}

// MPCInput is a symbolic input: an integer in [Min, Max] (a boolean is 0
// or 1), whose value in the run was Value.
type MPCInput struct {
	Min   int64 `json:"min"`
	Max   int64 `json:"max"`
	Value int64 `json:"v"`
}

// MPCTerm ops.
const (
	TermConst = "c" // the integer V
	TermInput = "i" // input number V
	TermRead  = "r" // the value Read read
	// TermIte is Args[1] when the boolean Args[0] holds, else Args[2]
	// (the byte of a string input at a symbolic index).
	TermIte = "ite"
	// Arithmetic over integers: "+", "-", "*" (two or more arguments),
	// "neg" (one). Comparisons of two integers, a boolean each: "==",
	// "!=", "<", "<=", ">", ">=". Booleans: "&&", "||" (two or more),
	// "!" (one). An integer where a boolean is needed is true when it is
	// not 0; a boolean where an integer is needed is 1 or 0.
)

// MPCTerm is a symbolic value: a constant, an input, the value a read
// returned, or an operation on terms.
type MPCTerm struct {
	Op   string    `json:"op"`
	V    int64     `json:"v,omitempty"`
	Read *MPCRead  `json:"read,omitempty"`
	Args []MPCTerm `json:"args,omitempty"`
}

// MPCRead names a value read from memory: bytes [Off, Off+Size) of the
// location of access Acc of event Event (a read access), as a signed or
// unsigned little-endian integer.
type MPCRead struct {
	Event  int32 `json:"e"`
	Acc    int32 `json:"a"`
	Off    uint8 `json:"off,omitempty"`
	Size   uint8 `json:"size"`
	Signed bool  `json:"signed,omitempty"`
}

// MPCWrite gives a write access its symbolic value: access Acc of event
// Event wrote Value to bytes [Off, Off+Size) of its location.
type MPCWrite struct {
	Event int32   `json:"e"`
	Acc   int32   `json:"a"`
	Off   uint8   `json:"off,omitempty"`
	Size  uint8   `json:"size"`
	Value MPCTerm `json:"value"`
}

// MPCBranch is a symbolic branch of thread T: its condition, which the
// run evaluated to Taken, after the thread's event After (-1: before its
// first).
type MPCBranch struct {
	T     int32   `json:"t"`
	After int32   `json:"after"`
	Cond  MPCTerm `json:"cond"`
	Taken bool    `json:"taken,omitempty"`
}

// MPCPrefix is a path prefix of the trace's path: each thread listed in
// Cuts keeps its first N branches (and its events up to the N-th: none
// when N is 0), the N-th negated when Negate; the others are kept whole,
// all their events and branches as they went.
type MPCPrefix struct {
	Cuts []MPCCut `json:"cuts,omitempty"`
}

// MPCCut cuts thread T's path after its N-th branch (see MPCPrefix).
// With Until > 0 the thread keeps its events before event Until instead
// (and N must be the number of its branches before that event, none of
// them negated): a thread that cannot go further because an event it
// must follow is not in the subtrace (a join of a goroutine another cut
// stops) keeps what it did before.
type MPCCut struct {
	T      int32 `json:"t"`
	N      int32 `json:"n"`
	Negate bool  `json:"neg,omitempty"`
	Until  int32 `json:"until,omitempty"`
}

// MPCResult answers one prefix: MCRSat with the subtrace's events in a
// feasible order and the input (one value per MPCInput); MCRUnsat with
// the threads whose path conditions an unsatisfiable core holds; or
// MCRUnknown with a Reason.
type MPCResult struct {
	Status string  `json:"status"`
	Prefix []int32 `json:"prefix,omitempty"`
	Inputs []int64 `json:"inputs,omitempty"`
	Core   []int32 `json:"core,omitempty"`
	Reason string  `json:"reason,omitempty"`
	Micros int64   `json:"us"`
}

// MPCAnswer is the solver's answer to an MPCQuery: one result per prefix,
// in order, or an Error for the whole query.
type MPCAnswer struct {
	Results []MPCResult `json:"results,omitempty"`
	Error   string      `json:"error,omitempty"`
}

// Runs of strategy mpc made in other processes (-workers; section 4.4
// of the paper: a run depends only on its prefix and input, and what the
// search learns from it only on its trace). The test binary that runs the
// search sends a worker an MPCRequest, and the worker answers with the
// MPCRun it made; the search takes the runs in, in the order of its
// queue, as if it had made them itself.

// MCRStep is a step of a plan: an event named across runs by its thread
// and its position in the thread, and the case of the select after it
// (1<<30: none).
type MCRStep struct {
	T    int32 `json:"t"`
	N    int32 `json:"n"`
	Case int   `json:"c"`
}

// MPCOutcome is a branch as a path names it: its site and outcome.
type MPCOutcome struct {
	Site  uint32 `json:"s"`
	Taken bool   `json:"k,omitempty"`
}

// MPCByte names byte J of string input K (the fuzz argument's number)
// and the input N that stands for it.
type MPCByte struct {
	K int `json:"k"`
	J int `json:"j"`
	N int `json:"n"`
}

// MPCItem is a run to make: the plan it follows (the solver's prefix,
// then the rest of the trace it came from), its input, and the path
// prefix it takes, per thread.
type MPCItem struct {
	Steps []MCRStep      `json:"steps,omitempty"`
	Tail  []MCRStep      `json:"tail,omitempty"`
	Input []int64        `json:"input"`
	Pre   [][]MPCOutcome `json:"pre,omitempty"`
}

// MPCRequest asks a worker to make the run of Item, the search's run
// number Run, with what the search numbered so far: its threads (by the
// path of go statements that started each), its inputs, and the bytes of
// string inputs that stand for inputs.
type MPCRequest struct {
	Run    int        `json:"run"`
	Keys   []string   `json:"keys"`
	Inputs []MPCInput `json:"inputs"`
	Bytes  []MPCByte  `json:"bytes,omitempty"`
	Item   MPCItem    `json:"item"`
}

// MPCRun is a run as the search takes it in. Its numbers are the
// worker's: the threads of Keys (the request's first, then those the run
// started), the inputs of Input (the request's first, then the bytes of
// Bytes the run read first); the search renumbers them as its own.
type MPCRun struct {
	Keys     []string       `json:"keys"`
	Path     [][]MPCOutcome `json:"path"`
	From     []int          `json:"from"`
	Branches []MPCBranch    `json:"branches,omitempty"`
	Trace    MCRTrace       `json:"trace"`
	Writes   []MPCWrite     `json:"writes,omitempty"`
	Steps    []MCRStep      `json:"steps"`
	Input    []int64        `json:"input"`
	Bytes    []MPCByte      `json:"bytes,omitempty"`
	// Incomplete lists why the search cannot be complete, as the run
	// shows; Diverged says that it departed from its prefix.
	Incomplete []string `json:"incomplete,omitempty"`
	Diverged   bool     `json:"diverged,omitempty"`
}

// MPCServed is a worker's answer to an MPCRequest: the run it made, or,
// when the run ended with a finding, the finding (its kind, message,
// schedule file and event hash) and the text of its report; or an Error.
type MPCServed struct {
	Run     int     `json:"run"`
	Made    *MPCRun `json:"made,omitempty"`
	Finding *Result `json:"finding,omitempty"`
	Report  string  `json:"report,omitempty"`
	Error   string  `json:"error,omitempty"`
}
