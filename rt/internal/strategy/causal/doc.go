// Package causal holds the solver-guided searches: maximal causality
// reduction (mcr, Huang 2015) and maximal path causality (mpc, Yi and
// Huang 2018, papers/maximal-path-causality.txt), with the traces they
// encode for the solver.
//
//   - `mcr` (`mcr.go`, `mcrtrace.go`): maximal causality reduction (Huang
//     2015). It implements `strategy.Valuer` too: the scheduler reports the
//     memory of every word an access covers (before it; a write's value at
//     the goroutine's next event), so the strategy records each run as a
//     trace of threads, kept edges, Mutex critical sections and valued
//     accesses (`wire.MCRTrace`), with channels modeled as FIFO (the k-th
//     receive gets the k-th send) and WaitGroups as counters, and every
//     other object, and time, kept in its order. For every read and every
//     other value the trace wrote there, it asks the solver for a prefix in
//     which that read returns that value, every earlier read its old one
//     (`wire.MCRQuery`); each prefix reaching a state not queued before
//     (progress, values read, memory left) is run along the prefix, then
//     along the rest of its trace. Events are named across runs by
//     goroutine and position, the goroutine by the path of go statements
//     that started it; a start, resume or exit rides with the operation the
//     scheduler runs it with. The solver is `interleave-solver`
//     (`cmd/interleave-solver`, `internal/mcr`, `internal/z3`): the one
//     piece that uses cgo (Z3's C API), a process of its own that `rt`
//     starts (`explore/solverpool.go`) and talks to in lines of JSON, so the injected
//     runtime and the command stay free of cgo. The driver builds it from
//     the source the command embeds (`interleave.SolverSource`) into
//     `<cache>/solver/<version>` at the first mcr run (`BuildSolver`),
//     where a missing Z3 is `ErrNoZ3`, exit status 2. `Complete` only when
//     nothing was kept in an order the model does not reason about, no run
//     departed from its prefix and no query was left unknown. See
//     docs/mpc.md.
//   - `mpc` (`mpc.go`): maximal path causality (Yi and Huang 2018), on fuzz
//     bodies. It records a run as mcr does, plus the run's path: the
//     branches whose condition depends on an input or a read, which the
//     instrumented code reports with their conditions as terms
//     (`rt.Branch`; `rt.SymWrite`, `rt.SymSet`, `rt.SymSetAt`,
//     `rt.SymCall`, `rt.SymEnter` carry terms through memory, locals,
//     captured variables and calls; `rt/symbolic.go` resolves their leaves: an
//     input, the value access a of event e read, a local's last term, a
//     constant). At the end of a run driven by prefix pre, split(pre, P)
//     makes the new prefixes (every combination of keeping or cutting and
//     negating each goroutine's new suffix), closed so that a goroutine
//     that would follow an event a cut leaves out keeps what it did before
//     it (`wire.MPCCut.Until`); the solver answers each with an order of the
//     subtrace and an input, or the goroutines of an unsat core, whose
//     relaxation S2 runs when it is satisfiable and new. A run sets the fuzz
//     body's arguments to its input (`fuzzArgs` in `explore/fuzz.go`) and follows
//     its order as mcr's plans are followed; a finding's schedule file holds
//     the input. A test with no integer or boolean arguments runs under
//     mcr. With `-workers N` the runs are made in parallel (section 4.4):
//     End is `Record` (the run's trace, path and writes, `wire.MPCRun`) then
//     `absorb`; while the test binary makes the run at the front of the
//     queue, it hands the next N-1 (`Take`, `wire.MPCRequest`) to copies of
//     itself (`explore/mpcworkers.go`, `wire.Config.MPCWorker`: requests on file
//     descriptor 3, answers on 4), whose searches make one run each
//     (`Serve`), and takes their runs in, in the order of the queue,
//     renumbering threads and string bytes as its own (`Absorb`): the search
//     does not depend on N. See docs/mpc.md.
package causal
