package main

import (
	"context"
	"fmt"
	"io"

	"interleave.dev/internal/bench"
)

const mainUsage = `Interleave runs Go tests under fully controlled interleavings.

Usage:

	interleave test [flags] [packages]    explore the tests of packages
	interleave replay [flags] FILE        run a recorded schedule again
	interleave view [flags] FILE          write the HTML page of a schedule's finding
	interleave bench [flags] [kernels]    measure the strategies on the bug kernels
	interleave help [command]             show help for a command
	interleave version                    show the version

Exit status: 0 when every test passed, 1 when a test failed or a finding
was reported, 2 for a usage error or a package that does not build.
`

const testUsage = `usage: interleave test [flags] [packages] [-args test binary arguments]

Test runs every selected test many times, each time under a different,
controlled interleaving of its goroutines, and reports the first bug found
(deadlock, leaked goroutine, data race, panic, failed assertion, livelock)
with a schedule file that "interleave replay" runs again. A fuzz test
(FuzzXxx) is explored once per input of its seed corpus (f.Add and
testdata/fuzz), and its schedule files record the input.

The source is instrumented into a cache directory ($INTERLEAVE_CACHE, else
the user cache directory) and handed to go test with -overlay and -modfile:
nothing in the module is written. Dependencies are part of the program:
every module of the build list is instrumented, except the standard
library, and cached by module version, so that synchronization inside a
dependency (a semaphore, a worker pool, a mock clock) is explored and
controlled too. Warnings about dependencies are one line per module.

Exploration flags:
	-strategy S       random, pct, dfs or active (default random). active
	                  is active testing (CalFuzzer): 5 random schedules
	                  observed by analyses that predict races, deadlocks
	                  (lock cycles, a lock held across a channel,
	                  WaitGroup or Cond wait) and atomicity violations,
	                  then for each prediction up to 100 schedules that
	                  pause goroutines at its statements until the bug
	                  can happen; -v and -json list every prediction as
	                  potential, confirmed or unconfirmed (never a
	                  failure); see docs/active-testing.md
	-schedules N      schedules to explore per test (default 1000)
	-seed N           seed of the randomized strategies (default 1)
	-budget D         wall-clock budget per test, such as 30s (default
	                  none); a first schedule still running when it
	                  runs out is reported as a resource limit
	-race             detect data races, happens-before (default true;
	                  this is interleave's detector, not go test -race)
	-leaks            report goroutines left blocked (default true)
	-steps N          scheduling points in which running goroutines only
	                  poll, with no progress and no pending timer, before
	                  a livelock is reported (default 1000000)
	-goroutines N     live goroutines per schedule before the schedule is
	                  reported as a resource limit (default 100000)
	-choices N        choice points per schedule (its history, kept to be
	                  written and replayed) before it is reported as a
	                  resource limit (default 10000000)
	-objects N        objects a schedule tracks (memory words, channels,
	                  locks: the race detector's memory) before it is
	                  reported as a resource limit (default 16000000)
	-pct-depth N      bug depth of the pct strategy (default 3)
	-stuck-after D    how long uncontrolled code may run before the
	                  schedule is reported as stuck (default 10s)
	-timers M         when a timer may fire before its time, while other
	                  goroutines could still run (every timer fires when
	                  its time has come, or when nothing else can run):
	                  stall (default), only to wake a select that also
	                  waits on other channels (a timeout racing with
	                  work) or to run an AfterFunc callback, and at most
	                  -stall before its time, never into a poll or for a
	                  sleep; eager, at any point; idle, never
	-stall D          how long before its time a timer may fire under
	                  -timers=stall (default 100ms; 0 is -timers=idle)
	-schedule-dir DIR where schedule files are written (default: in the
	                  cache directory)
	-instrument S     what is instrumented: all (default), every module of
	                  the build list (the main module, its dependencies,
	                  replaced and vendored modules) but the standard
	                  library; main, the main module only; or a comma-
	                  separated list of package patterns or module paths
	                  (golang.org/x/sync/...) instrumented besides the main
	                  module. Replay a schedule with the same value.
	-dep-warnings     list every instrumenter warning about dependency
	                  modules (default: one line per module)

go test flags, passed through: -run, -skip, -v, -count, -timeout, -json,
-failfast, -short, -shuffle, -parallel, -tags, -cover..., -cpu, -list, the
profile flags, -C, and the build flags (-gcflags, -ldflags, -mod, -p, -x,
-n, -work, -trimpath, ...). -modfile and -overlay are the tool's own and
cannot be given. -race is interleave's detector; go's race detector is not
used.

Environment:
	INTERLEAVE_CACHE   the cache directory (default: user cache dir/interleave)
	INTERLEAVE_TIMING  1 prints the time of each step (setup, list,
	                   instrument, go test)
`

const replayUsage = `usage: interleave replay [flags] FILE

Replay runs the interleaving recorded in the schedule file FILE again, in
the module of the current directory: the same test, the same choices, the
same finding. It exits 1 when the finding reproduces, 0 when the test now
passes, and 1 with a plain message when the code no longer follows the
schedule (it changed since the schedule was recorded, or it does something
the tool does not control, such as iterating over a map or real I/O).

Flags:
	-v, -json, -timeout, -tags, -C, -x, -gcflags, ... as for interleave test
	-instrument S     as for interleave test; replay with the value the
	                  schedule was recorded with
	-dep-warnings     as for interleave test
`

const viewUsage = `usage: interleave view [flags] FILE

View replays the schedule file FILE, as interleave replay does, and writes
the finding it reproduces as a self-contained HTML page (no network, open
it in any browser): one lane per goroutine with its events in order and
their source lines, the two accesses of a data race joined by a line,
"waits for" arrows between the goroutines of a deadlock, the points where
the schedule preempted a goroutine that could have gone on, and the source
around each event. Every finding of interleave test writes its page next
to its schedule file already ("view:" in the report); this command makes
one for an older file, or after the source moved.

It prints the page's path and exits 0, or exits 1 when the replay
reproduces no finding.

Flags:
	-out PAGE         where to write the page (default: FILE with the
	                  extension .html)
	-v, -timeout, -tags, -C, -instrument, ... as for interleave replay
`

// runHelp prints the help of a command.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, mainUsage)
		return 0
	}
	switch args[0] {
	case "test":
		fmt.Fprint(stdout, testUsage)
	case "replay":
		fmt.Fprint(stdout, replayUsage)
	case "view":
		fmt.Fprint(stdout, viewUsage)
	case "bench":
		bench.Main(context.Background(), []string{"-h"}, stdout, stdout, nil)
	default:
		fmt.Fprintf(stderr, "interleave help %s: unknown help topic\n", args[0])
		return 2
	}
	return 0
}
