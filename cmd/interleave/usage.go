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
	interleave regress [flags] FILE [packages]
	                                      was the bug of FILE really fixed?
	interleave regress -all [packages]    re-check every bug the packages had
	interleave merge [-o DIR] DIR...      combine the results of -shard runs
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
testdata/fuzz), and its schedule files record the input. The schedule
file also holds the bug's signature (the 2 to 4 events that triggered it,
with their sites and call stacks), and a copy is kept in the cache
directory: after the code changed, "interleave regress FILE" (or
"interleave regress -all" for every bug the packages ever had) checks
whether the bug was really fixed.

The source is instrumented into a cache directory ($INTERLEAVE_CACHE, else
the user cache directory) and handed to go test with -overlay and -modfile:
nothing in the module is written. Dependencies are part of the program:
every module of the build list is instrumented, except the standard
library, and cached by module version, so that synchronization inside a
dependency (a semaphore, a worker pool, a mock clock) is explored and
controlled too. Warnings about dependencies are one line per module.

Exploration flags:
	-strategy S       random, coverage, pct, dfs, dpor, pcb, hapset, mcr,
	                  mpc or active
	                  (default random); coverage is random that prefers
	                  a context switch between two sites no schedule
	                  made yet (one process: it does not split between
	                  -workers); dfs, dpor and pcb are systematic and say when
	                  they covered the whole space: dfs every schedule, dpor
	                  one schedule per class of equivalent ones (those
	                  that order every pair of conflicting operations
	                  alike), pcb every schedule with at most
	                  -preemptions preemptions, fewest first. hapset
	                  is dpor (or pcb) guided by HaPSets (Wang et al.
	                  2011): it reorders two conflicting operations only
	                  when that order was never seen in a passing
	                  schedule, so it skips schedules that show nothing
	                  new; it learns from 10 random schedules first, then
	                  from every passing one, keeps what it learned per
	                  package and test in the cache directory so that the
	                  next run goes on from there, and under -v says how
	                  many orderings it covered and how many are new;
	                  unsound by design, it never says the space was
	                  covered; see docs/systematic.md. mcr is maximal
	                  causality reduction (Huang 2015): after each
	                  schedule, a solver (Z3) finds schedules in which a
	                  read returns a value it never returned there, so
	                  every schedule reaches a new state; it reorders
	                  memory accesses, Mutex critical sections (and
	                  looks for states where a goroutine waits for a
	                  lock another holds: deadlocks) and channel
	                  operations as far as each receive gets the same
	                  send, and keeps the order of the operations on
	                  other objects (RWMutex, select, Pool, timers);
	                  -v says how many queries it made and, when it
	                  did not cover every state, why. The
	                  solver links Z3's C library: the first mcr run
	                  builds it into the cache directory, and exits 2
	                  naming the package to install (libz3-dev) where
	                  Z3 is missing; see docs/mpc.md. mpc is maximal
	                  path causality (Yi and Huang 2018): in a fuzz
	                  test's body (f.Fuzz), the integer and boolean
	                  arguments are symbolic and the branches on them
	                  and on values read from shared memory are
	                  recorded; the solver finds, from each run, inputs
	                  and schedules together that take each new path
	                  once, starting from each seed of the corpus; a
	                  finding's schedule file holds its input. A test
	                  without such arguments runs under mcr. active
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
	-reduce           no scheduling points at plain memory accesses, only
	                  at synchronization (Stoller's reduction, taken to
	                  its limit by the race detector): in a run without
	                  a data race the outcome depends only on the order
	                  of synchronization operations, and a data race is
	                  reported wherever its accesses fall. Fewer points,
	                  faster schedules, smaller systematic spaces; at
	                  most 64 accesses of a goroutine in a row go
	                  without a point, so that polling still yields.
	                  Needs -race; not for active nor mcr (see
	                  docs/performance.md)
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
	-workers N        processes exploring one test at once (default: the
	                  number of CPUs). A test still running after 100ms
	                  starts N-1 copies of its test binary that share
	                  its work out, and the result does not depend on N
	                  (the same finding on the same schedule, the same
	                  schedule file, the same count and verdict): random
	                  and pct share schedule numbers (schedule i is a
	                  function of the seed and i); dfs and pcb share
	                  subtrees, numbered as one process numbers them;
	                  dpor runs in rounds of jobs, whatever N, one too,
	                  each process merging a round's results alike (with
	                  source sets it runs exactly what one sequential
	                  search runs, with wakeup trees up to 13% more
	                  executions; see docs/scale.md). mpc's search stays
	                  in its test binary, which hands the next N-1 runs
	                  of its queue to workers while it makes one, and
	                  takes them in, in the order of the queue, and its
	                  solver checks go to N solver processes. hapset,
	                  coverage, mcr and active run in one process.
	                  Packages run in parallel as go test -p says
	-shard K/N        explore the K-th (0 <= K < N) of N shares of every
	                  test, to split a run between machines; auto/N takes
	                  K from $JOB_COMPLETION_INDEX (a Kubernetes Indexed
	                  Job). random and pct: the schedules numbered i with
	                  (i-1) mod N = K; dfs and pcb: every N-th subtree of
	                  a cut of the search that every shard makes alike.
	                  The results are written to the schedule directory
	                  as results-K-of-N.jsonl for "interleave merge",
	                  which tallies them into what one run reports; not
	                  for the other strategies (dpor's rounds need every
	                  result of the round before)
	-preemptions K    preemption bound of the pcb strategy (default 2);
	                  with dpor, dpor bounded to K preemptions (default
	                  none): every state pcb reaches within K, in fewer
	                  schedules
	-dpor R           the reduction of dpor: optimal (default), wakeup
	                  trees that run each sequence reversing a race once,
	                  or source (source sets alone, which can run an
	                  ordering of independent operations more than once);
	                  with -preemptions, dpor uses source sets
	-mpc E            the path exploration of mpc: sound (default), which
	                  extends the threads of an unsatisfiable core until
	                  a path prefix the first run could not reach is
	                  reached, or simple, which gives such a prefix up
	                  (faster, and misses paths)
	-hapset-search S  the search hapset guides: dpor (default) or pcb
	                  (dpor bounded to -preemptions K, default 2)
	-hapset-k N       call sites of a hapset statement besides its site,
	                  innermost first (default 1; 0: the site alone)
	-hapset-learn N   random schedules hapset learns from before its
	                  search when it learned nothing before (default 10)
	-hapset-reset     forget what hapset learned before (the cache's
	                  hapset directory) and start over
	-solver-timeout D bound on the solver's work for one schedule of mcr
	                  or mpc (its queries about one run; default 10s); what it
	                  leaves unchecked is counted in the summary line, and
	                  the search then does not claim every state
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
	                  library and go.uber.org/goleak; main, the main module only; or a comma-
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

