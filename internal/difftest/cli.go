package difftest

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Usage is the help text of "interleave bench -diff".
const Usage = `usage: interleave bench -diff [flags]

Bench -diff is differential testing: it generates -programs random Go
test programs from seeds -seed, -seed+1, ..., runs each natively
(go test -race, GOMAXPROCS 1 to 4, with and without injected
runtime.Gosched) and under every strategy, and lets the oracles compare
(races, outcomes with dfs as the truth, semantics, replay, robustness).
Each new class of discrepancy is shrunk by delta debugging and saved
under -regress-dir. It writes the report to -md and prints one line per
discrepancy class. The exit status is 1 when a discrepancy was found, 2
on a usage or setup error.

Flags:
`

// Main runs "interleave bench -diff" with the arguments after -diff,
// building instrumented binaries with b and the solver with solver.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, b Builder, solver func(context.Context) (string, error)) int {
	fs := flag.NewFlagSet("bench -diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, Usage)
		fs.PrintDefaults()
	}
	d := Config{}.withDefaults()
	programs := fs.Int("programs", 100, "programs to generate")
	seed := fs.Int64("seed", 1, "seed of the first program")
	workers := fs.Int("workers", 1, "programs run at once")
	strategies := fs.String("strategies", strings.Join(d.Strategies, ","), "comma-separated strategies")
	schedules := fs.Int("schedules", 1000, "schedule budget of the randomized strategies")
	sysSchedules := fs.Int("systematic-schedules", 20000, "schedule budget of the systematic strategies")
	budget := fs.Duration("budget", 10*time.Second, "wall-clock budget per exploration")
	native := fs.Int("native-count", d.NativeCount, "native runs per GOMAXPROCS value and per Gosched variant")
	replays := fs.Int("replays", d.Replays, "replays of each finding")
	robust := fs.Bool("robust", true, "also run with -workers 2 and with shards")
	noRace := fs.Bool("norace", false, "also run every strategy with race detection off on the Racy forms (the race oracle must fire)")
	shrink := fs.Int("shrink", 1, "programs shrunk per discrepancy class (0: none)")
	shrinkOnly := fs.String("shrink-only", "", "shrink only the discrepancies whose description contains this text")
	shrinkTests := fs.Int("shrink-tests", 40, "observations one shrink may make")
	regressDir := fs.String("regress-dir", filepath.Join("internal", "difftest", "testdata", "regress"), "where shrunk programs go (\"\" for nowhere)")
	md := fs.String("md", filepath.Join("docs", "difftest.md"), "write the Markdown report here (\"\" for none)")
	work := fs.String("work", "", "work directory (default a temporary one, removed)")
	verbose := fs.Bool("v", false, "print a line per program")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg := Config{
		Strategies: splitList(*strategies), Schedules: *schedules, SystematicSchedules: *sysSchedules,
		Budget: *budget, NativeCount: *native, Replays: *replays, Robust: *robust, NoRace: *noRace, Builder: b,
	}
	for _, s := range cfg.Strategies {
		if s == "mcr" || s == "mpc" {
			path, err := solver(ctx)
			if err != nil {
				fmt.Fprintf(stderr, "interleave bench -diff: %v\n", err)
				return 2
			}
			cfg.Solver = path
			break
		}
	}
	dir := *work
	if dir == "" {
		tmp, err := os.MkdirTemp("", "interleave-difftest-")
		if err != nil {
			fmt.Fprintf(stderr, "interleave bench -diff: %v\n", err)
			return 2
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	var progress io.Writer
	if *verbose {
		progress = stderr
	}
	sum, err := RunMany(ctx, cfg, RunOptions{Programs: *programs, Seed: *seed, Workers: *workers, Shrink: *shrink, ShrinkOnly: *shrinkOnly, ShrinkTests: *shrinkTests, RegressDir: *regressDir, WorkDir: dir, Progress: progress})
	if sum == nil {
		fmt.Fprintf(stderr, "interleave bench -diff: %v\n", err)
		return 2
	}
	if err != nil {
		// Interrupted: report the programs that finished.
		fmt.Fprintf(stderr, "interleave bench -diff: %v; reporting the %d programs that finished\n", err, sum.Programs)
	}
	if *md != "" {
		if err := os.MkdirAll(filepath.Dir(*md), 0o755); err != nil {
			fmt.Fprintf(stderr, "interleave bench -diff: %v\n", err)
			return 2
		}
		if err := writeReport(*md, sum); err != nil {
			fmt.Fprintf(stderr, "interleave bench -diff: %v\n", err)
			return 2
		}
	}
	fmt.Fprintf(stdout, "difftest: %d programs in %s, %d discrepancy classes\n", sum.Programs, time.Duration(sum.Seconds*float64(time.Second)).Round(time.Second), len(sum.Classes))
	for _, c := range sum.Classes {
		fmt.Fprintf(stdout, "%4d  %s\n", len(c.Programs), c.Example)
	}
	switch {
	case err != nil:
		return 2
	case len(sum.Classes) > 0:
		return 1
	}
	return 0
}

// RunOptions are the options of RunMany.
type RunOptions struct {
	Programs    int
	Seed        int64
	Workers     int
	Shrink      int    // programs shrunk per class
	ShrinkOnly  string // shrink only discrepancies whose String contains it
	ShrinkTests int
	RegressDir  string
	WorkDir     string
	Progress    io.Writer
}

// RunMany generates, observes and judges opt.Programs programs, opt.Workers
// at a time, shrinks the first programs of each discrepancy class, and
// summarizes.
func RunMany(ctx context.Context, cfg Config, opt RunOptions) (*Summary, error) {
	cfg = cfg.withDefaults()
	start := time.Now()
	workers := max(opt.Workers, 1)
	results := make([]*Result, opt.Programs)
	programs := make([]*Program, opt.Programs)
	var (
		mu       sync.Mutex
		shrunk   = map[string]int{} // per class key, programs shrunk
		firstErr error
		done     int
	)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				seed := opt.Seed + int64(i)
				p := Generate(seed)
				programs[i] = p
				dir := filepath.Join(opt.WorkDir, fmt.Sprintf("prog-%d", seed))
				o, err := Observe(ctx, cfg, p, dir)
				if ctx.Err() != nil {
					continue // interrupted: its runs were killed
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				v := Judge(o)
				r := &Result{Seed: seed, Size: p.Size(), Forms: p.Forms(), Verdicts: v, Seconds: o.Seconds, Shrunk: map[string]string{}, ShrunkSize: map[string]int{}}
				os.RemoveAll(dir)
				for _, d := range v.Discrepancies {
					if opt.Shrink <= 0 || opt.RegressDir == "" || d.Oracle == OracleHarness || !strings.Contains(d.String(), opt.ShrinkOnly) {
						continue
					}
					mu.Lock()
					take := shrunk[d.Key()] < opt.Shrink
					if take {
						shrunk[d.Key()]++
					}
					mu.Unlock()
					if !take {
						continue
					}
					q := Shrink(p, Still(ctx, cfg, d, filepath.Join(opt.WorkDir, fmt.Sprintf("shrink-%d", seed))), opt.ShrinkTests)
					path, err := SaveRegression(opt.RegressDir, Slug(d, seed), q, d)
					if err == nil {
						r.Shrunk[d.Key()], r.ShrunkSize[d.Key()] = path, q.Size()
					}
				}
				results[i] = r
				mu.Lock()
				done++
				if opt.Progress != nil {
					fmt.Fprintf(opt.Progress, "difftest: [%d/%d] seed %d: %d statements, %d discrepancies (%.1fs)\n", done, opt.Programs, seed, p.Size(), len(v.Discrepancies), o.Seconds)
					for _, d := range v.Discrepancies {
						fmt.Fprintf(opt.Progress, "    %s\n", d)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < opt.Programs && ctx.Err() == nil; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	var rs []*Result
	var ps []*Program
	for i, r := range results {
		if r != nil {
			rs = append(rs, r)
			ps = append(ps, programs[i])
		}
	}
	return Summarize(cfg, rs, ps, time.Since(start), workers), ctx.Err()
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Markers delimit the generated part of the report: a file that has them
// keeps what is outside (the triage written by hand).
const (
	BeginMarker = "<!-- difftest:begin -->"
	EndMarker   = "<!-- difftest:end -->"
)

// writeReport writes the Markdown report of sum to path, between the
// markers when the file has them.
func writeReport(path string, sum *Summary) error {
	var b strings.Builder
	old, err := os.ReadFile(path)
	before, after, marked := "", "", false
	if err == nil {
		if i, j := strings.Index(string(old), BeginMarker), strings.Index(string(old), EndMarker); i >= 0 && j > i {
			before, after, marked = string(old[:i+len(BeginMarker)])+"\n", string(old[j:]), true
		}
	}
	if err := sum.WriteMarkdown(&b, "Differential testing", !marked); err != nil {
		return err
	}
	text := b.String()
	if marked {
		text = before + text + after
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return fmt.Errorf("difftest: writing the report: %w", err)
	}
	return nil
}
