// Package bench measures interleave's exploration strategies on the suite
// of concurrency bug kernels in the kernels module.
//
// A kernel is a directory holding kernel.json (its metadata: bug class,
// the finding kind that counts as detecting it, how it is triggered) and
// one package per variant: buggy, fixed, and sometimes partial (a fix that
// closes one interleaving but not another). Each variant package has one
// TestXxx.
//
// The harness builds every variant's instrumented test binary once, through
// a Builder, and then runs it many times, once per strategy and seed, with
// the exploration configuration in the INTERLEAVE_CONFIG environment
// variable; the runtime inside the binary appends one wire.Result per test
// to a results file. The harness aggregates those records into rows (per
// kernel, variant and strategy: detections out of seeds, schedules to first
// detection, time, false reports on fixed twins) and renders them as a
// Markdown table and as JSON.
//
// The package has four parts: suite.go loads kernels, builder.go and
// run.go build and execute binaries, aggregate.go computes rows and
// summaries, render.go writes Markdown and JSON; cli.go is the command line
// behind "interleave bench".
//
// `kernels/` is its own module (so the repository's `go test ./...` never runs
// buggy code natively): every kernel has `buggy/`, `fixed/` and sometimes
// `partial/` packages with one identical test, and a `kernel.json` saying what
// counts as detection. `interleave bench` builds each variant's instrumented
// test binary once through the driver (`go test -c`), runs it per strategy and
// seed with `INTERLEAVE_CONFIG`, and aggregates the `wire.Result` lines into
// `docs/kernels.md` and `docs/kernels.json`; a fixed twin with any finding is
// a false report and fails the command. The `native` strategy is plain
// `go test -race` run repeatedly, as a baseline. `bench -regress` measures
// regression mode instead (docs/regression.md).
package bench
