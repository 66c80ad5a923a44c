package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

// Regression mode (issue 10): was the concurrency bug really fixed? A
// schedule file's bug signature (the 2 to 4 events that triggered the bug,
// with sites and call stacks) is matched by similarity in the changed code,
// and the scheduler is steered toward a similar interleaving (Tsui, Wu,
// Chan, "Toward a methodology to expose partially fixed concurrency bugs
// in modified multithreaded programs", section 3).

// defaultRegressSchedules is the default budget of a regression run, per
// signature.
const defaultRegressSchedules = 200

// runRegress implements "interleave regress".
func runRegress(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		common    commonFlags
		all       bool
		schedules int
		seed      int64
		budget    time.Duration
	)
	fs := newFlagSet("regress", regressUsage, stderr)
	fs.BoolVar(&all, "all", false, "re-check every bug signature kept for the packages")
	fs.IntVar(&schedules, "schedules", defaultRegressSchedules, "schedules per signature")
	fs.Int64Var(&seed, "seed", 0, "seed")
	fs.DurationVar(&budget, "budget", 0, "wall-clock budget per signature")
	common.define(fs)
	args, testArgs, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if schedules <= 0 || budget < 0 {
		return usageError(stderr, "interleave regress: -schedules must be positive and -budget not negative")
	}
	var files, patterns []string
	if all {
		patterns = args
		files, err = keptSignatures(ctx, common.dir, patterns)
		if err != nil {
			fmt.Fprintf(stderr, "interleave regress: %v\n", err)
			return 2
		}
		if len(files) == 0 {
			fmt.Fprintln(stdout, "interleave regress: no bug signatures are kept for these packages (interleave test keeps one for every finding)")
			return 0
		}
	} else {
		if len(args) == 0 {
			return usageError(stderr, "interleave regress: want a schedule file (or -all)")
		}
		files, patterns = args[:1], args[1:]
	}
	status := 0
	for _, f := range files {
		st := regressOne(ctx, f, patterns, common, testArgs, schedules, seed, budget, stdout, stderr)
		if st > status {
			status = st
		}
	}
	return status
}

// regressOne runs one schedule file's signature against the current code
// and prints the verdict. It returns 1 when the bug (or another one) shows,
// 0 when it was not re-exposed within the budget, 2 on errors.
func regressOne(ctx context.Context, file string, patterns []string, common commonFlags, testArgs []string, schedules int, seed int64, budget time.Duration, stdout, stderr io.Writer) int {
	if !filepath.IsAbs(file) && common.dir != "" {
		file = filepath.Join(common.dir, file)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		fmt.Fprintf(stderr, "interleave regress: resolving %s: %v\n", file, err)
		return 2
	}
	s, err := wire.ReadSchedule(abs)
	if err != nil {
		fmt.Fprintf(stderr, "interleave regress: %v\n", err)
		return 2
	}
	if s.Signature == nil {
		fmt.Fprintf(stderr, "interleave regress: %s has no bug signature (format version %d): only schedule files of format version 2 or later have one; run interleave test on the buggy code again to get one\n", abs, s.Version)
		return 2
	}
	if len(patterns) == 0 {
		patterns = []string{s.Package}
		if s.Package == "" {
			patterns = []string{"./..."}
		}
	}
	opts := common.options(stdout, stderr)
	opts.Patterns = patterns
	opts.TestArgs = testArgs
	opts.GoFlags = append(append([]string(nil), opts.GoFlags...), "-run="+wire.RunPattern(s.Test), "-count=1")
	opts.Config = wire.Config{
		Strategy:    "regression",
		Regress:     abs,
		Schedules:   schedules,
		Seed:        seed,
		Budget:      wire.Duration(budget),
		ScheduleDir: common.scheduleDir,
	}
	out, err := driver.Test(ctx, opts)
	if err != nil || out.BuildFailed {
		return finish(out, err, stderr)
	}
	keepSignatures(out, stderr)
	return printVerdict(stdout, stderr, abs, s, out)
}

