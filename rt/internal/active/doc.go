// Package active is active testing (Joshi, Naik, Park, Sen, "CalFuzzer:
// An Extensible Active Testing Framework for Concurrent Programs",
// papers/calfuzzer-active-testing.txt) on interleave's event model.
//
// Phase 1 (the paper's section 1, "analysis()") observes the executed
// events of a few random runs and predicts bugs that some other schedule
// may show: data races (hybrid lockset and happens-before detection),
// deadlocks (iGoodlock's lock-order cycles, extended to a goroutine that
// holds a mutex while it blocks on a channel, WaitGroup or Cond whose
// partner needs that mutex), atomicity violations (blocks that Lipton's
// reduction cannot make atomic) and lost communications (a plain send or
// receive whose partner was another goroutine's select, which may take
// another case or its default first). Phase 2 (section 2, Algorithms 1 and 2,
// "check()") runs one directed exploration per prediction: a random
// scheduler that pauses a goroutine at a prediction's statement until the
// other participants arrive. Pausing is only a choice among the options of
// a choice point, so every schedule replays with the plain replay
// strategy.
//
//   - `active` (`rt/internal/active`, built by `rt` rather than
//     `strategy.New`, which it imports): CalFuzzer's active testing. Five
//     observed random schedules feed the analyses; each prediction then gets
//     its share of the budget of directed schedules, in which the options of
//     goroutines at the prediction's statements are passed over (paused) until
//     the other participants arrive, with the paper's safety valves (all
//     paused: release one at random; paused for 1000 choice points: release).
//     Pausing is only a choice, so schedules replay with `replay`. `rt`
//     matches a finding against the prediction the run was directed at, adds
//     the prediction list to the report and `wire.Result`, and runs a
//     confirmed race's choices on with race detection off to say what the race
//     does. See docs/active-testing.md.
package active
