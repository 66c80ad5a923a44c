package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"interleave.dev/rt/wire"
)

// A Builder builds instrumented test binaries: the tests of dir/p, for
// each p in pkgs, into outDir/<base name of p>.test, as "interleave test"
// builds them. bench.DriverBuilder is one.
type Builder interface {
	Build(ctx context.Context, dir string, pkgs []string, outDir string) error
}

// Strategies are the strategies the harness runs by default.
var Strategies = []string{"random", "pct", "coverage", "dfs", "dpor", "pcb", "hapset", "mcr", "active"}

// Systematic reports whether strategy claims, when it says so, to have
// covered every interleaving.
func Systematic(s string) bool {
	switch s {
	case "dfs", "dpor", "pcb", "mcr", "mpc":
		return true
	}
	return false
}

// Config is the plan of the harness.
type Config struct {
	// Strategies run on every form (default Strategies).
	Strategies []string
	// Schedules is the budget of the randomized strategies (default 200),
	// SystematicSchedules that of the systematic ones (default 5000).
	Schedules           int
	SystematicSchedules int
	// Budget bounds each exploration (default 20s).
	Budget time.Duration
	// NativeCount is the -count of each native run (default 10), run
	// under GOMAXPROCS 1, 2, 3 and 4, with and without injected
	// runtime.Gosched calls.
	NativeCount int
	// Replays is the number of replays of each finding (default 10).
	Replays int
	// SkipNative runs no native runs (the oracles that need none).
	SkipNative bool
	// SkipReplays runs no replays.
	SkipReplays bool
	// Robust adds runs with -workers 2 and with shards, compared with
	// the plain ones.
	Robust bool
	// NoRace runs every strategy without race detection too (a planted
	// defect: the race oracle must fire).
	NoRace bool
	// Solver is the path of interleave-solver (strategies mcr, mpc).
	Solver string
	// Builder builds the instrumented binaries.
	Builder Builder
	// WorkDir holds the modules, binaries and outputs.
	WorkDir string
	// Keep keeps each program's directory after it ran.
	Keep bool
}

func (c Config) withDefaults() Config {
	if len(c.Strategies) == 0 {
		c.Strategies = Strategies
	}
	if c.Schedules <= 0 {
		c.Schedules = 200
	}
	if c.SystematicSchedules <= 0 {
		c.SystematicSchedules = 5000
	}
	if c.Budget <= 0 {
		c.Budget = 20 * time.Second
	}
	if c.NativeCount <= 0 {
		c.NativeCount = 10
	}
	if c.Replays <= 0 {
		c.Replays = 10
	}
	return c
}

// fileSuffix identifies the test file in stacks and signatures.
var fileSuffix = "/" + PkgDir + "/" + FileName

