package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"interleave.dev/rt/strategies"
	"interleave.dev/rt/wire"
)

// Config is the plan of a benchmark: which strategies, how many seeds, and
// the budget of every run.
type Config struct {
	// Strategies are the runtime's strategy names, plus Native for the
	// plain go test baseline (default native, random, pct, dfs, dpor, pcb).
	Strategies []string
	// Seeds is the number of seeds (1..Seeds) of randomized strategies
	// (default 5); systematic strategies run once, with seed 1.
	Seeds int
	// Schedules is the budget of schedules per run (default 1000).
	Schedules int
	// Budget bounds the wall-clock time the runtime spends exploring one
	// test (default 60s; the runtime then reports a pass with the
	// schedules it ran).
	Budget time.Duration
	// Timeout kills a test binary that runs longer (default Budget plus a
	// minute): a hung run is recorded as an error.
	Timeout time.Duration
	// MaxSteps is the runtime's step bound per schedule (0: its default).
	MaxSteps int
	// Reduce runs every strategy without scheduling points at plain
	// memory accesses (wire.Config.Reduce).
	Reduce bool
	// Timers is the timer policy of every run (wire.Config.Timers; ""
	// the default).
	Timers string
	// Parallel is the number of kernels built and run at once (default
	// 2); each runs one process at a time.
	Parallel int
	// Variants restricts the variants run (default all).
	Variants []string
	// ScheduleDir receives the schedule files of findings (default "-":
	// none are written).
	ScheduleDir string
	// WorkDir holds the test binaries and result files (default a
	// temporary directory, removed at the end).
	WorkDir string
	// Progress, when set, receives one line per finished package.
	Progress io.Writer
	// Solver is the path of interleave-solver, for strategy mcr.
	Solver string
}

// DefaultConfig returns the default plan.
func DefaultConfig() Config {
	return Config{
		Strategies: []string{Native, "random", "coverage", "pct", "dfs", "dpor", "dpor-source", "pcb", "hapset", "hapset-pcb", "mcr", "mpc"},
		Seeds:      5,
		Schedules:  1000,
		Budget:     60 * time.Second,
		Parallel:   2,
		Variants:   append([]string(nil), Variants...),
	}
}

// QuickConfig returns a smaller plan for continuous integration: no native
// baseline (its deadlocked runs wait for a timeout), two seeds and 200
// schedules per run.
func QuickConfig() Config {
	c := DefaultConfig()
	c.Strategies = []string{"random", "pct", "dfs"}
	c.Seeds = 2
	c.Schedules = 200
	c.Budget = 15 * time.Second
	return c
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if len(c.Strategies) == 0 {
		c.Strategies = d.Strategies
	}
	if c.Seeds <= 0 {
		c.Seeds = d.Seeds
	}
	if c.Schedules <= 0 {
		c.Schedules = d.Schedules
	}
	if c.Budget <= 0 {
		c.Budget = d.Budget
	}
	if c.Timeout <= 0 {
		c.Timeout = c.Budget + time.Minute
	}
	if c.Parallel <= 0 {
		c.Parallel = d.Parallel
	}
	if len(c.Variants) == 0 {
		c.Variants = d.Variants
	}
	if c.ScheduleDir == "" {
		c.ScheduleDir = "-"
	}
	return c
}

// Randomized reports whether strategy depends on its seed, so that the
// harness runs it with several seeds.
func Randomized(strategy string) bool {
	base, _, _ := strings.Cut(strings.TrimSuffix(strategy, "@fuzz"), "-") // hapset-pcb, dpor-source: a strategy with a setting
	spec := strategies.Lookup(base)
	return spec != nil && spec.Seeded
}

// seeds returns the seeds to run strategy with.
func (c Config) seeds(strategy string) []int64 {
	if !Randomized(strategy) {
		return []int64{1}
	}
	s := make([]int64, c.Seeds)
	for i := range s {
		s[i] = int64(i + 1)
	}
	return s
}

// OutcomeError marks a run that produced no result record: the binary
// did not build, crashed, or timed out.
const OutcomeError = "error"

