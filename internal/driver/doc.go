// Package driver runs the tests of a user's packages under interleave.
//
// It is the layer between the command line and the test binary:
//
//  1. it writes the runtime module (interleave.dev/rt) once per version
//     into the cache directory (runtime.go);
//  2. it copies the user's go.mod and go.sum to a temporary -modfile that
//     requires and replaces interleave.dev (modfile.go);
//  3. it loads the packages under test with golang.org/x/tools/go/packages,
//     instruments the packages of the main module (and, on request, of
//     dependency modules), caches the instrumented files by content and
//     writes an overlay.json (load.go, instrument.go, overlay.go);
//  4. it runs "go test -overlay -modfile" with the exploration Config in
//     the environment, passes its output through, and reads back the
//     per-test results (gotest.go, test.go, replay.go).
//
// Nothing in the user's tree is ever written.
//
//   - Injection. The runtime source is embedded in the command (`embed.go`)
//     and written once per content hash to `<cache>/runtime/<hash>` as a module
//     `interleave.dev` declaring `go 1.21`. The user's go.mod and go.sum are
//     copied to a temporary modfile that adds `require` and `replace`; the
//     user's go line is kept (modules older than 1.21 are raised to 1.21 with a
//     `godebug` line keeping their old runtime behavior). Nothing is injected
//     when the module under test is `interleave.dev` itself.
//   - Loading, in two phases. A `go list`-level pass gives every package
//     variant a content key (its files and the keys of what it imports); only
//     when something is missing from the cache does a full typed load run.
//     Instrumented files are stored by content hash; the overlay is
//     content-addressed too, so a second run is a cache hit end to end.
//   - Dependencies are part of the program. Every module of the build
//     list is instrumented (the main module, its dependencies, replaced and
//     vendored modules), never the standard library nor go.uber.org/goleak
//     (which parses every goroutine's stack: instrumented, a schedule's events
//     would depend on the goroutines earlier tests left); `-instrument=main` or
//     package patterns narrow it (`Scope`). The go command refuses overlays
//     inside the module cache, so a dependency from there is mirrored into
//     `<cache>/modules/<hash>` (hard links, its instrumented files written in
//     place; the hash covers the module version and the instrumented files'
//     content hashes, so a mirror is built once) and `replace`d in the
//     temporary modfile; other modules (directory replacements) go through the
//     overlay. Units of a module-cache version are keyed by `path@version`, so
//     a cached run reads none of their files. A dependency keeps its go line:
//     the instrumenter upgrades a file older than go1.18 to go1.21 with a
//     `//go:build` line (loop variables stay per-loop), and a module without a
//     go line or a go.mod (`+incompatible`) is typed as go1.16, as the go
//     command builds it. Vendored modules are loaded and built from the module
//     cache (`-mod=mod`): the runtime cannot be vendored. What cannot be
//     instrumented (cgo files, packages that do not type-check) stays native;
//     warnings about dependencies are one line per module (`-dep-warnings`
//     lists them). The runtime module itself (`interleave.dev`) is tested
//     without instrumenting its dependencies.
//   - Running. `go test -overlay -modfile` with the user's flags, output
//     streamed through; `INTERLEAVE_CONFIG` carries the `wire.Config`; the
//     per-test `wire.Result` lines are read back to compute the exit status and
//     the summary (and, with `-shard`, written to the schedule directory for
//     `interleave merge`). The runtime consumes the configuration once and removes it
//     from the environment (a test that re-executes its binary runs it
//     plainly).
//   - Progress (`progress.go`). While go test runs, the driver reads the
//     `wire.Progress` lines every 100ms, sums them per test over its
//     processes and hands them to a `ProgressSink` in step with the output:
//     only between complete lines, and the sink is cleared before any output
//     is written and at the end. The command's sinks
//     (`cmd/interleave/progress.go`) are a line redrawn with `\r` and
//     `\x1b[K` on a terminal's stderr (not with `-v`; nothing when stderr is
//     not a terminal) and, with `-json`, `"Action":"progress"` events on
//     stdout, at most one per test per second. In the test binary,
//     `sched.Explore` calls `Config.Progress` between schedules when
//     `sched.ProgressEvery` (200ms) has passed: one clock read per schedule.
//     A strategy that implements `strategy.Estimator` (dfs: the leaves left
//     of its stack's path, every option of a choice point weighing alike;
//     none when it explores a share of a split search) adds the share of its
//     space covered.
package driver
