// Package difftest is interleave's differential-testing harness: Go itself
// is the oracle.
//
// A generator (gen.go) writes, from a seed, a small Go test module whose
// test starts 2 to 5 goroutines doing 5 to 40 operations drawn from a
// grammar of what Go developers use: shared memory of many shapes guarded
// by locks, channels, select, sync, sync/atomic, context, timers,
// panic/recover; and (wide.go) io.Pipe and net.Pipe, a context.Context
// the program implements, reflect.Select, memory statistics, weak
// pointers, finalizers and cleanups, t.Cleanup, the collection of memory
// an ended goroutine touched last, allocations counted by
// testing.AllocsPerRun, and the frames runtime.Callers and
// runtime.Caller give. A program comes in forms: Safe (every shared access
// ordered by construction, no deadlock by construction), Racy (Safe with
// one planted data race: one access left unguarded) and, for programs
// generated with bugs, Bug (deadlocks, leaks, panics and failed assertions
// that happen under some schedules only; deep.go adds the deeper shapes:
// an abandoned sender, a lock-order inversion, a recursive read lock
// against a writer, a double close).
//
// Every form records what it computed: the test appends a line to the file
// named by $DIFFTEST_OUT at the end of every run (plain os calls are not
// instrumented), so that every schedule of an exploration leaves its
// outcome there. The harness (run.go) builds the instrumented test binary
// once and the native one with -race once, runs the native binary under
// GOMAXPROCS 1 to 4 with and without injected runtime.Gosched calls, and
// the instrumented one under every strategy, and hands the observations to
// the oracles (oracle.go), pure functions with a verdict:
//
//   - races: every pair of racing lines that go test -race reports is
//     reported by interleave; no race on a Safe form;
//   - outcomes: where dfs covers every interleaving, the outcomes it
//     reaches are the truth: native outcomes are among them, dpor and mcr
//     reach exactly them, no strategy says "verified" while dfs finds a bug
//     and the randomized ones find each bug within their budget;
//   - semantics: the sequential part of the test computes the same under
//     interleave as natively;
//   - replay: every finding replays with the same verdict, ten times out
//     of ten, and a seed gives the same verdict every run;
//   - robustness: interleave never fails in its own code.
//
// A discrepancy is shrunk (shrink.go) by delta debugging over the
// program's statements to a small program that still shows it, which is
// saved under testdata/regress as a regression input. "interleave bench
// -diff" (cli.go) runs any number of programs and writes docs/difftest.md.
package difftest