// Run is the record of one execution of a kernel variant under one
// strategy and seed.
type Run struct {
	Kernel    string  `json:"kernel"`
	Variant   string  `json:"variant"`
	Strategy  string  `json:"strategy"`
	Seed      int64   `json:"seed"`
	Outcome   string  `json:"outcome"` // a wire outcome, or OutcomeError
	Kind      string  `json:"kind,omitempty"`
	Schedules int     `json:"schedules"` // schedules run, the detecting one included
	Exhausted bool    `json:"exhausted,omitempty"`
	Seconds   float64 `json:"seconds"` // the runtime's exploration time
	Wall      float64 `json:"wall"`    // wall-clock time of the process
	Message   string  `json:"message,omitempty"`
	// NeverStops: the run noted goroutines that every schedule left
	// blocked (wire.Result.Notes): a leak that does not depend on the
	// interleaving, which does not fail the test but is reported.
	NeverStops bool `json:"never_stops,omitempty"`
	// Detected: a finding of the kernel's kind on buggy or partial, or,
	// for a leak kernel, a never-stops note.
	Detected bool `json:"detected,omitempty"`
	// FalseReport: any finding on a fixed twin, or a never-stops note on
	// a leak kernel's fixed twin.
	FalseReport bool `json:"false_report,omitempty"`
	// Predictions counts the potential bugs the active strategy
	// predicted, Confirmed those its directed runs confirmed.
	Predictions int `json:"predictions,omitempty"`
	Confirmed   int `json:"confirmed,omitempty"`
	// SolverQueries and SolverSeconds are what strategies mcr and mpc
	// asked their solver, over the package's tests.
	SolverQueries int     `json:"solver_queries,omitempty"`
	SolverSeconds float64 `json:"solver_seconds,omitempty"`
}

// Classify sets r.Detected and r.FalseReport for kernel k.
//
// A leak that every schedule shows is a note, not a finding (the user
// sees it under -v and in -json; -leaks=all fails on it): on a leak
// kernel the note counts as detecting it, and as a false report on its
// fixed twin.
func Classify(k *Kernel, r *Run) {
	finding := r.Outcome == wire.OutcomeFinding
	noted := r.NeverStops && r.Strategy != Native && k.Detect == leakKind
	r.Detected = r.Variant != Fixed && (finding && Detects(r.Strategy, r.Kind, k.Detect) || noted)
	r.FalseReport = r.Variant == Fixed && (finding || noted)
}

// leakKind is the finding kind of a goroutine leak.
const leakKind = "goroutine leak"

// Detects reports whether a finding of kind, reported under strategy,
// counts as detecting a kernel whose finding kind is detect.
func Detects(strategy, kind, detect string) bool {
	if strategy == Native {
		return nativeDetects(kind, detect)
	}
	return kind == detect
}

// Execute builds every selected variant of every kernel once and runs it
// under every strategy and seed of cfg, at most cfg.Parallel kernels at a
// time (each builds or runs one process at a time). It returns the runs sorted by kernel, variant, strategy and seed. A
// package that does not build yields error runs, not an error; the error is
// for a harness that cannot work at all (no work directory, canceled).
func Execute(ctx context.Context, cfg Config, kernels []*Kernel, b Builder) ([]Run, error) {
	cfg = cfg.withDefaults()
	work, cleanup, err := workDir(cfg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	if cfg.ScheduleDir != "-" {
		if err := os.MkdirAll(cfg.ScheduleDir, 0o755); err != nil {
			return nil, fmt.Errorf("bench: creating the schedule directory: %w", err)
		}
	}

	var (
		mu   sync.Mutex
		runs []Run
		done int
	)
	err = forEach(ctx, cfg.Parallel, len(kernels), func(i int) {
		k := kernels[i]
		start := time.Now()
		rs := runKernel(ctx, cfg, work, b, k)
		mu.Lock()
		defer mu.Unlock()
		runs = append(runs, rs...)
		done++
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "bench: [%d/%d] %s (%.1fs)\n", done, len(kernels), kernelLine(k, rs), time.Since(start).Seconds())
		}
	})
	if err != nil {
		return runs, err
	}
	SortRuns(runs)
	return runs, nil
}