// Observe builds p natively and instrumented in dir and runs it: native
// runs of every form, every strategy on every form, replays of the
// findings. The error is for a harness that cannot work (no directory);
// a program that does not build is recorded in the observation.
func Observe(ctx context.Context, cfg Config, p *Program, dir string) (*Observation, error) {
	cfg = cfg.withDefaults()
	start := time.Now()
	o := &Observation{Program: p, Native: map[Form]*Native{}, Budget: cfg.Budget}
	nat, ins := filepath.Join(dir, "native"), filepath.Join(dir, "instrumented")
	if _, err := p.WriteModule(nat, true); err != nil {
		return nil, err
	}
	r, err := p.WriteModule(ins, false)
	if err != nil {
		return nil, err
	}
	o.Rendered = r
	bins := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bins, 0o755); err != nil {
		return nil, fmt.Errorf("difftest: %w", err)
	}
	nbin := filepath.Join(bins, "native.test")
	var nerr, ierr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		nerr = buildNative(ctx, nat, nbin)
	}()
	ierr = cfg.Builder.Build(ctx, ins, []string{PkgDir}, bins)
	wg.Wait()
	switch {
	case nerr != nil:
		o.BuildErr = nerr.Error()
	case ierr != nil:
		o.BuildErr = ierr.Error()
	}
	if o.BuildErr != "" {
		o.Seconds = time.Since(start).Seconds()
		return o, nil
	}
	ibin := filepath.Join(bins, PkgDir+".test")
	pkg := filepath.Join(ins, PkgDir)
	for _, f := range p.Forms() {
		if !cfg.SkipNative {
			o.Native[f] = runNative(ctx, cfg, nbin, filepath.Join(nat, PkgDir), dir, f)
		}
	}
	for _, f := range p.Forms() {
		for _, s := range cfg.Strategies {
			o.Runs = append(o.Runs, runInterleave(ctx, cfg, ibin, pkg, dir, &Run{Form: f, Strategy: s, Seed: 1}))
			if cfg.NoRace && f == Racy {
				o.Runs = append(o.Runs, runInterleave(ctx, cfg, ibin, pkg, dir, &Run{Form: f, Strategy: s, Seed: 1, NoRace: true}))
			}
		}
		if cfg.Robust {
			// The result does not depend on -workers: 1 and 2 agree
			// (dpor runs its rounds with either, its sequential search
			// without).
			for _, s := range []string{"random", "dfs", "dpor"} {
				if contains(cfg.Strategies, s) {
					o.Runs = append(o.Runs, runInterleave(ctx, cfg, ibin, pkg, dir, &Run{Form: f, Strategy: s, Seed: 1, Workers: 1}))
					o.Runs = append(o.Runs, runInterleave(ctx, cfg, ibin, pkg, dir, &Run{Form: f, Strategy: s, Seed: 1, Workers: 2}))
				}
			}
			for _, sh := range []string{"0/2", "1/2"} {
				o.Runs = append(o.Runs, runInterleave(ctx, cfg, ibin, pkg, dir, &Run{Form: f, Strategy: "random", Seed: 1, Shard: sh}))
			}
		}
	}
	// A native outcome that dfs did not reach may need a goroutine
	// stalled past a timeout, which the default timer policy never does
	// (a timer fires early only into a select that also waits for work)
	// and a loaded machine does: random schedules under -timers=eager,
	// which fire a pending timer at any point, tell such an outcome
	// apart (dfs there would try an early firing near the start last).
	for _, f := range p.Forms() {
		if dfs := findRun(o, f, "dfs"); f != Racy && dfs != nil && dfs.Verified() && o.Native[f] != nil && unreached(o.Native[f].Outcomes, dfs.Outcomes) {
			if o.Eager == nil {
				o.Eager = map[Form]*Run{}
			}
			o.Eager[f] = runInterleave(ctx, cfg, ibin, pkg, dir, &Run{Form: f, Strategy: "random", Seed: 1, Timers: "eager"})
		}
	}
	// A race go test -race reports that random does not find may need a
	// goroutine stalled too (a lone wait on a timer ending before
	// another goroutine's quick work, as natively on a loaded machine):
	// random under -timers=eager tells such a race apart.
	if r := findRun(o, Racy, "random"); r != nil && o.Native[Racy] != nil && len(o.Native[Racy].Races) > 0 {
		if k, ok := r.Finding(); !ok || k != "data race" {
			if o.Eager == nil {
				o.Eager = map[Form]*Run{}
			}
			o.Eager[Racy] = runInterleave(ctx, cfg, ibin, pkg, dir, &Run{Form: Racy, Strategy: "random", Seed: 1, Timers: "eager"})
		}
	}
	// Replays: the first finding of each strategy and form.
	for _, run := range o.Runs {
		if cfg.SkipReplays {
			break
		}
		kind, ok := run.Finding()
		if !ok || run.Result.Schedule == "" || run.Workers != 0 || run.Shard != "" || run.NoRace {
			continue
		}
		rp := &Replay{Run: run, Verdict: kind}
		for i := 0; i < cfg.Replays; i++ {
			v, out := replayOnce(ctx, cfg, ibin, pkg, dir, run)
			rp.Got = append(rp.Got, v)
			if v != kind && len(rp.Outputs) < 2 {
				rp.Outputs = append(rp.Outputs, out)
			}
		}
		again := runInterleave(ctx, cfg, ibin, pkg, dir, &Run{Form: run.Form, Strategy: run.Strategy, Seed: run.Seed})
		rp.Again, rp.AgainBound = verdict(again), again.budgetBound(cfg.Budget)
		o.Replays = append(o.Replays, rp)
	}
	o.Seconds = time.Since(start).Seconds()
	return o, nil
}

