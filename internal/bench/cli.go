package bench

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"interleave.dev"
	"interleave.dev/internal/driver"
)

// Usage is the help text of the bench command.
const Usage = `usage: interleave bench [flags] [kernel dirs]

Bench runs the concurrency bug kernels (default: every kernel under
-suite) under each strategy and seed, and under plain "go test -race" as
a baseline (strategy native), and reports what each strategy detects: per kernel, variant and strategy, detections out of seeds,
schedules to first detection, time, and false reports on the fixed twins.
Every variant's instrumented test binary is built once and run many times.

It writes a Markdown table (-md) and JSON (-json) and prints one summary
line per strategy. The exit status is 1 when a fixed twin got a false
report or a run failed, 2 on a usage or setup error.

Flags:
`

// Main runs the bench command with the command-line arguments args (after
// the command name), building test binaries with b. It returns the exit
// status.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer, b Builder) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, Usage)
		fs.PrintDefaults()
	}
	d := DefaultConfig()
	suite := fs.String("suite", "kernels", "directory holding the kernels")
	strategies := fs.String("strategies", "", fmt.Sprintf("comma-separated strategies; %q is plain go test -race, pcb:K has bound K, dpor-source is dpor with source sets alone, hapset-pcb is hapset guiding pcb (default %s, -quick %s)",
		Native, strings.Join(d.Strategies, ","), strings.Join(QuickConfig().Strategies, ",")))
	seeds := fs.Int("seeds", 0, fmt.Sprintf("seeds per randomized strategy (default %d, -quick %d)", d.Seeds, QuickConfig().Seeds))
	schedules := fs.Int("schedules", 0, fmt.Sprintf("schedule budget per run (default %d, -quick %d)", d.Schedules, QuickConfig().Schedules))
	budget := fs.Duration("budget", 0, fmt.Sprintf("wall-clock budget per run (default %s, -quick %s)", d.Budget, QuickConfig().Budget))
	maxSteps := fs.Int("maxsteps", 0, "scheduling points without progress before a livelock (default: the runtime's)")
	parallel := fs.Int("parallel", d.Parallel, "kernels built and run at once")
	variants := fs.String("variants", strings.Join(d.Variants, ","), "comma-separated variants to run")
	quick := fs.Bool("quick", false, "a small plan for CI: fewer seeds and schedules")
	reduce := fs.Bool("reduce", false, "no scheduling points at plain memory accesses (interleave test -reduce)")
	timers := fs.String("timers", "", "when a timer may fire before its time: stall (default), eager or idle (interleave test -timers)")
	md := fs.String("md", filepath.Join("docs", "kernels.md"), "write the Markdown report here (\"\" for none)")
	js := fs.String("json", filepath.Join("docs", "kernels.json"), "write the JSON report here (\"\" for none)")
	schedDir := fs.String("schedule-dir", "-", "write the schedule files of findings here (\"-\" for none)")
	verbose := fs.Bool("v", false, "print a line per kernel as it finishes")
	render := fs.String("render", "", "run nothing: render the JSON report in this file again (to -md and -json)")
	regress := fs.String("regress", "", "measure regression mode instead (kernels with a partial fix): write the table into this Markdown file, between the markers of docs/regression.md")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *render != "" {
		rep, err := ReadReport(*render)
		if err == nil {
			err = writeReport(rep, *md, *js)
		}
		if err != nil {
			fmt.Fprintf(stderr, "interleave bench: %v\n", err)
			return 2
		}
		return printSummary(stdout, rep)
	}

	cfg := d
	if *quick {
		cfg = QuickConfig()
	}
	if *strategies != "" {
		cfg.Strategies = splitList(*strategies)
	}
	cfg.Variants = splitList(*variants)
	for _, v := range cfg.Variants {
		if !contains(Variants, v) {
			fmt.Fprintf(stderr, "interleave bench: unknown variant %q (want %s)\n", v, strings.Join(Variants, ", "))
			return 2
		}
	}
	if *seeds > 0 {
		cfg.Seeds = *seeds
	}
	if *schedules > 0 {
		cfg.Schedules = *schedules
	}
	if *budget > 0 {
		cfg.Budget = *budget
	}
	cfg.MaxSteps = *maxSteps
	cfg.Reduce = *reduce
	cfg.Timers = *timers
	cfg.Parallel = *parallel
	cfg.ScheduleDir = *schedDir
	if *verbose {
		cfg.Progress = stderr
	}

	var kernels []*Kernel
	if fs.NArg() == 0 {
		ks, err := LoadSuite(*suite)
		if err != nil {
			fmt.Fprintf(stderr, "interleave bench: %v\n", err)
			return 2
		}
		kernels = ks
	} else {
		for _, dir := range fs.Args() {
			k, err := LoadKernel(dir)
			if err != nil {
				fmt.Fprintf(stderr, "interleave bench: %v\n", err)
				return 2
			}
			kernels = append(kernels, k)
		}
	}

	if contains(cfg.Strategies, "mcr") || contains(cfg.Strategies, "mpc") || contains(cfg.Strategies, "mpc-simple") || contains(cfg.Strategies, "mcr@fuzz") {
		var cache string
		if db, ok := b.(*DriverBuilder); ok {
			cache = db.CacheDir
		}
		solver, err := buildSolver(ctx, cache)
		if err != nil {
			fmt.Fprintf(stderr, "interleave bench: %v\n", err)
			return 2
		}
		cfg.Solver = solver
	}

	start := time.Now()
	if *regress != "" {
		return regressMain(ctx, cfg, kernels, b, *regress, stdout, stderr, start)
	}
	runs, err := Execute(ctx, cfg, kernels, b)
	if err != nil {
		fmt.Fprintf(stderr, "interleave bench: %v\n", err)
		return 2
	}
	rep := NewReport(cfg, *quick, kernels, runs)
	if err := writeReport(rep, *md, *js); err != nil {
		fmt.Fprintf(stderr, "interleave bench: %v\n", err)
		return 2
	}
	status := printSummary(stdout, rep)
	fmt.Fprintf(stdout, "bench: %d kernels, %d runs in %s\n", len(kernels), len(runs), time.Since(start).Round(time.Second))
	return status
}

