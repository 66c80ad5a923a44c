package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// commonFlags are the flags of both test and replay.
type commonFlags struct {
	tags           string
	dir            string
	scope          driver.Scope
	instrumentDeps bool
	depWarnings    bool
	scheduleDir    string
	goFlags        []string
}

func (c *commonFlags) define(fs *flag.FlagSet) {
	fs.StringVar(&c.tags, "tags", "", "build tags, as for go test")
	fs.StringVar(&c.dir, "C", "", "run in directory `dir`")
	fs.Func("instrument", "all, main, or package patterns", func(v string) error {
		s, err := driver.ParseScope(v)
		c.scope = s
		return err
	})
	fs.BoolVar(&c.instrumentDeps, "instrument-deps", false, "retired: the default")
	fs.BoolVar(&c.depWarnings, "dep-warnings", false, "list every warning about dependency modules")
	fs.StringVar(&c.scheduleDir, "schedule-dir", "", "directory for schedule files")
	passThrough(fs, &c.goFlags)
}

// options returns the driver options of the flags; stderr also receives
// the note about the retired -instrument-deps.
func (c *commonFlags) options(stdout, stderr io.Writer) driver.Options {
	if c.instrumentDeps {
		fmt.Fprintln(stderr, "interleave: note: -instrument-deps is retired: every module is instrumented by default (-instrument=main narrows it)")
	}
	return driver.Options{
		Dir:            c.dir,
		Tags:           c.tags,
		GoFlags:        c.goFlags,
		Scope:          c.scope,
		DepWarnings:    c.depWarnings,
		Instrument:     instrumentFile,
		InstrumentMain: instrumentMainFile,
		Stdout:         stdout,
		Stderr:         stderr,
	}
}