// unreached reports whether an outcome of native is not among reached.
func unreached(native, reached map[string]int) bool {
	for val := range native {
		if reached[val] == 0 {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// verdict is a run's verdict in one word: pass, verified, the finding's
// kind, or the outcome.
func verdict(r *Run) string {
	switch {
	case r.Result == nil:
		return "crash"
	case r.Verified():
		return "verified"
	case r.Result.Outcome == wire.OutcomeFinding:
		return r.Result.Kind
	}
	return r.Result.Outcome
}

// buildNative compiles the native test binary with the race detector.
func buildNative(ctx context.Context, dir, bin string) error {
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-race", "-o", bin, "./"+PkgDir)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go test -race -c in %s: %w\n%s", dir, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// runNative runs form f natively: -count NativeCount under GOMAXPROCS 1
// to 4, without and with injected runtime.Gosched calls. A run that
// crashes (a panic, a hang) ends its process: the next one goes on.
func runNative(ctx context.Context, cfg Config, bin, pkgDir, dir string, f Form) *Native {
	n := newNative()
	timeout := 10 * time.Second
	if f == Bug {
		timeout = 3 * time.Second
	}
	for _, yield := range []bool{false, true} {
		out := filepath.Join(dir, "native-"+string(f)+".out")
		os.Remove(out)
		env := append(os.Environ(), OutEnv+"="+out, "GORACE=atexit_sleep_ms=0 halt_on_error=0")
		if yield {
			env = append(env, YieldEnv+"=1")
		}
		tries := 0
		for left := cfg.NativeCount * 4; left > 0 && tries < 3 && ctx.Err() == nil; tries++ {
			before := countLines(out)
			rctx, cancel := context.WithTimeout(ctx, timeout+20*time.Second)
			cmd := exec.CommandContext(rctx, bin, "-test.run=^"+f.TestName()+"$", fmt.Sprintf("-test.count=%d", (left+3)/4), "-test.cpu=1,2,3,4", "-test.timeout="+timeout.String())
			cmd.Dir = pkgDir
			cmd.Env = env
			var buf bytes.Buffer
			cmd.Stdout, cmd.Stderr = &buf, &buf
			cmd.WaitDelay = 2 * time.Second
			err := cmd.Run()
			cancel()
			text := buf.String()
			for p, c := range parseRaces(text, fileSuffix) {
				n.Races[p] += c
			}
			ran := countLines(out) - before
			n.Runs += ran
			left -= ran
			if err == nil {
				break
			}
			n.Failures[nativeFailure(text)]++
			left-- // the run that failed
		}
		outs, seqs := parseOutcomes(out)
		for v, c := range outs[f.TestName()] {
			n.Outcomes[v] += c
		}
		for v, c := range seqs[f.TestName()] {
			n.Seq[v] += c
		}
	}
	return n
}

// nativeFailure classifies the output of a native process that failed.
func nativeFailure(out string) string {
	switch {
	case strings.Contains(out, "panic: test timed out"):
		return "hang"
	case strings.Contains(out, "all goroutines are asleep"):
		return "deadlock"
	case strings.Contains(out, "\npanic: ") || strings.HasPrefix(out, "panic: "):
		return "panic"
	case strings.Contains(out, "fatal error: "):
		return "fatal error"
	case strings.Contains(out, "race detected during execution of test"):
		return "data race"
	}
	return "test failure"
}

func countLines(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		// Only the outcome lines: one per completed run.
		if l != "" && !strings.Contains(strings.SplitN(l, "\t", 2)[0], ".seq") {
			n++
		}
	}
	return n
}

// runInterleave runs form run.Form of the instrumented binary as run says
// (strategy, seed, workers, shard, race detection, timer policy) and
// fills in what it found.
func runInterleave(ctx context.Context, cfg Config, bin, pkgDir, dir string, run *Run) *Run {
	f, s, seed, workers, shard, noRace := run.Form, run.Strategy, run.Seed, run.Workers, run.Shard, run.NoRace
	tag := fmt.Sprintf("%s-%s-%d-w%d-%s-%v-%s", f, s, seed, workers, strings.ReplaceAll(shard, "/", "of"), noRace, run.Timers)
	results := filepath.Join(dir, tag+".results")
	out := filepath.Join(dir, tag+".out")
	scheds := filepath.Join(dir, "schedules", tag)
	os.Remove(results)
	os.Remove(out)
	wc := wire.Config{Strategy: s, Seed: seed, Schedules: cfg.Schedules, Budget: wire.Duration(cfg.Budget), Results: results, ScheduleDir: scheds, Workers: workers, Shard: shard, NoRace: noRace, Timers: run.Timers}
	if Systematic(s) {
		wc.Schedules = cfg.SystematicSchedules
	}
	if s == "mcr" || s == "mpc" {
		wc.Solver = cfg.Solver
	}
	start := time.Now()
	text, err := execTest(ctx, bin, pkgDir, f.TestName(), wc, cfg.Budget+30*time.Second, out)
	run.Seconds = time.Since(start).Seconds()
	recs, rerr := wire.ReadResults(results)
	if shard != "" && len(recs) == 0 {
		recs, rerr = wire.ReadResults(filepath.Join(scheds, "results-"+strings.ReplaceAll(shard, "/", "-of-")+".jsonl"))
	}
	if len(recs) == 0 {
		switch {
		case err != nil:
			run.Err = fmt.Sprintf("test binary: %v", err)
		case rerr != nil:
			run.Err = rerr.Error()
		default:
			run.Err = "no result record"
		}
		run.Output = tail(text)
		return run
	}
	res := recs[0]
	run.Result = &res
	if res.Outcome == wire.OutcomeError || res.Outcome == wire.OutcomeUnrepeatable || res.Outcome == wire.OutcomeDiverged || strings.Contains(text, "interleave.dev/rt") && strings.Contains(text, "panic") {
		run.Output = tail(text)
	}
	if res.Kind == "data race" {
		run.Race = reportedRace(text, FileName)
	}
	outs, seqs := parseOutcomes(out)
	run.Outcomes, run.Seq = outs[f.TestName()], seqs[f.TestName()]
	return run
}

// replayOnce replays run's schedule file as "interleave replay" does and
// returns the verdict and the output.
func replayOnce(ctx context.Context, cfg Config, bin, pkgDir, dir string, run *Run) (string, string) {
	s, err := wire.ReadSchedule(run.Result.Schedule)
	if err != nil {
		return "unreadable schedule", err.Error()
	}
	results := filepath.Join(dir, "replay.results")
	os.Remove(results)
	wc := wire.Config{Strategy: "replay", Replay: run.Result.Schedule, Seed: s.Seed, NoRace: !s.Race, NoLeaks: !s.Leaks, MaxSteps: s.MaxSteps,
		MaxGoroutines: s.MaxGoroutines, MaxChoices: s.MaxChoices, MaxObjects: s.MaxObjects, Package: s.Package, Results: results, ScheduleDir: filepath.Join(dir, "schedules", "replay")}
	text, _ := execTest(ctx, bin, pkgDir, run.Form.TestName(), wc, cfg.Budget+30*time.Second, filepath.Join(dir, "replay.out"))
	recs, _ := wire.ReadResults(results)
	if len(recs) == 0 {
		return "crash", tail(text)
	}
	r := &Run{Result: &recs[0]}
	return verdict(r), tail(text)
}

// execTest runs the test binary on one test with the configuration wc
// and the outcome file out; it returns the output.
func execTest(ctx context.Context, bin, pkgDir, test string, wc wire.Config, timeout time.Duration, out string) (string, error) {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	args := []string{"-test.run=^" + test + "$", "-test.count=1", "-test.timeout=" + timeout.String()}
	env := append(os.Environ(), wire.ConfigEnv+"="+wc.Encode(), OutEnv+"="+out)
	var buf bytes.Buffer
	var err error
	for try := 0; try < 5; try++ {
		buf.Reset()
		cmd := exec.CommandContext(rctx, bin, args...)
		cmd.Dir, cmd.Env = pkgDir, env
		cmd.Stdout, cmd.Stderr = &buf, &buf
		cmd.WaitDelay = 5 * time.Second
		if err = cmd.Run(); !errors.Is(err, syscall.ETXTBSY) {
			break
		}
		// A binary written while another goroutine forked stays busy
		// until that child execs: retry.
		time.Sleep(50 * time.Millisecond)
	}
	if rctx.Err() != nil && ctx.Err() == nil {
		err = fmt.Errorf("killed after %s: %w", timeout, err)
	}
	return buf.String(), err
}

// tail returns the last 4 KiB of s.
func tail(s string) string {
	const n = 4 << 10
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
