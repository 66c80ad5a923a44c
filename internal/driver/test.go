package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// Test instruments the packages matched by opts.Patterns and runs their
// tests under the explorer with go test. It returns an error (exit status
// 2) when the run cannot start, and a *BuildError when a package cannot be
// loaded; findings and test failures are in the Outcome.
func Test(ctx context.Context, opts Options) (*Outcome, error) {
	timing := newTimer(opts.Env)
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if spec := strategies.Lookup(o.Config.Strategy); spec != nil && spec.Solver != strategies.NoSolver && o.Config.Solver == "" {
		if o.Config.Solver, err = BuildSolver(ctx, o.CacheDir, o.SolverSource, o.Env); err != nil {
			return nil, err
		}
		timing.lap("solver")
	}
	ws, err := newWorkspace(ctx, o)
	if err != nil {
		return nil, err
	}
	defer ws.close()
	timing.lap("setup")

	all, err := listGraph(ctx, ws.load, o.Patterns)
	timing.lap("list")
	if err != nil {
		return nil, err
	}
	ins, err := instrumentGraph(ctx, o, ws, all)
	if err != nil {
		return nil, err
	}
	timing.lap(fmt.Sprintf("instrument (%d units, %d cached)", ins.Units, ins.Cached))
	printWarnings(o.Stderr, o.Dir, ins.Warnings, ins.Modules, o.DepWarnings)

	args, err := injectRuntime(ctx, o, ws, ins)
	if err != nil {
		return nil, err
	}
	if len(ins.Replace) > 0 {
		overlay, err := writeOverlay(o.CacheDir, ins.Replace)
		if err != nil {
			return nil, err
		}
		args = append(args, "-overlay="+overlay)
	}
	cfg, err := explorationConfig(o, ws, all)
	if err != nil {
		return nil, err
	}
	if o.Tags != "" {
		args = append(args, "-tags="+o.Tags)
	}
	args = append(args, o.GoFlags...)
	args = append(args, o.Patterns...)
	if len(o.TestArgs) > 0 {
		args = append(append(args, "-args"), o.TestArgs...)
	}

	attr := newAttributor()
	var progress *progressTail
	if o.Progress != nil {
		cfg.Progress = filepath.Join(ws.tmp, "progress.jsonl")
		progress = newProgressTail(cfg.Progress, o.Progress)
	}
	var timeouts timeoutWatch
	lines := func(l []byte) {
		attr.line(l)
		timeouts.line(l)
	}
	run, err := runGoTest(ctx, o.Dir, append(ws.env, wire.ConfigEnv+"="+cfg.Encode()), args, o.Stdout, o.Stderr, lines, progress)
	if err != nil {
		return nil, err
	}
	out := &Outcome{GoTestExit: run.Exit, BuildFailed: run.BuildFailed, Instrumented: ins.Units, Cached: ins.Cached, TimedOut: timeouts.found}
	out.Results, err = wire.ReadResults(cfg.Results)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("reading test results: %w", err)
	}
	attr.complete(out.Results)
	if cfg.Shard != "" {
		if err := writeShardResults(cfg, out.Results); err != nil {
			return nil, err
		}
	}
	trimCache(o.CacheDir, time.Now())
	timing.lap("go test")
	timing.print(o.Stderr)
	return out, nil
}

// explorationConfig completes the Config handed to the test binaries.
func explorationConfig(o Options, ws *workspace, all []*packages.Package) (wire.Config, error) {
	cfg := o.Config
	cfg.Results = filepath.Join(ws.tmp, "results.jsonl")
	switch {
	case cfg.ScheduleDir == "":
		cfg.ScheduleDir = filepath.Join(o.CacheDir, "schedules")
	case !filepath.IsAbs(cfg.ScheduleDir):
		// Test binaries run in their package's directory.
		cfg.ScheduleDir = filepath.Join(o.Dir, cfg.ScheduleDir)
	}
	if cfg.Package == "" {
		cfg.Package = singlePackage(all)
	}
	if err := os.MkdirAll(cfg.ScheduleDir, 0o755); err != nil {
		return cfg, fmt.Errorf("creating the schedule directory: %w", err)
	}
	return cfg, nil
}

// singlePackage returns the import path of the package under test when the
// run tests exactly one, else "" (the runtime then names the package).
func singlePackage(all []*packages.Package) string {
	paths := map[string]bool{}
	for _, p := range all {
		if isTestMain(p) {
			paths[strings.TrimSuffix(p.ID, ".test")] = true
		}
	}
	if len(paths) != 1 {
		return ""
	}
	for p := range paths {
		return p
	}
	return ""
}