Progress: while a test explores, a terminal shows one line on standard
error, redrawn in place, such as

	TestFoo  1234 schedules  410/s  12s of 1m0s left

(the test, its schedules so far, summed over -workers, with dfs an
estimate of the share of its space they covered, their rate over the
last 5 seconds, and the time left in -budget, or the time spent without
one); it is cleared
before any other output, so the output and the summary line are as
without it. It is not shown with -v, nor when standard error is not a
terminal. With -json, progress events join go test's events on standard
output, at most one per test per second:

	{"Time":"...","Action":"progress","Package":"example.com/m",
	 "Test":"TestFoo","Schedules":1234,"PerSecond":410.2,"Elapsed":48.1,
	 "Budget":60}

(Elapsed and Budget in seconds; Budget when -budget is given,
MaxSchedules when -schedules is, Covered, a fraction, with dfs).

Environment:
	INTERLEAVE_CACHE   the cache directory (default: user cache dir/interleave)
	INTERLEAVE_TIMING  1 prints the time of each step (setup, list,
	                   instrument, go test)
	INTERLEAVE_HANDOFF channel hands the schedule between goroutines
	                   through channels instead of coroutines (slower;
	                   what a program that calls runtime.LockOSThread
	                   gets anyway)
`

const replayUsage = `usage: interleave replay [flags] FILE