// runTest implements "interleave test".
func runTest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		common     commonFlags
		strategy   string
		schedules  int
		seed       int64
		budget     time.Duration
		race       bool
		leaks      = leaksFlag{on: true}
		timing     string
		steps      int
		pctDepth   int
		preempt    int
		stuckAfter time.Duration
		timers     string
		stall      time.Duration
		goroutines int
		choices    int
		objects    int
		workers    int
		shard      string
		hapSearch  string
		dporMode   string
		mpcMode    string
		hapK       int
		hapLearn   int
		hapReset   bool
		reduce     bool
		solverTime time.Duration
	)
	fs := newFlagSet("test", testUsage, stderr)
	fs.StringVar(&strategy, "strategy", "random", strings.Join(strategies.Names(), ", "))
	fs.IntVar(&schedules, "schedules", 0, "schedules per test")
	fs.Int64Var(&seed, "seed", 0, "seed")
	fs.DurationVar(&budget, "budget", 0, "wall-clock budget per test")
	fs.BoolVar(&race, "race", true, "detect data races")
	fs.Var(&leaks, "leaks", "report leaked goroutines: true, false or all")
	fs.StringVar(&timing, "timing", "note", "a test failure only a timer fired early shows: note or fail")
	fs.BoolVar(&reduce, "reduce", false, "no scheduling points at plain memory accesses")
	fs.IntVar(&steps, "steps", 0, "scheduling points per schedule")
	fs.IntVar(&pctDepth, "pct-depth", 0, "bug depth of pct")
	fs.IntVar(&preempt, "preemptions", 0, "preemption bound of pcb")
	fs.DurationVar(&stuckAfter, "stuck-after", 0, "limit on uncontrolled code")
	fs.StringVar(&timers, "timers", "stall", "stall, eager or idle")
	fs.DurationVar(&stall, "stall", time.Duration(wire.DefaultStall), "how early a timer may fire")
	fs.IntVar(&goroutines, "goroutines", 0, "live goroutines per schedule")
	fs.IntVar(&choices, "choices", 0, "choice points per schedule")
	fs.IntVar(&objects, "objects", 0, "objects tracked per schedule")
	fs.IntVar(&workers, "workers", runtime.NumCPU(), "processes exploring one test at once")
	fs.StringVar(&shard, "shard", "", "K/N or auto/N: explore the K-th of N shares of the schedules")
	fs.StringVar(&hapSearch, "hapset-search", "dpor", "the search hapset guides: dpor or pcb")
	fs.StringVar(&dporMode, "dpor", "", "dpor's reduction: optimal (default) or source")
	fs.StringVar(&mpcMode, "mpc", "", "mpc's path exploration: sound (default) or simple")
	fs.IntVar(&hapK, "hapset-k", wire.DefaultHaPSetK, "call sites of a hapset statement")
	fs.IntVar(&hapLearn, "hapset-learn", wire.DefaultHaPSetLearn, "random runs hapset learns from first")
	fs.BoolVar(&hapReset, "hapset-reset", false, "forget what hapset learned before")
	fs.DurationVar(&solverTime, "solver-timeout", 0, "bound on mcr's solver per schedule")
	common.define(fs)
	patterns, testArgs, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	spec := strategies.Lookup(strategy)
	if spec == nil || spec.Internal {
		return usageError(stderr, "interleave test: -strategy %q: want %s", strategy, orList(strategies.Names()))
	}
	switch {
	case dporMode != "" && dporMode != "optimal" && dporMode != "source":
		return usageError(stderr, "interleave test: -dpor %q: want optimal or source", dporMode)
	case mpcMode != "" && mpcMode != "sound" && mpcMode != "simple":
		return usageError(stderr, "interleave test: -mpc %q: want sound or simple", mpcMode)
	case dporMode == "optimal" && preempt > 0:
		return usageError(stderr, "interleave test: -dpor optimal does not combine with -preemptions (a bounded dpor uses source sets)")
	}
	if hapSearch != "dpor" && hapSearch != "pcb" {
		return usageError(stderr, "interleave test: -hapset-search %q: want dpor or pcb", hapSearch)
	}
	if hapK < 0 || hapLearn < 0 {
		return usageError(stderr, "interleave test: -hapset-k and -hapset-learn must not be negative")
	}
	if timers != "stall" && timers != "eager" && timers != "idle" {
		return usageError(stderr, "interleave test: -timers %q: want stall, eager or idle", timers)
	}
	if timing != "note" && timing != "fail" {
		return usageError(stderr, "interleave test: -timing %q: want note or fail", timing)
	}
	if schedules < 0 || steps < 0 || pctDepth < 0 || preempt < 0 || budget < 0 || stuckAfter < 0 || goroutines < 0 || choices < 0 || stall < 0 || solverTime < 0 {
		return usageError(stderr, "interleave test: -schedules, -steps, -pct-depth, -preemptions, -budget, -stuck-after, -goroutines, -choices, -stall and -solver-timeout must not be negative")
	}
	if workers < 1 {
		return usageError(stderr, "interleave test: -workers %d: want at least 1", workers)
	}
	shard, err = resolveShard(shard, os.Getenv)
	if err != nil {
		return usageError(stderr, "interleave test: -shard: %v", err)
	}
	if shard != "" && !spec.Shards {
		return usageError(stderr, "interleave test: -shard: %s does not split between shards: %s; use %s", strategy, spec.NoShard, orList(sharding()))
	}
	if reduce && spec.MemoryPoints {
		return usageError(stderr, "interleave test: -reduce does not apply to -strategy %s, which steers goroutines between memory accesses", strategy)
	}
	if reduce && !race {
		return usageError(stderr, "interleave test: -reduce needs -race: without the race detector, a plain access that another goroutine's conflicts with would go unnoticed")
	}
	if timers == "stall" && stall == 0 {
		timers = "idle" // no stall at all: timers fire only in time, or when nothing else can run
	}
	if timers != "stall" {
		stall = 0
	}
	opts := common.options(stdout, stderr)
	opts.Patterns = patterns
	opts.TestArgs = testArgs
	opts.Config = wire.Config{
		Strategy:    strategy,
		Schedules:   schedules,
		Seed:        seed,
		Budget:      wire.Duration(budget),
		NoRace:      !race,
		NoLeaks:     !leaks.on,
		LeaksAll:    leaks.all,
		TimingFail:  timing == "fail",
		Reduce:      reduce,
		MaxSteps:    steps,
		PCTDepth:    pctDepth,
		Preemptions: preempt,
		DPOR:        dporMode,
		MPC:         mpcMode,
		StuckAfter:  wire.Duration(stuckAfter),
		ScheduleDir: common.scheduleDir,
		Timers:      timers,
		Stall:       wire.Duration(stall),

		MaxGoroutines: goroutines,
		MaxChoices:    choices,
		MaxObjects:    objects,
		Workers:       workers,
		Shard:         shard,
		SolverTimeout: wire.Duration(solverTime),
	}
	if strategy == "hapset" {
		c := &opts.Config
		c.HaPSetSearch, c.HaPSetK, c.HaPSetLearn, c.HaPSetReset = hapSearch, wireCount(hapK), wireCount(hapLearn), hapReset
	}
	opts.Progress = progressSink(common.goFlags, stdout, stderr)
	out, err := driver.Test(ctx, opts)
	keepSignatures(out, stderr)
	if out != nil && goFlagSet(common.goFlags, "json") {
		writeNotes(stdout, out.Results, time.Now())
	}
	return finish(out, err, stderr)
}