// printVerdict prints the verdict of a regression run and returns its exit
// status.
func printVerdict(stdout, stderr io.Writer, file string, s *wire.Schedule, out *driver.Outcome) int {
	var r *wire.Result
	for i := range out.Results {
		if out.Results[i].Test == s.Test && out.Results[i].Outcome != wire.OutcomeSkip {
			r = &out.Results[i]
		}
	}
	if r == nil {
		fmt.Fprintf(stderr, "interleave regress: %s: test %s did not run in these packages (go test exit %d)\n", filepath.Base(file), s.Test, out.GoTestExit)
		return 2
	}
	where := ""
	if g := r.Regress; g != nil {
		where = fmt.Sprintf(" at w=%s, d=%d (the schedule matched %d of the signature's %d events)", g.W, g.D, g.Matched, g.Events)
		if g.Unsteered {
			where = fmt.Sprintf(" on a schedule left to chance, not steered (it matched %d of the signature's %d events at w=%s, d=%d): the fix changed how the bug is triggered", g.Matched, g.Events, g.W, g.D)
		}
	}
	switch r.Outcome {
	case wire.OutcomeFinding:
		what := fmt.Sprintf("re-exposed: the bug (%s) comes back", r.Kind)
		if r.Kind != s.Finding {
			what = fmt.Sprintf("a different bug (%s, the signature's was %s) shows", r.Kind, s.Finding)
		}
		fmt.Fprintf(stdout, "interleave regress: %s: %s%s after %s: %s\n", s.Test, what, where, plural(r.Schedules, "schedule"), r.Message)
		if r.Schedule != "" {
			fmt.Fprintf(stdout, "  schedule: %s\n  replay:   interleave replay %s\n", r.Schedule, r.Schedule)
		}
		return 1
	case wire.OutcomePass:
		maxW, maxD, best := "0", 0, ""
		if g := r.Regress; g != nil {
			maxW, maxD = g.MaxW, g.MaxD
			best = fmt.Sprintf("; the last schedule matched %d of the signature's %d events", g.Matched, g.Events)
		}
		fmt.Fprintf(stdout, "interleave regress: %s: not re-exposed within the budget: %s, w up to %s, d up to %d%s\n", s.Test, plural(r.Schedules, "schedule"), maxW, maxD, best)
		return 0
	}
	fmt.Fprintf(stdout, "interleave regress: %s: %s: %s\n", s.Test, r.Outcome, r.Message)
	return 1
}

// signatureDir is where the bug signatures of findings are kept, for
// "interleave regress -all".
func signatureDir() (string, error) {
	c, err := driver.CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "signatures"), nil
}

// keepSignatures copies the schedule file of every finding that has a bug
// signature into the signature directory, one file per package and
// signature (the same bug found again replaces its file).
func keepSignatures(out *driver.Outcome, stderr io.Writer) {
	if out == nil {
		return
	}
	dir, err := signatureDir()
	if err != nil {
		return
	}
	for _, r := range out.Results {
		if r.Outcome != wire.OutcomeFinding || r.Schedule == "" {
			continue
		}
		s, err := wire.ReadSchedule(r.Schedule)
		if err != nil || s.Signature == nil {
			continue
		}
		s.View = nil // regress needs the signature, not the page
		pkgDir := filepath.Join(dir, unsafeChars.Replace(s.Package))
		err = os.MkdirAll(pkgDir, 0o755)
		if err == nil {
			err = wire.WriteSchedule(filepath.Join(pkgDir, signatureKey(s)+".json"), s)
		}
		if err != nil {
			fmt.Fprintf(stderr, "interleave: keeping the bug signature: %v\n", err)
		}
	}
}

var unsafeChars = strings.NewReplacer("/", "_", "\\", "_", ":", "_", "..", "_")

// signatureKey names a signature by what it says (test, kind, and each
// event's operation, function and line within it), not by the schedule:
// the same bug found by another schedule replaces the file.
func signatureKey(s *wire.Schedule) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", s.Test, s.Finding)
	for _, e := range s.Signature.Events {
		fmt.Fprintf(h, "\x00%s %s %d %d %d", e.Op, e.Function, e.Line-e.FuncLine, e.Goroutine, e.Object)
	}
	return unsafeChars.Replace(s.Test) + "-" + hex.EncodeToString(h.Sum(nil))[:16]
}

// keptSignatures lists the kept signature files of the packages patterns
// (default ./...) name, resolved by go list in dir.
func keptSignatures(ctx context.Context, dir string, patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-e", "-f", "{{.ImportPath}}"}, patterns...)...)
	cmd.Dir = dir
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the packages %s: %w", strings.Join(patterns, " "), err)
	}
	root, err := signatureDir()
	if err != nil {
		return nil, err
	}
	var files []string
	for _, pkg := range strings.Fields(string(b)) {
		m, err := filepath.Glob(filepath.Join(root, unsafeChars.Replace(pkg), "*.json"))
		if err != nil {
			return nil, fmt.Errorf("listing the signatures of %s: %w", pkg, err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	return files, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
