// Package sched is the scheduler core: controlled goroutines that run one
// at a time, the model of every blocking primitive (channels, select, sync,
// virtual time), choice points handed to a strategy, the iteration
// lifecycle, and the scheduler's own findings (deadlock, leak, panic,
// livelock, data race through the race detector).
//
// Scheduling is a handoff between the goroutines: there is no scheduler
// goroutine that decides. The running goroutine reports its pending
// operation, asks the strategy who runs next and, if that is another
// goroutine, hands the schedule over: it switches to the chosen
// coroutine directly, or wakes the chosen goroutine through its
// semaphore channel and parks on its own (Stoller's semaphore approach,
// papers/randomized-scheduling-java.txt, section 2; handoff.go). All
// scheduler state is touched only by the one running goroutine; the
// handoffs order those touches.
//
// # One goroutine at a time, handed on
//
// There is no scheduler goroutine
// that decides: the running goroutine reports its pending event, computes
// the options, asks the strategy, and if another goroutine was chosen,
// hands the schedule to it (`handoff.go`). Controlled goroutines run on
// coroutines (Go's runtime coroutines, through `iter.Pull`). A coroutine
// object is a slot where one goroutine is parked, and any goroutine that
// calls its next or yield function parks there in its place and resumes
// it: the holder hands the schedule over by entering the slot the chosen
// goroutine is parked in, one coroutine switch, no run queue, no other
// thread. Each goroutine remembers where it is parked, so who is parked in
// whose slot rotates. A coroutine's goroutine (a worker, which runs one
// controlled goroutine after another from the explorer's pool) that ends
// resumes whoever is parked in its own slot, and makes it exit if it ended
// through `runtime.Goexit`; so a worker ends (a goroutine of it ended
// through `runtime.Goexit`, was unwound, or the exploration is over) only
// once a stand-in of the scheduler's is parked in its home, whoever was
// there moved first. The channel handoff of Stoller's semaphore approach
// (wake the chosen goroutine through its one-slot channel, park on one's
// own) stays for what cannot be a coroutine: goroutines adopted from
// uncontrolled code, goroutines spawned on a locked thread, a coroutine
// parking while its thread is locked (a cgo callback), every goroutine of
// a program that calls `runtime.LockOSThread` (instrumented files that
// refer to it call `rt.LocksThreads` as the program starts: a coroutine
// cannot end on a locked thread), `INTERLEAVE_HANDOFF=channel`, and Go
// before 1.23. Between a coroutine and a goroutine outside the coroutines
// stands a hub, a goroutine of the explorer's: it enters the chosen
// coroutine's slot for a goroutine on a channel (or the explorer), and a
// coroutine resumes a hub parked in a slot to wake a goroutine on its
// channel, to give the schedule up, or to end the iteration. All
// scheduler state is touched by the one running goroutine only (or a hub
// between two of them); the handoffs order those touches.
// `TestHandoffsAgree` and `TestDirectSwitchAgreesWithChannels` check that
// both handoffs explore the same schedules, event for event;
// docs/performance.md has the costs.
//
// # Identity
//
// `sched.Current()` finds the calling goroutine's `G` through the
// runtime's per-goroutine profiler-label slot (two linknamed accessors that
// the Go runtime keeps for this purpose) and checks it against the caller's
// g pointer (`getg_amd64.s`, `getg_arm64.s`), in a few nanoseconds; it also
// adds to the iteration's gate (the progress count the watchdog reads).
// Code running outside an exploration gets `nil` and runs natively. The
// coroutine of a sequence pulled with `iter.Pull` (`rt.Pull`) runs only
// while the goroutine that resumed it waits in the switch: it is bound to
// that goroutine's `G` (descriptor and id) while it runs, and is that
// goroutine, never adopted (`pull.go`).
//
// # Adoption
//
// (`adopt.go`). A goroutine started by code the tool did not
// instrument (an `httptest` server's connection goroutine) inherits its
// creator's label; when it first reaches `Current` its g pointer gives it
// away and it is adopted: it waits until the goroutine holding the schedule
// is blocked natively outside the runtime (a stack dump says so; the test
// goroutine waiting in `http.Get`) or until nothing controlled can run while
// goroutines are away, takes the schedule over (a compare-and-swap on the
// gate, so the holder's next entry sees it lost the schedule), and gets the
// next id. A holder that keeps running is asked to make way at its next
// operation. The goroutine that lost the schedule is *out* until it comes
// back to the runtime the same way.
//
// # Blocking natively
//
// (`adopt.go`, `reap`). Code the tool does not control (a socket, a file,
// a system call, the standard library's own locks and channels) blocks
// natively, and the goroutine it waits for may be one the scheduler keeps
// parked: the other end of a loopback TCP or TLS connection, a server
// goroutine, a reader draining an OS pipe. When the goroutine holding the
// schedule has stayed blocked natively (or in a system call) for 20ms, the
// explorer takes the schedule from it (it is out) and hands it to the
// goroutine the strategy chooses, in every iteration, adopted goroutines or
// not. The goroutine comes back as one that was out: at its next entry
// into the runtime it takes the schedule over when the holder is away or
// makes way. Who runs while it is away is the schedule's; the point where
// it comes back, relative to what the others do meanwhile, is timing's
// (docs/limitations.md). A goroutine is told apart in a stack dump by the
// runtime's id of the goroutine that runs it (recorded as it starts: the
// worker's, for a coroutine), never by its frames alone, so a goroutine
// abandoned by an earlier test that is still blocked natively is never
// taken for this test's. Stuck is reported when nothing moved for
// `StuckAfter`: the holder stayed in running code, or nobody held the
// schedule and no goroutine came back; the report shows the stacks of the
// goroutines of this iteration only. When nothing controlled can run and
// the next timer is the only option, it waits up to 50ms for goroutines
// away to come back before the explorer fires it (`heldTimer`): a peer
// over a socket answers in real time, and firing the timeout at once would
// be a failure no native run shows. A coroutine that parks goes to the
// goroutine it handed the schedule to (`worker.next`), never it.held,
// which an arrival may take once nobody holds it; when it gives the
// schedule up, the hub it resumes does so once it is parked. A coroutine
// switched out is the scheduler's, never away. Entering from uncontrolled code is ordered
// after the previous holder and every goroutine out (the request is written
// before the handler reads it, the response before the client reads it).
// When the test returns, adopted goroutines away in net/http are neither
// waited for nor unwound (they are not ours: they go on natively); one
// parked inside the runtime is unwound with `Goexit` like any other, which
// net/http treats as a handler that ended. The methods of the runtime's
// contexts (`CurrentNoAdopt`) never adopt: net/http's own goroutines call
// them.
//
// # Events and options
//
// An event is (goroutine, op, object, site); objects
// are numbered in order of first use by an event within an iteration, so
// ids mean the same thing in every run of a schedule (the further words an
// access covers have the race detector's numbers only: how many words a
// value of less than 8 bytes spans depends on where the allocator put it,
// which differs between processes). Memory words are numbered apart, from
// -1 down (shown as variable#1, #2, ...), and the event hash leaves their
// numbers out: the allocator packs small values made by two calls (the
// flag of each of two runs of a helper) into one word or two depending on
// what the process allocated before, so whether a first access finds a
// known word differs between the exploring process and a fresh one
// (kernel mpc-sentinel under pcb was once called not safe to run twice for
// that; `TestReplayWithSmallVariablesSharingAWord`). Memory objects are 8-byte words:
// `rt.Read`/`rt.Write` take the access size from the pointee type (a struct
// copy covers every word of the struct), the event names the first word,
// and the race detector checks every word covered with a byte mask. An
// atomic operation is also an access to its bytes: it never races with
// another atomic, but does with an unordered plain access. At a thread choice point the options
// are the enabled goroutines with their pending events, plus, when a timer is
// pending, the option "the earliest timer fires now" (goroutine 0). Select
// statements with several ready cases are a second kind of choice point. Only
// points with more than one option are choices; a schedule is the list of
// choices (`wire.Schedule`).
//
// # The enabled set
//
// (`runq.go`) is kept incrementally, so that a
// scheduling point costs the same whatever the number of goroutines. A
// ready goroutine sits in one set: the run queue, or the group of the lock
// (Mutex, an RWMutex's writer side, a Once being run) its pending
// operation waits for, when the lock was held as it arrived; one that
// arrived while the lock was free is in the run queue and noted on the
// lock, and moves to the group when the lock is taken. Taking or
// releasing a lock closes or opens its group instead of disabling or
// enabling each waiter; open groups are listed (one of at most four
// members goes back to the run queue). Each set keeps an array (the i-th
// enabled goroutine) and its members' keys, the step at which each last
// ran (the fairness rule's longest passed over), lazily: in a queue for
// the keys that arrive in order, the common case, and a heap for the
// others, neither of which reads a goroutine's descriptor to compare;
// the goroutines that yielded since the last switch are a short list. A strategy that implements
// `strategy.Indexed` (random, dfs, replay, pct) reads a thread point
// through `Point.Len`/`At`/`Find` on that set, in an order that depends
// only on the iteration's history (the timer last); any other gets the
// options listed, sorted by goroutine id, from a scan of every goroutine
// as before. The package's and rt's tests check the set against that scan
// at every point. Exited goroutines are compacted out of the live list
// when they are half of it.
//
// A point where the goroutine that reached it goes on takes a fast path
// (`Iteration.goesOn`) when its options are plainly the run queue (no
// timer, no goroutine out of the schedule, no yield, nobody starved): if
// the goroutine is the only one ready, it goes on with no choice; if a
// strategy implements `strategy.GoerOn` (random), it is asked first
// whether the goroutine goes on, and only a switch collects the options.
// Under the tests' check of the set, the fast path checks its
// preconditions against the options collected the usual way.
//
// # Models
//
// Blocking primitives never block natively:
//   - channels keep their own buffer and FIFO queues of waiting senders and
//     receivers (the real channel only gives identity, and is closed natively
//     too so uninstrumented waiters wake); values travel as slot numbers into a
//     typed slab per channel, so nothing allocates in the steady state;
//   - select evaluates readiness over all cases, parks on all of them when none
//     is ready, and the first partner wins;
//   - channels order happens-before as the Go memory model says: a send before
//     the receive of its value, the k-th receive before the (k+C)-th send
//     completes (clocks per buffer position, shared beyond 64 positions, which
//     can only add order), a close before a receive that sees it; a send and a
//     close that nothing orders race, as in Go's race detector;
//   - `Mutex` is modeled by enabledness (any waiter may win, as in the real
//     unfair mutex); `RWMutex` follows the real algorithm (a writer announces
//     itself and blocks new readers, readers blocked behind a writer are
//     admitted together before the next writer); `Cond` uses tickets (a signal
//     between enqueue and park is not lost); `WaitGroup` follows Go's race
//     build (only `Done` releases; an `Add` from zero reads and the first
//     blocking `Wait` writes the WaitGroup's semaphore, so an `Add` unordered
//     with `Wait` races; a waiter that resumes to a nonzero counter panics as
//     reused; the `Add` that takes the counter to zero while goroutines wait
//     is two steps, its atomic add and the reset that wakes the waiters, and an
//     `Add` from zero in between panics "Add called concurrently with Wait",
//     as in Go); `Once` (persisting across iterations like a real package-level
//     `Once`), `sync.Map` and atomics are scheduling points with
//     happens-before edges;
//   - `sync.Pool` (`sched/pool.go`): a `Get` returns any pooled object or a
//     fresh one from `New`, a choice of the schedule (a `Select`-kind choice
//     point, case 0 for fresh), and a `Put` happens before the `Get` that
//     returns its object, as in Go's race build;
//   - time is virtual (starts at the exploration's epoch (`epoch.go`): one millisecond after the
//     latest time the program read natively before the process's first
//     exploration, so that durations measured from it are as short as in a
//     real run and the same in every process whatever the load, or, when it
//     read none, the wall-clock time the exploration began moved on to the
//     next whole second; advances 500ns
//     per scheduling point, since code takes time to run, and jumps when a
//     timer fires);
//     timers, tickers (dropping ticks while their channel is full), AfterFunc,
//     context deadlines, Go 1.23 timer-channel semantics. A timer fires when
//     its time has come, when nothing else can run, or when the goroutines
//     that can run have only polled for 20,000 points (see Progress below);
//     before that, firing it early is a choice only as the timer policy
//     allows (below, `time.go`);
//   - contexts made inside an exploration are the runtime's own (`rt/context.go`);
//   - `io.Pipe` and `net.Pipe` are the standard library's algorithms
//     (io/pipe.go, net/pipe.go) written over the modeled channels, mutexes
//     and AfterFunc timers (`rt/pipe.go`, `rt/netpipe.go`): a Write waits in
//     the model for the reads that consume it, deadlines are virtual;
//   - `testing/synctest`: inside an exploration `synctest.Test` runs its
//     function in the calling goroutine and keeps the bubble's promise (the
//     clock stands still while code runs, no timer fires before its time),
//     and `synctest.Wait` yields until no other goroutine can run.
//
// # Timer policy
//
// (`-timers`, `-stall`). Firing a timer before its time,
// while goroutines could still run, assumes those goroutines stalled that
// long. Go allows any stall, but well-tested suites assume some do not
// happen: a test's one-second watchdog around work that always finishes, a
// sleep that "lets the goroutines above block", a deadline polled right
// after it was set. The default, `stall`, follows testing/synctest (time
// moves when the goroutines are blocked) except where a timeout races with
// work: a timer may fire early only to wake a select that also waits on
// other channels (a timer channel, or a context deadline's Done channel,
// `Timer.Wakes`) or to run an AfterFunc callback, and only when it is due
// within `-stall` (default 10ms, the Go scheduler's time slice: a
// runnable goroutine waits that long for another's slice on a busy
// machine; the 100ms and 1s timeouts tests put around quick work assume
// longer stalls); never into a poll, never for a sleep or a
// lone wait on a timer. The early option comes last among the options, so
// DFS tries schedules without a stall first; a report whose schedule used
// one says which timer fired how early (`EarlyTimer`). `eager` (any timer,
// any time) and `idle` (never early, `-stall 0`) remain. The measurements
// behind the choice are in docs/real-modules.md.
//
// # Fairness
//
// The Go scheduler is fair (preemption, `Gosched`), so the
// options are too: a goroutine that yields (`Gosched`, or a poll that
// repeats: a select that took its default, or a failed `TryLock`, at the
// site of one of its last two failed polls) is passed over at the next
// point when another can run, and one that was passed over for 1000 points
// is forced. A one-off poll does not yield, as natively: the goroutine may
// go on at once (a search that passed it over missed the schedules where
// it does). The rule
// depends only on the iteration's history, so replay and DFS stay exact.
// Without it DFS and PCT would report livelocks in correct spin loops.
//
// # Progress
//
// (`progress.go`). The iteration makes progress when something
// happens that can change what a polling goroutine sees: a channel
// operation, a lock handoff (taken by another goroutine than the last one),
// a write, an atomic store or update, a goroutine started or exited, a timer
// fired. A read, an atomic load, a select that took its default, a failed
// TryLock, `Gosched` or a clock read is a poll, and counts as progress only
// the first time it touches its object since the last progress (a scan of a
// large structure progresses, rereading a flag does not). Two rules rest on
// it, both functions of the iteration's history: when the runnable
// goroutines have only polled for 20,000 points (many times the fairness
// bound, so every one had its turns), the earliest timer fires, as real time
// passes while a goroutine spins; when they have only polled for `-steps`
// points (default 1,000,000) with no timer pending, and polled at most 64
// locations since the last progress (a spin loop rereads a flag or a few
// fields; a loop that rereads a whole data structure ends by local state
// the tool does not see; a goroutine that polls alone gets 8 times the
// points, since nothing but its own count can end its loop; and when more
// than three goroutines share the spell, half their number times the
// points, so that each has its share of the bound), the
// iteration is a livelock, or, once the test
// has returned, a leak of goroutines that spin for good. A run that is merely long is never reported as a livelock (the
// budget and the resource bounds below still end it).
//
// # Findings
//
// Deadlock (nothing enabled, no timer, test not returned); leak
// (after the test returns, the remaining goroutines run, with up to 1s of
// virtual time, and those still blocked are reported); data race (the race
// detector on every read/write event); panic (recovered at the top of every
// goroutine, with its stack); fatal error (unlock of an unlocked mutex);
// test failure (`t.Error` family through `rt`; a `t.Error`, `t.Fatal` or
// `t.Fail` from a goroutine after the test returned is the panic Go raises,
// "Fail in goroutine after TestX has completed"); exit (`os.Exit` or
// `log.Fatal` called by a controlled goroutine: the call, its status and
// the goroutine's stack, where the process would otherwise end with a bare
// FAIL; outside an exploration, as in `TestMain`, they exit natively);
// livelock (goroutines that only polled, few locations, for `-steps` points
// with no progress and no timer pending, named in the report; after the
// test returned, a leak of goroutines still running);
// stuck (a goroutine inside uncontrolled code makes no progress for
// `StuckAfter`; the watchdog in the explorer notices it); resource limit
// (more live goroutines than `-goroutines`, more choice points than
// `-choices`, whose list is kept for the schedule file, more tracked objects
// than `-objects`, memory words being objects of the race detector, or a
// first schedule
// still running when `-budget` runs out: the explorer's watchdog sets a flag
// that the next scheduling point reads; a later schedule cut by the budget
// is dropped, and the exploration ends with the ones before it; where a
// schedule is cut by the wall clock is not in the schedule, so its replay
// runs past that point and reports a divergence). With the
// event trace bounded to its last 65,536 events, these bound an iteration's
// memory, except the descriptors of exited goroutines, which the iteration
// keeps until its end.
//
// A finding names its objects as the source does at the site of the event
// it describes (names.go): a blocked goroutine waits "in Lock on from.mu
// (Mutex#3)", a race is a "read of c.n (variable#12)", and
// Finding.ObjectName gives "from.mu#3" for an event of the trace; where
// the site names nothing, the kind and number alone.
//
// # Iteration end
//
// The explorer (the real test goroutine) waits for the
// iteration, then unwinds every goroutine still parked: it is woken with an
// abort flag and exits through `runtime.Goexit`, so its deferred calls run,
// and any `rt` operation they reach unwinds too instead of touching the next
// iteration. Blocked goroutines capture their stacks on the way out when the
// iteration has a finding.
//
// # Replay and determinism
//
// A running FNV hash of executed events is kept;
// a replay that follows the recorded choices must also reproduce the hash.
// A choice the schedule does not have, a run that ends early, or a different
// hash is reported as a divergence ("the code changed, or depends on
// something the tool does not control"), never as a finding; when the file has a bug signature, the message suggests
// `interleave regress FILE` (regression mode, below).
package sched
