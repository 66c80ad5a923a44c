// Package hapset is the HaPSet-guided systematic search (Wang, Said and
// Gupta, ICSE 2011, papers/hapset-coverage-guided-systematic-testing.txt)
// and its store of what passing schedules covered.
//
//   - `hapset` (`hapset.go`, `hapsets.go`): the HaPSet-guided search (Wang,
//     Said, Gupta 2011) over dpor or pcb. It observes every event, names
//     each by its statement (site plus `-hapset-k` innermost call sites,
//     taken from the goroutine's stack in `Pending`; sites are hashed by
//     file, line and column so that names survive a rebuild), and learns
//     the pairs (statement of another goroutine's last conflicting access,
//     statement) of every passing run, after `-hapset-learn` random runs
//     when the store is empty. dpor's race reversal (`DPOR.guide`) is taken
//     only when the order it would show is not in the store; on pcb
//     (`-hapset-search pcb`) the search is dpor bounded to K preemptions,
//     whose backtrack points are races too, as in the paper's framework.
//     Covered pairs are no proof (a race may need an order of pairs each
//     seen before): once the guided search has no uncovered ordering
//     left, random runs use the rest of the schedule budget. The store (`HaPSets`, at most 2^20 pairs)
//     is loaded and saved by `rt` per package and test under
//     `<cache>/hapset` (`wire.Config.HaPSetDir`, set by the driver),
//     merged with what another process saved there, written atomically.
package hapset
