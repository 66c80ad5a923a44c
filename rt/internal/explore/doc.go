// Package explore is the exploration engine: it runs a test's body many
// times under sched, each time with the strategy choosing at every choice
// point, and turns what it finds into a report, a schedule file and a
// page.
//
// Package rt holds the hooks instrumented code calls and thin entry points
// (rt.Test, rt.FuzzBody, rt.Explore) that hand a test's body to Test, Fuzz
// and Explore here. Everything else about running a test lives here:
//
//   - explore.go: Explore, one exploration in this process, and its report;
//   - test.go: Test, a test under the driver's configuration (Config),
//     with its result line, log and confirmation (confirm.go: a finding is
//     replayed in a fresh process before it is reported);
//   - workers.go, split.go, splitshard.go, splitlog.go, joblist.go,
//     rounds.go: one test's schedules shared out between worker processes
//     and shards (random and pct by number, dfs and pcb by subtree, dpor in
//     rounds);
//   - solverpool.go: the solver processes of strategies mcr and mpc;
//     mpcworkers.go: the processes that make mpc's runs;
//   - fuzz.go: a fuzz body's arguments, mpc's inputs and their corpus
//     encoding; hapset.go: hapset's store; signature.go: regression's bug
//     signatures; view.go: the HTML page of a finding.
//
// # Confirmation in a fresh process
//
// (`confirm.go`). The schedules of
// a test run one after another in a process (or a few, with `-workers`), so a test that leaves state behind can fail on
// a later schedule for a reason no single run has. Before `rt.Test` reports a
// finding, the test binary re-executes itself (`-test.run` selecting the
// test, `-test.count=1`, the package's own flags and `-short`/`-timeout`
// kept) with a replay configuration for the finding's schedule, and reads the
// child's `wire.Result` from a private file; the child's output is not shown,
// so go test's output and `-json` stream as before, and only findings cost a
// process. A reproduced finding is reported. One that does not reproduce is
// replayed by a second fresh process: if both ran the same events (same
// `event_hash` in their results), the test behaves differently after earlier
// runs in its process and is reported as `unrepeatable` (not safe to run
// twice in one process, naming the schedule or the earlier explorations it
// fails after); if they differ, the test also depends on something the tool
// does not control, and it is reported as `unrepeatable` too, saying so (a
// finding that no fresh process reproduced is never reported as a bug). A
// finding that only the second replay reproduced, or whose replay could not
// run, is reported with a note saying it could not be confirmed. Replays
// (`interleave replay`) are not confirmed again.
//
// # The finding's page
//
// (`view.go`, `rt/view`). With the
// schedule file, `rt.Explore` writes `<schedule>.html`: the finding's
// goroutines, the last 2,000 events of its trace with their source lines
// (read from the original files), the race's two accesses, the goroutine
// holding the lock each blocked goroutine waits for (`WaitsFor`), and the
// events the schedule ran while the goroutine before them could have gone
// on (the iteration notes them at its choice points, `Finding.Preempts`),
// as JSON in a page whose script lays out lanes and arrows. The schedule
// file carries the same JSON (`wire.Schedule.View`, bounded: source lines
// cut at 240 bytes and 256 KiB in all, the report at 64 KiB), from which
// `interleave view FILE` writes the page in any directory; for a file
// without it, it replays the schedule with `wire.Config.View` set, and the
// replay writes the page. docs/view.md shows it; a test loads it in
// headless Chromium.
// `-workers N` runs a test's exploration in N processes, `-shard K/N` on N
// machines, with a result that does not depend on N (docs/scale.md).
// random and pct share schedule numbers, dfs and pcb subtrees of their
// search, dpor rounds of jobs; mpc keeps its search in one process and
// hands runs to copies of the test binary (the MPC section above);
// hapset, coverage, mcr and active run in one process, and a shard of
// them, of mpc, or of dpor, is refused.
//
//   - Workers. When the test still runs after 100ms, the test binary
//     starts N-1 copies of itself, running only this test (the arguments
//     `confirm.go` uses), with `Worker` naming a private directory through
//     which they share the work (`pool`); the parent merges the workers'
//     results (a worker's report text is in the directory), keeps the
//     finding a single process would report, removes the schedule files of
//     the others, confirms and reports as a single process does. Every
//     process appends its own progress records (its pid, its schedules); the
//     driver adds them up. Map orders and `math/rand` draw from the
//     schedule's number (`Iteration.Number`), not from a count of the
//     schedules run, and under a systematic strategy from neither
//     (`sched.Config.FixedOrder`, schedule format 4).
//   - Schedule numbers (random, pct; `share`). `sched.Config.Next`
//     gives the schedule numbers: chunks of 32 positions of the shard's
//     sequence, claimed by creating the file `c<chunk>` with `O_EXCL`; until
//     the workers start, the parent claims no files (a short test pays
//     nothing), and the workers begin past the chunk it is in (the
//     directory's `start` file). A process that finds something appends the
//     schedule's number to the directory's `found` file and stops; every
//     process reads that file every 8 schedules and stops before a schedule
//     numbered above the lowest there. A pct process that does not own
//     schedule 1 runs it first, unreported, to learn k.
//   - Subtrees (dfs, pcb; `treeShare`). The strategies explore jobs
//     (`strategy.Jobs`, `jobs.go`): a job is the subtree of a choice prefix,
//     and its key (`wire.CompareKeys`) places it in the sequential search
//     (pcb: its bound, then the key of the item that met it). The processes
//     claim the job with the lowest key through one log file (`splitLog`:
//     records of one line appended with `O_APPEND`, read by every process
//     from where it left off; the first claim in the log holds); a process
//     that waits says so in the log, and one that sees it gives up the rest
//     of its job (`strategy.Split`: the siblings right of its path). Jobs
//     past a finding or past `-schedules` (the jobs before them, `jobList`,
//     ran that many) are stopped. A finding is numbered once every job
//     before its own ended (`rt.Explore` asks `Options.number` before it
//     renders the report and writes the schedule file); one before it
//     supersedes it, and its process goes back to claiming. The parent
//     tallies the jobs as parts (`wire.Tally`). A shard cuts the search
//     alike in every shard (`probeJobs`: the first schedule of the job with
//     the shortest prefix, its rest given up as jobs, until 8 jobs a shard)
//     and takes every N-th job; its results carry its parts, which
//     `interleave merge` tallies (`driver.tallyShards`), renumbering the copy
//     of the finding's schedule file.
//   - Rounds (dpor; `roundShare`, `dpor.Tree`, `dpor/jobs.go`).
//     Under the driver (whenever `Workers` is set, one too) dpor explores
//     jobs (`dpor.Jobs`): an option of a node of the search's top 48
//     levels (the skeleton), followed by the dpor search of what is below
//     it. A job returns the races it finds with nodes at or above its root
//     and the skeleton nodes it made (`DPORResult`, encoded in about a
//     kilobyte, `dporcodec.go`), each process appends its results to a file
//     of its own, and when every job of a round has its result, every process
//     merges them, in the order of the jobs, into its own skeleton, which
//     makes the next round's jobs alike everywhere. Source sets merge as the
//     sequential search decides; wakeup trees insert below the options a
//     round explored already through the nodes their exploration made, or
//     explore the option again following the rest of the sequence (a
//     supplement). Each skeleton node starts one option per round, so that
//     the next has it asleep (sleep sets take the options explored before,
//     by rank: `dnode.rank`). A finding is numbered after every execution of
//     the rounds before and of the round's jobs before its own.
//   - Bounds. Every wait of a process for the others (a job to claim,
//     the jobs before a finding, a round's results) sleeps at most 20ms
//     between looks and ends at the test's deadline, when the parent exited
//     (a worker), when a process that claimed a job exits without ending it
//     (the parent appends `X <pid>` to the log), or at the end of `-budget`
//     (`splitWait`); a process that stops at `-budget` ends its job as
//     stopped (`strategy.Abandoner`), and a finding whose jobs before it did
//     not end keeps the number those that did give.
//   - One processor each (`sched/procs.go`). A test binary runs at
//     `GOMAXPROCS=1` for the time of a test's exploration (the controlled
//     goroutines run one at a time; a second processor only spins and wakes
//     threads), so N workers use N cores. The program sees the value it has
//     natively: `runtime.GOMAXPROCS` calls in instrumented code become
//     `rt.GOMAXPROCS`, which reads and sets a value every schedule starts
//     from afresh.
package explore
