// Package strategy holds the search strategies: the deciders consulted at
// every choice point of an iteration. A strategy never touches goroutines;
// it sees the options (enabled goroutines with their pending events, the
// earliest timer, or the ready cases of a select) and returns one.
//
// One interface: `Begin` (false when the space is exhausted), `Choose` at
// each choice point (given the options with their pending events), `End`
// with the outcome. Stateless ones need a seed; systematic ones keep their
// stack across iterations (and get one math/rand seed for every iteration,
// `strategies.Spec.Systematic`). A strategy that needs more than the choice points
// implements the optional `strategy.Observer`: the scheduler then also
// calls `Pending` when a goroutine reaches its next operation (once per
// object: a select for each of its channels, a multi-word access for each
// word), `Executed` for every event that runs (including those at points
// with one option, resumes, exits and timer firings), and `Woke` when the
// running event starts or wakes a goroutine. Strategies that do not
// implement it cost nothing more.
//
//   - `random`: uniform at every choice (Stoller); schedule i draws from a
//     generator seeded from the seed and i.
//   - `coverage` (`coverage.go`): Stoller's coverage heuristic on random:
//     remembers the context switches the exploration made as pairs of sites
//     (where the running goroutine was, where the next one is) and prefers a
//     switch not made yet, uniform when every offered one is; schedules depend
//     on the earlier ones, so it runs in one process.
//   - `pct`: Burckhardt et al. 2010; random priorities, d-1 change points over
//     k choice points, k learned from schedule 1 (its number of choice
//     points); schedule i draws from a generator seeded from the seed and i;
//     the timer is a pseudo-goroutine with its own priority.
//   - `dfs`: exhaustive depth-first enumeration of choice sequences, no
//     reduction; `Complete` says whether the whole space was covered.
//   - `pcb` (`pcb.go`): iterative context bounding (Musuvathi and Qadeer
//     2007): every schedule with at most `-preemptions` K preemptions (a
//     switch away from a goroutine that could go on, the timer included),
//     those with fewer first, each once. `Complete` only when no preemptive
//     alternative was left beyond K.
//   - `replay`: follows a recorded schedule, returns -1 on a mismatch.
//
// Random and pct are `strategy.Independent`: schedule i is a function of
// the seed, i and the program (pct having seen schedule 1), so any process
// can run any schedule (`BeginAt(i)`). dfs and pcb can explore jobs,
// subtrees of their search handed out by a `strategy.Jobs`
// (`NewDFSJobs`, `NewPCBJobs`, `jobs.go`), and dpor jobs of rounds handed
// out by a `dpor.Jobs` (`NewDPORJobs`, `dporsplit.go`): how an
// exploration is split between processes (below).
//
// A strategy that also implements `Observer` is handed every executed event
// (`Executed`, called from `Iteration.record`, in execution order); the
// others cost one nil check per event.
//
// The conflict relation that DPOR, HaPSets, race detection and active testing
// share is `event.Conflicts`: two events of different goroutines on one
// object, one of which changes it (two read-locks commute), or any pair
// where one is `Global` (time operations and timer firings, which depend on
// the virtual clock every scheduling point advances; os.Exit; the test's
// return; an arrival from uncontrolled code). `strategy.CountTraces` counts
// the distinct Mazurkiewicz traces of the executions a strategy runs, the
// yardstick of docs/systematic.md.
package strategy