Replay runs the interleaving recorded in the schedule file FILE again, in
the module of the current directory: the same test, the same choices, the
same finding. It exits 1 when the finding reproduces, 0 when the test now
passes, and 1 with a plain message when the code no longer follows the
schedule (it changed since the schedule was recorded, or it does something
the tool does not control, such as iterating over a map or real I/O). To
check whether the bug survived a change of the code, use "interleave
regress FILE", which steers toward a similar interleaving instead.

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

const regressUsage = `usage: interleave regress [flags] FILE [packages]
       interleave regress -all [flags] [packages]

Regress checks whether the bug of the schedule file FILE was really fixed
in the changed code (regression mode, after RegressionMaple: Tsui, Wu,
Chan, "Toward a methodology to expose partially fixed concurrency bugs in
modified multithreaded programs"). A replay of FILE no longer follows
changed code; regress instead finds events similar to the bug's signature
(the 2 to 4 events that triggered it) and steers the scheduler toward the
same interleaving: a goroutine about to perform signature event i+1 is
held back until event i has happened.

Two events are similar when they are the same operation, in the same
function within w lines of the original position relative to the
function's start (w=any: anywhere, for a helper extracted or renamed),
with call stacks at most d edits apart (Wagner-Fischer), and touch the
objects the events matched before them touched; goroutine ids are never
compared. w and d are searched from exact (w=0, d=0) to loose (w=any,
d=3) within the budget: a run tells the tightest level at which every
signature event has a similar event and jumps there.

The verdict: "re-exposed: the bug (kind) comes back at w=.., d=.." with
the new schedule file and the command that replays it (exit 1), or "not
re-exposed within the budget: N schedules, w up to .., d up to .." (exit
0). Packages default to the package of FILE.

With -all, every bug signature kept for the packages (default ./...) is
checked: interleave test keeps one for every finding in the cache
directory.

Flags:
	-all              re-check every kept signature of the packages
	-schedules N      schedules per signature (default 200)
	-seed N           seed (default 1)
	-budget D         wall-clock budget per signature (default none)
	-schedule-dir DIR where schedule files are written
	-v, -json, -timeout, -tags, -C, -x, -gcflags, -instrument ... as for
	                  interleave test
`

const mergeUsage = `usage: interleave merge [-o DIR] DIR|FILE...

Merge combines the results of runs of "interleave test -shard K/N": each
argument is a shard's schedule directory (holding its
results-K-of-N.jsonl and schedule files) or a results file. For every
test it reports what a single run would have: under random and pct, the
lowest-numbered failing schedule of any shard, or a pass counting the
schedules of all; under dfs and pcb, the shards' parts of the search
tallied in the order one process runs them: the finding of the part
found first, numbered after every schedule before it (a shard numbers
its own finding within its share), or a pass with the search's
schedules, covering its space only if every part of every shard ran to
its end. It names shards that are missing, and exits as interleave test
would (0: every test passed, 1: a finding).

Flags:
	-o DIR            copy the schedule files of the merged findings to
	                  DIR (the results name the copies; a dfs or pcb
	                  finding's copy carries the search's number)
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
	case "regress":
		fmt.Fprint(stdout, regressUsage)
	case "merge":
		fmt.Fprint(stdout, mergeUsage)
	case "bench":
		bench.Main(context.Background(), []string{"-h"}, stdout, stdout, nil)
	default:
		fmt.Fprintf(stderr, "interleave help %s: unknown help topic\n", args[0])
		return 2
	}
	return 0
}