// forEach calls fn(i) for i in [0, n), on at most workers goroutines at a
// time, until ctx is done.
func forEach(ctx context.Context, workers, n int, fn func(i int)) error {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				fn(i)
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// workDir returns cfg's work directory, created, or a temporary one that
// cleanup removes.
func workDir(cfg Config) (dir string, cleanup func(), err error) {
	if cfg.WorkDir != "" {
		if err := os.MkdirAll(cfg.WorkDir, 0o755); err != nil {
			return "", nil, fmt.Errorf("bench: creating the work directory: %w", err)
		}
		return cfg.WorkDir, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "interleave-bench-")
	if err != nil {
		return "", nil, fmt.Errorf("bench: creating a work directory: %w", err)
	}
	return tmp, func() { os.RemoveAll(tmp) }, nil
}

// kernelLine summarizes the runs of one kernel for the progress output.
func kernelLine(k *Kernel, rs []Run) string {
	var parts []string
	for _, v := range Variants {
		var n, det, fin, errs int
		for _, r := range rs {
			if r.Variant != v {
				continue
			}
			n++
			switch {
			case r.Outcome == OutcomeError:
				errs++
			case r.Outcome == wire.OutcomeFinding:
				fin++
			}
			if r.Detected {
				det++
			}
		}
		if n == 0 {
			continue
		}
		p := fmt.Sprintf("%s %d/%d detected", v, det, n)
		if v == Fixed {
			p = fmt.Sprintf("%s %d/%d false reports", v, fin, n)
		}
		if errs > 0 {
			p += fmt.Sprintf(" (%d failed)", errs)
		}
		parts = append(parts, p)
	}
	s := k.Name + ": " + strings.Join(parts, ", ")
	if e := firstError(rs); e != "" {
		s += ": " + firstLine(e)
	}
	return s
}

func firstError(rs []Run) string {
	for _, r := range rs {
		if r.Outcome == OutcomeError {
			return r.Message
		}
	}
	return ""
}

// runKernel builds the selected variants of k in one go and runs each
// under every strategy and seed. If the joint build fails, each variant is
// built on its own, so that one broken variant does not hide the others.
func runKernel(ctx context.Context, cfg Config, work string, b Builder, k *Kernel) []Run {
	var variants []string
	for _, v := range cfg.Variants {
		if k.Has(v) {
			variants = append(variants, v)
		}
	}
	outDir := filepath.Join(work, k.Name)
	buildErr := map[string]error{}
	for _, s := range cfg.Strategies {
		if s != Native { // some strategy needs the instrumented binaries
			buildErr = buildAll(ctx, k.Dir, variants, outDir, b.Build)
			break
		}
	}
	nativeDir := filepath.Join(work, k.Name, Native)
	var nativeErr map[string]error
	if contains(cfg.Strategies, Native) {
		nativeErr = buildAll(ctx, k.Dir, variants, nativeDir, buildNative)
	}
	var runs []Run
	for _, v := range variants {
		bin := filepath.Join(outDir, v+".test")
		for _, s := range cfg.Strategies {
			if FuzzOnly(s) && !k.NeedsInput {
				continue // no fuzz test to run
			}
			for _, seed := range cfg.seeds(s) {
				var r Run
				switch {
				case s == Native && nativeErr[v] != nil:
					r = Run{Outcome: OutcomeError, Message: nativeErr[v].Error()}
				case s == Native:
					r = runNative(ctx, cfg, filepath.Join(nativeDir, v+".test"), filepath.Join(k.Dir, v))
				case buildErr[v] != nil:
					r = Run{Outcome: OutcomeError, Message: buildErr[v].Error()}
				default:
					r = runOnce(ctx, cfg, work, bin, filepath.Join(k.Dir, v), k.Name+"-"+v, s, seed)
				}
				r.Kernel, r.Variant, r.Strategy, r.Seed = k.Name, v, s, seed
				Classify(k, &r)
				runs = append(runs, r)
			}
		}
	}
	return runs
}

// buildAll builds the variants with build in one call, or one by one if
// that fails, and returns the build error of each variant that failed.
func buildAll(ctx context.Context, dir string, variants []string, outDir string, build func(context.Context, string, []string, string) error) map[string]error {
	errs := map[string]error{}
	if err := build(ctx, dir, variants, outDir); err != nil {
		for _, v := range variants {
			if err := build(ctx, dir, []string{v}, outDir); err != nil {
				errs[v] = err
			}
		}
	}
	return errs
}

// runOnce runs the test binary bin once with the given strategy and seed
// and reads back its result record.
func runOnce(ctx context.Context, cfg Config, work, bin, pkgDir, name, strategy string, seed int64) Run {
	run := "^Test"
	if FuzzOnly(strategy) {
		run = "^Fuzz"
	}
	st, preemptions := splitBound(strings.TrimSuffix(strategy, "@fuzz"))
	wc := wire.Config{Strategy: st, Preemptions: preemptions, Seed: seed}
	switch st {
	case "mpc-simple":
		// The bench's name for mpc with strategy S1.
		wc.Strategy, wc.MPC = "mpc", "simple"
	case "hapset-pcb":
		// The bench's name for hapset guiding pcb.
		wc.Strategy, wc.HaPSetSearch = "hapset", "pcb"
	case "dpor-source":
		// The bench's name for dpor with source sets alone.
		wc.Strategy, wc.DPOR = "dpor", "source"
	}
	r, _ := runConfig(ctx, cfg, work, bin, pkgDir, name, run, wc)
	return r
}

// FuzzOnly reports whether the bench runs strategy on the fuzz tests of
// the kernels that need an input, with their seed corpus, and on no
// other: mpc, which explores inputs (mpc-simple: with strategy S1), and
// any strategy named with the suffix "@fuzz" (mcr@fuzz, random@fuzz),
// which keeps the seed inputs.
func FuzzOnly(strategy string) bool {
	return strategy == "mpc" || strategy == "mpc-simple" || strings.HasSuffix(strategy, "@fuzz")
}

// runConfig runs the test binary bin once with wc, completed by cfg's
// budget, and returns the run and the result record that speaks for it
// (nil when there is none).
func runConfig(ctx context.Context, cfg Config, work, bin, pkgDir, name, run string, wc wire.Config) (Run, *wire.Result) {
	results := filepath.Join(work, fmt.Sprintf("%s-%s%s%s%s%d-%d%s.jsonl", name, wc.Strategy, wc.HaPSetSearch, wc.DPOR, wc.MPC, wc.Preemptions, wc.Seed, strings.Trim(run, "^")))
	os.Remove(results)
	wc.Schedules = cfg.Schedules
	wc.Budget = wire.Duration(cfg.Budget)
	wc.MaxSteps = cfg.MaxSteps
	wc.Reduce = cfg.Reduce
	wc.Timers = cfg.Timers
	wc.Results = results
	if wc.Strategy == "mcr" || wc.Strategy == "mpc" {
		wc.Solver = cfg.Solver
	}
	if wc.ScheduleDir == "" {
		wc.ScheduleDir = cfg.ScheduleDir
	}
	rctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	cmd := exec.CommandContext(rctx, bin, "-test.run="+run, "-test.count=1", "-test.timeout="+cfg.Timeout.String())
	cmd.Dir = pkgDir
	cmd.Env = append(os.Environ(), wire.ConfigEnv+"="+wc.Encode())
	var out tailBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	for try := 0; try < 5 && errors.Is(err, syscall.ETXTBSY); try++ {
		// A binary written while another goroutine forked is busy until
		// that child execs (a Linux race of fork and open files): retry.
		time.Sleep(50 * time.Millisecond)
		retry := exec.CommandContext(rctx, cmd.Path, cmd.Args[1:]...)
		retry.Dir, retry.Env, retry.Stdout, retry.Stderr, retry.WaitDelay = cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr, cmd.WaitDelay
		err = retry.Run()
	}
	wall := time.Since(start).Seconds()
	recs, rerr := wire.ReadResults(results)
	os.Remove(results)
	if len(recs) == 0 {
		msg := "no result record"
		switch {
		case rctx.Err() != nil:
			msg = fmt.Sprintf("killed after %s", cfg.Timeout)
		case err != nil:
			msg = fmt.Sprintf("test binary: %v", err)
		case rerr != nil && !errors.Is(rerr, os.ErrNotExist):
			msg = rerr.Error()
		}
		if t := strings.TrimSpace(out.String()); t != "" {
			msg += ": " + t
		}
		return Run{Outcome: OutcomeError, Wall: wall, Message: msg}, nil
	}
	res := pick(recs)
	r := Run{
		Outcome:   res.Outcome,
		Kind:      res.Kind,
		Schedules: res.Schedules,
		Exhausted: res.Exhausted,
		Seconds:   res.Seconds,
		Wall:      wall,
		Message:   firstLine(res.Message),
	}
	for _, rec := range recs {
		if rec.MCR != nil {
			r.SolverQueries += rec.MCR.Queries
			r.SolverSeconds += rec.MCR.Seconds
		}
		r.NeverStops = r.NeverStops || len(rec.Notes) > 0
		r.Predictions += len(rec.Predictions)
		for _, p := range rec.Predictions {
			if p.Status == "confirmed" {
				r.Confirmed++
			}
		}
	}
	return r, &res
}

// pick returns the record that speaks for the package: the first finding,
// else the first record.
func pick(recs []wire.Result) wire.Result {
	for _, r := range recs {
		if r.Outcome == wire.OutcomeFinding {
			return r
		}
	}
	return recs[0]
}

// SortRuns sorts runs by kernel, variant (in the order of Variants),
// strategy and seed.
func SortRuns(runs []Run) {
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i], runs[j]
		if a.Kernel != b.Kernel {
			return a.Kernel < b.Kernel
		}
		if a.Variant != b.Variant {
			return variantIndex(a.Variant) < variantIndex(b.Variant)
		}
		if a.Strategy != b.Strategy {
			ia, ib := strategyIndex(a.Strategy), strategyIndex(b.Strategy)
			if ia != ib {
				return ia < ib
			}
			return a.Strategy < b.Strategy
		}
		return a.Seed < b.Seed
	})
}

