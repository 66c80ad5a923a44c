package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"interleave.dev/internal/bench"
	"interleave.dev/rt/strategies"
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
	interleave bench -diff [flags]        judge the tool against Go on generated programs
	interleave help [command]             show help for a command
	interleave help strategies            the strategies, each with its paper
	interleave version                    show the version

Exit status: 0 when every test passed, 1 when a test failed or a finding
was reported, 2 for a usage error or a package that does not build.
`

// testUsage is "interleave help test": one short entry per flag, in the
// style of "go help testflag", and one line per strategy from the
// registry; "interleave help strategies" holds the paragraph of each.
var testUsage = strings.Replace(`usage: interleave test [flags] [packages] [-args test binary arguments]

Test runs every selected test many times, each time under a different,
controlled interleaving of its goroutines, and reports the first bug found
(deadlock, leaked goroutine, data race, panic, failed assertion, livelock)
with a schedule file that "interleave replay" runs again and "interleave
regress" checks after a fix. A fuzz test is explored once per input of its
seed corpus. The module, and every module of the build list but the
standard library, is instrumented into a cache directory and handed to go
test with -overlay and -modfile: nothing in the module is written.

Strategies (-strategy; "interleave help strategies" says more of each):

STRATEGIES
The following flags are recognized by interleave test:

	-strategy name
	    The strategy that chooses every interleaving (default random).
	-schedules n
	    Schedules to explore per test (default 1000).
	-seed n
	    Seed of the randomized strategies (default 1).
	-budget d
	    Wall-clock budget per test, such as 30s (default none). A test
	    whose first schedule is still running when it runs out is "not
	    explored" (named in the summary), not failed.
	-workers n
	    Processes exploring one test at once (default: the number of
	    CPUs). The result does not depend on n.
	-shard k/n
	    Explore the k-th of n shares of every test, to split a run
	    between machines ("auto/n": k from $JOB_COMPLETION_INDEX); the
	    results go to "interleave merge". Not every strategy shards.
	-race
	    Detect data races, happens-before (default true; interleave's
	    detector, not go test -race).
	-leaks true|false|all
	    Report goroutines left blocked when it depends on the interleaving
	    (true, the default); one that every schedule leaves is a note
	    (under -v and -json), not a failure. all reports both.
	-timing note|fail
	    A test failure that only a schedule firing a timer early shows
	    (the test's own timeout beat work that could still run) is a
	    note under -v and -json (note, the default) or a finding (fail).
	-reduce
	    No scheduling points at plain memory accesses, only at
	    synchronization; a data race is still reported. Needs -race.
	-timers stall|eager|idle
	    When a timer may fire before its time while other goroutines
	    could run: stall (default), at most -stall early and only to wake
	    a select that waits on other channels too, or an AfterFunc;
	    eager, at any point; idle, never. Under stall, a test that passes
	    where a sleep or a lone wait on a timer was held back runs 30 to
	    100 random schedules more where it may end early, and fails only
	    on a data race there (a stall orders nothing).
	-stall d
	    How early a timer may fire under -timers=stall (default 10ms).
	-pct-depth d, -preemptions k, -dpor optimal|source, -mpc sound|simple,
	-hapset-search dpor|pcb, -hapset-k n, -hapset-learn n, -hapset-reset,
	-solver-timeout d
	    Settings of one strategy: see "interleave help strategies".
	-steps n, -goroutines n, -choices n, -objects n
	    Bounds of one schedule: scheduling points that only poll before a
	    livelock is reported (default 1000000; 8 times it for a goroutine
	    that polls alone, half their number times it when more than three
	    poll), live goroutines (100000),
	    choice points (10000000), tracked objects (16000000). A first
	    schedule past one is "not explored" (named in the summary, not
	    failed), as past -budget; a later one, whose cost depends on the
	    interleaving, is a resource limit finding naming the flag.
	-stuck-after d
	    How long uncontrolled code may run before the schedule is
	    reported as stuck (default 10s).
	-schedule-dir dir
	    Where schedule files are written (default: the cache directory).
	-instrument all|main|patterns
	    What is instrumented: every module but the standard library
	    (all, the default), the main module only, or it and the listed
	    package patterns. Replay a schedule with the same value.
	-dep-warnings
	    List every instrumenter warning about dependencies.

go test flags pass through: -run, -skip, -v, -count, -timeout, -json,
-failfast, -short, -shuffle, -parallel, -tags, -cover..., -cpu, -list,
the profile flags, -C and the build flags. -modfile and -overlay are the
tool's own. With -json, "progress" events join go test's, and "note"
events (never stops, timing, not explored) follow them; on a terminal, a
progress line is redrawn on standard error.

Environment: INTERLEAVE_CACHE (the cache directory), INTERLEAVE_TIMING=1
(the time of each step), INTERLEAVE_HANDOFF=channel (hand goroutines over
through channels instead of coroutines).
`, "STRATEGIES\n", strategyLines(), 1)

// strategyLines lists the strategies -strategy takes, one line each.
func strategyLines() string {
	var b strings.Builder
	for _, s := range strategies.All {
		if !s.Internal {
			fmt.Fprintf(&b, "\t%-9s %s\n", s.Name, s.Summary)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// strategiesHelp is "interleave help strategies": each strategy's
// paragraph, with its flags.
func strategiesHelp() string {
	var b strings.Builder
	b.WriteString("The strategies of interleave test -strategy, each from a paper of the\nconcurrency testing literature:\n")
	for _, s := range strategies.All {
		if s.Internal {
			continue
		}
		fmt.Fprintf(&b, "\n%s\n", s.Name)
		for _, line := range strings.Split(s.Doc, "\n") {
			fmt.Fprintf(&b, "\t%s\n", line)
		}
		var notes []string
		if len(s.Flags) > 0 {
			notes = append(notes, "flags: "+strings.Join(s.Flags, ", "))
		}
		if s.Covered != "" {
			notes = append(notes, `a complete search says "`+s.Covered+`"`)
		}
		switch {
		case s.Workers == strategies.SplitNone:
			notes = append(notes, "one process per test")
		case !s.Shards:
			notes = append(notes, "splits between -workers, not -shard")
		}
		if s.MemoryPoints {
			notes = append(notes, "not with -reduce")
		}
		if len(notes) > 0 {
			fmt.Fprintf(&b, "\t(%s)\n", strings.Join(notes, "; "))
		}
	}
	b.WriteString(strategyFlags)
	return b.String()
}

// strategyFlags are the settings of one strategy, for "interleave help
// strategies".
const strategyFlags = `
Settings of one strategy:

	-pct-depth d
	    pct's bug depth (default 3).
	-preemptions k
	    pcb's preemption bound (default 2); with dpor, dpor bounded to
	    k preemptions (default none), which uses source sets.
	-dpor optimal|source
	    dpor's reduction: wakeup trees (optimal, the default) or source
	    sets alone.
	-mpc sound|simple
	    mpc's path exploration: sound (default) extends the threads of
	    an unsatisfiable core; simple gives such a prefix up.
	-hapset-search dpor|pcb
	    The search hapset guides (default dpor).
	-hapset-k n
	    Call sites of a hapset statement besides its site (default 1).
	-hapset-learn n
	    Random schedules hapset learns from first when it learned
	    nothing before (default 10).
	-hapset-reset
	    Forget what hapset learned before and start over.
	-solver-timeout d
	    Bound on the solver's work for one schedule of mcr or mpc
	    (default 10s); what it leaves unchecked is counted, and the
	    search then does not claim every state.
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

View writes the finding of the schedule file FILE as a self-contained HTML
page (no network, open it in any browser): one lane per goroutine with its
events in order and their source lines, the two accesses of a data race
joined by a line, "waits for" arrows between the goroutines of a deadlock,
the points where the schedule preempted a goroutine that could have gone
on, and the source around each event. Every finding of interleave test
writes its page next to its schedule file already ("view:" in the report),
and puts the page's data, source lines included, into the schedule file:
view writes the page again from FILE alone, in any directory, without the
module or the package it came from (a file moved to another machine, a
page deleted).

A file written by an older interleave holds no page data: view then
replays it, as interleave replay does, in the module of its package (-C
sets the directory), and the replay writes the page of the finding it
reproduces. -replay does so for any file, to show the source as it is now.

It prints the page's path and exits 0, or exits 1 when a replay
reproduces no finding.

Flags:
	-out PAGE         where to write the page (default: FILE with the
	                  extension .html)
	-replay           replay the schedule to write the page, even when
	                  FILE holds the page's data
	-C DIR            as go's -C: FILE, PAGE and a replay are relative
	                  to DIR
	-v, -timeout, -tags, -instrument, ... as for interleave replay, when
	                  view replays
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
	case "strategies":
		fmt.Fprint(stdout, strategiesHelp())
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
