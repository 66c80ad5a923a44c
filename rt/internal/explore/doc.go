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
package explore