// leaksFlag is -leaks: true (the default) reports a goroutine left
// blocked when it depends on the interleaving and notes one that every
// schedule leaves; all reports both; false neither.
type leaksFlag struct{ on, all bool }

func (l *leaksFlag) String() string {
	switch {
	case l == nil || l.on && !l.all:
		return "true"
	case l.all:
		return "all"
	}
	return "false"
}

func (l *leaksFlag) Set(v string) error {
	switch v {
	case "all":
		l.on, l.all = true, true
		return nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return fmt.Errorf("want true, false or all")
	}
	l.on, l.all = on, false
	return nil
}

// IsBoolFlag lets -leaks stand alone, as -leaks=true.
func (l *leaksFlag) IsBoolFlag() bool { return true }

// sharding returns the strategies that split between shards.
func sharding() []string {
	var names []string
	for _, s := range strategies.All {
		if s.Shards && !s.Internal {
			names = append(names, s.Name)
		}
	}
	return names
}

// orList spells names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// wireCount gives a count as wire.Config spells it: 0 is the default
// there, so none is negative.
func wireCount(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// finish reports the outcome of a driver run and returns the exit status.
func finish(out *driver.Outcome, err error, stderr io.Writer) int {
	if err != nil {
		var be *driver.BuildError
		if errors.As(err, &be) {
			for _, e := range be.Errors {
				fmt.Fprintln(stderr, e)
			}
			return driver.ExitUsage
		}
		fmt.Fprintf(stderr, "interleave: %v\n", err)
		return driver.ExitUsage
	}
	out.WriteSummary(stderr)
	return out.ExitCode()
}

// usageError prints a usage error and returns exit status 2.
func usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, format+"\n", args...)
	fmt.Fprintf(stderr, "run \"interleave help\" for usage\n")
	return 2
}

// shardIndexEnv is the variable from which "-shard auto/N" takes K: the
// completion index of a Kubernetes Indexed Job.
const shardIndexEnv = "JOB_COMPLETION_INDEX"

// resolveShard checks a -shard value and replaces "auto" by the index in
// $JOB_COMPLETION_INDEX. "" and any K/1 mean no sharding.
func resolveShard(s string, getenv func(string) string) (string, error) {
	if s == "" {
		return "", nil
	}
	if k, n, ok := strings.Cut(s, "/"); ok && k == "auto" {
		idx := getenv(shardIndexEnv)
		if idx == "" {
			return "", fmt.Errorf("%q: $%s is not set", s, shardIndexEnv)
		}
		s = idx + "/" + n
	}
	_, n, err := wire.ParseShard(s)
	if err != nil {
		return "", err
	}
	if n == 1 {
		return "", nil
	}
	return s, nil
}
