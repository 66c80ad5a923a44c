// Package dpor is dynamic partial-order reduction: the DPOR family of
// systematic searches (source sets, wakeup trees, a preemption bound) and
// the split of a search into rounds of jobs between processes.
//
//   - `dpor` (`dpor.go`, `hb.go`): stateless dynamic partial-order reduction
//     with sleep sets (Flanagan and Godefroid 2005) and source sets (Abdulla
//     et al. 2014). It observes every event, keeps vector clocks of the
//     Mazurkiewicz happens-before order (conflict order, program order, and
//     who started or woke whom), and when the next step of a goroutine races
//     with an executed transition, adds one initial of the reversed sequence
//     (the goroutine itself when it can run there; none when one is there
//     already or sleeps there; every option when none is an option there)
//     to the backtrack set of the choice point before the transition. A transition
//     is what one goroutine does between two choice points. Select and
//     sync.Pool choices (local nondeterminism) are explored fully, and the
//     timer is a goroutine whose firing conflicts with everything. `Complete`
//     says whether the reduced space was covered. By default (`-dpor
//     optimal`, `NewOptimal`, `wakeup.go`) the backtrack set is a wakeup
//     tree (optimal DPOR, Abdulla et al. 2014, section 6): a race inserts the
//     whole sequence notdep(j).p that reverses it, one step per operation
//     (a goroutine's start and resume are not steps, an exit belongs to the
//     operation before it), unless a sleeping goroutine or a scheduled leaf
//     is a weak initial of it; the next execution follows the sequence (the
//     executed events are logged for it, up to 2^20 per execution and 1024
//     per sequence, past which a race falls back to source sets), and
//     diverges to every option of the next choice point where the program
//     does not let it. In that mode every race of a pending step counts (two
//     RLocks race with one Unlock side by side), and a waiting Lock races
//     with the acquire before the Unlock that frees it. `-dpor source` keeps
//     source sets alone. With `-preemptions K`
//     (`NewBounded`) it is bounded partial-order reduction (Coons et al.
//     2013): options beyond K preemptions are not explored, a reversal that
//     needs a preemption also schedules the goroutine at the last context
//     switch before it, the current goroutine goes on by default, and no
//     sleep sets are kept.
package dpor
