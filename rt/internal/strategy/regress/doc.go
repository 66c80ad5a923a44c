// Package regress is regression mode (RegressionMaple: Tsui, Wu and Chan,
// papers/regression-partially-fixed-bugs.txt): bug signatures, the
// similarity of events to them, and the strategy that steers changed code
// toward a similar interleaving.
//
//   - `regression`: steers changed code toward a bug signature
//     (RegressionMaple; below). With `capture` (a replay that takes the call
//     stacks of chosen events) it implements `Observer`: the scheduler tells
//     such a strategy of every pending event, from the goroutine that will
//     perform it (so that the strategy can take its stack), and of every
//     executed event with its trace index.
//
// Was the bug really fixed? After RegressionMaple (Tsui, Wu, Chan).
//
//   - Signature. When an exploration ends in a finding,
//     `sched.Finding.Signature` picks its 2 to 4 triggering events (trace
//     indexes, or the operations goroutines were blocked in), and
//     `explore/signature.go` replays the schedule once in the same process with
//     `Capture`, which takes those events' call stacks; the schedule
//     file (format version 2) gets each event's operation, site, function,
//     function start line, stack, and which events share a goroutine or an
//     object. Replays do not recompute it.
//   - Keeping. `cmd/interleave` copies every schedule file with a
//     signature into `<cache>/signatures/<package>/` after `test` and
//     `regress`; `regress -all` re-checks them.
//   - Steering. `interleave regress FILE [packages]` runs the file's test
//     with `wire.Config.Regress` and the strategy `regression`: similarity by
//     operation, site within a window of lines relative to the function's
//     start (or anywhere), call-stack edit distance, consistent objects and
//     goroutines; the window and distance searched from exact to loose; the
//     goroutines matching later events postponed, those that matched paused,
//     lock acquisitions learned to lead to later events postponed. Every third
//     schedule is left to chance. The result record says at which w and d the
//     last schedule matched (`wire.RegressResult`), and the command prints the
//     verdict: re-exposed (exit 1) or not within the budget (exit 0).
//   - Measuring. `interleave bench -regress docs/regression.md` compares it
//     with random and pct from scratch on every kernel with a partial fix.
package regress