// writeReport writes the Markdown and JSON forms of rep ("" skips one).
func writeReport(rep *Report, md, js string) error {
	if err := writeFile(md, rep.WriteMarkdown); err != nil {
		return err
	}
	return writeFile(js, rep.WriteJSON)
}

// printSummary prints the summary line of every strategy and every false
// report and failed run; it returns 1 if there was any of those, else 0.
func printSummary(stdout io.Writer, rep *Report) int {
	status := 0
	for _, s := range rep.Summaries {
		fmt.Fprintln(stdout, s.String())
		if s.FalseRuns > 0 || s.Errors > 0 {
			status = 1
		}
	}
	for _, r := range rep.Runs {
		switch {
		case r.FalseReport:
			fmt.Fprintf(stdout, "FALSE REPORT %s/%s %s seed %d: %s: %s\n", r.Kernel, r.Variant, r.Strategy, r.Seed, r.Kind, r.Message)
		case r.Outcome == OutcomeError:
			fmt.Fprintf(stdout, "FAILED RUN %s/%s %s seed %d: %s\n", r.Kernel, r.Variant, r.Strategy, r.Seed, firstLine(r.Message))
		}
	}
	return status
}

// writeFile writes path with write, creating its directory; "" skips it.
func writeFile(path string, write func(io.Writer) error) error {
	if path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating the directory of %s: %w", path, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing %s: %w", path, cerr)
	}
	return err
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

// buildSolver builds strategy mcr's solver into the cache directory cache
// ("": the driver's default).
func buildSolver(ctx context.Context, cache string) (string, error) {
	if cache == "" {
		var err error
		if cache, err = driver.CacheDir(); err != nil {
			return "", err
		}
	}
	return driver.BuildSolver(ctx, cache, interleave.SolverSource, os.Environ())
}