// splitBound splits a strategy with a bound, "pcb:3" (pcb with at most 3
// preemptions), into its name and bound; a plain name has bound 0, the
// default.
func splitBound(s string) (string, int) {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		if k, err := strconv.Atoi(s[i+1:]); err == nil && k >= 0 {
			return s[:i], k
		}
	}
	return s, 0
}

// knownStrategies orders the strategies in reports: the stateless ones
// first, then the systematic ones, then the guided ones.
var knownStrategies = []string{Native, "random", "coverage", "pct", "dfs", "dpor", "dpor-source", "pcb", "hapset", "hapset-pcb", "active", "regression", "mcr", "random@fuzz", "pct@fuzz", "mcr@fuzz", "mpc-simple", "mpc"}

func strategyIndex(s string) int {
	s, _ = splitBound(s)
	for i, x := range knownStrategies {
		if x == s {
			return i
		}
	}
	return len(knownStrategies)
}

func variantIndex(v string) int {
	for i, x := range Variants {
		if x == v {
			return i
		}
	}
	return len(Variants)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// tailBuffer keeps the last 4 KiB written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

const tailSize = 4 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b.Write(p)
	if t.b.Len() > 2*tailSize {
		keep := append([]byte(nil), t.b.Bytes()[t.b.Len()-tailSize:]...)
		t.b.Reset()
		t.b.Write(keep)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.b.Bytes()
	if len(b) > tailSize {
		b = b[len(b)-tailSize:]
	}
	return string(b)
}
