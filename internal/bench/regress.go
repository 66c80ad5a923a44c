package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"interleave.dev/rt/wire"
)

// Regression mode on the kernels (issue 10; RegressionMaple, Tsui, Wu,
// Chan, section 4): for every kernel with a partial fix, and every seed,
// the buggy variant is explored (random) until it yields a schedule file
// with a bug signature; the regression strategy then steers the partial
// fix toward that signature, and random and pct explore the partial fix
// from scratch with the same seed and budget, for comparison. The
// regression strategy must not re-expose anything on the fixed twin.

// Measure is what one strategy did on one kernel's partial fix over the
// seeds.
type Measure struct {
	Runs     int `json:"runs"`
	Detected int `json:"detected"`
	// Schedules lists the schedules to detection of each detecting run.
	Schedules []int `json:"schedules"`
}

// Mean is the mean of Schedules (0 when nothing was detected).
func (m Measure) Mean() float64 {
	if len(m.Schedules) == 0 {
		return 0
	}
	t := 0
	for _, s := range m.Schedules {
		t += s
	}
	return float64(t) / float64(len(m.Schedules))
}

func (m *Measure) add(r Run, detect string) {
	m.Runs++
	if r.Outcome == wire.OutcomeFinding && r.Kind == detect {
		m.Detected++
		m.Schedules = append(m.Schedules, r.Schedules)
	}
}

// RegressRow is the measurement of regression mode on one kernel.
type RegressRow struct {
	Kernel string `json:"kernel"`
	Detect string `json:"detect"`
	// Regress, Random and PCT are the runs on the partial fix.
	Regress Measure `json:"regress"`
	Random  Measure `json:"random"`
	PCT     Measure `json:"pct"`
	// Levels counts the similarity levels ("w=3, d=1") of the regression
	// runs that re-exposed the bug.
	Levels map[string]int `json:"levels"`
	// FixedRuns regression runs on the fixed twin, FixedFound of them
	// with a finding (each a false report).
	FixedRuns  int `json:"fixed_runs"`
	FixedFound int `json:"fixed_found"`
	// NoSignature counts seeds whose buggy run gave no schedule file with
	// a signature.
	NoSignature int      `json:"no_signature"`
	Errors      []string `json:"errors,omitempty"`
}

// RegressReport is the result of RunRegress.
type RegressReport struct {
	Seeds     int          `json:"seeds"`
	Schedules int          `json:"schedules"`
	Rows      []RegressRow `json:"rows"`
}

// RunRegress measures regression mode on every kernel of kernels that has
// a partial variant.
func RunRegress(ctx context.Context, cfg Config, kernels []*Kernel, b Builder) (*RegressReport, error) {
	cfg = cfg.withDefaults()
	work, cleanup, err := workDir(cfg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	var todo []*Kernel
	for _, k := range kernels {
		if k.Has(Partial) && k.Has(Fixed) {
			todo = append(todo, k)
		}
	}
	rows := make([]RegressRow, len(todo))
	var mu sync.Mutex
	err = forEach(ctx, cfg.Parallel, len(todo), func(i int) {
		start := time.Now()
		r := regressKernel(ctx, cfg, work, b, todo[i])
		rows[i] = r
		if cfg.Progress != nil {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(cfg.Progress, "bench: regress %s: regression %d/%d (mean %.1f), random %d/%d (mean %.1f), pct %d/%d (mean %.1f), fixed %d findings in %d runs (%.1fs)\n",
				r.Kernel, r.Regress.Detected, r.Regress.Runs, r.Regress.Mean(), r.Random.Detected, r.Random.Runs, r.Random.Mean(),
				r.PCT.Detected, r.PCT.Runs, r.PCT.Mean(), r.FixedFound, r.FixedRuns, time.Since(start).Seconds())
		}
	})
	if err != nil {
		return nil, err
	}
	return &RegressReport{Seeds: cfg.Seeds, Schedules: cfg.Schedules, Rows: rows}, nil
}

// regressKernel measures one kernel.
func regressKernel(ctx context.Context, cfg Config, work string, b Builder, k *Kernel) RegressRow {
	row := RegressRow{Kernel: k.Name, Detect: k.Detect, Levels: map[string]int{}}
	variants := []string{Buggy, Partial, Fixed}
	outDir := filepath.Join(work, k.Name)
	errs := buildAll(ctx, k.Dir, variants, outDir, b.Build)
	for _, v := range variants {
		if errs[v] != nil {
			row.Errors = append(row.Errors, fmt.Sprintf("%s: %v", v, errs[v]))
			return row
		}
	}
	bin := func(v string) string { return filepath.Join(outDir, v+".test") }
	dir := func(v string) string { return filepath.Join(k.Dir, v) }
	for seed := int64(1); seed <= int64(cfg.Seeds); seed++ {
		sched := filepath.Join(outDir, fmt.Sprintf("schedules-%d", seed))
		if err := os.MkdirAll(sched, 0o755); err != nil {
			row.Errors = append(row.Errors, err.Error())
			return row
		}
		// The signature: the buggy variant's finding.
		_, res := runConfig(ctx, cfg, work, bin(Buggy), dir(Buggy), k.Name+"-buggy", "^Test", wire.Config{Strategy: "random", Seed: seed, ScheduleDir: sched})
		file := ""
		if res != nil && res.Outcome == wire.OutcomeFinding && res.Schedule != "" {
			if s, err := wire.ReadSchedule(res.Schedule); err == nil && s.Signature != nil {
				file = res.Schedule
			}
		}
		for _, s := range []string{"random", "pct"} {
			r, _ := runConfig(ctx, cfg, work, bin(Partial), dir(Partial), k.Name+"-partial", "^Test", wire.Config{Strategy: s, Seed: seed, ScheduleDir: "-"})
			m := &row.Random
			if s == "pct" {
				m = &row.PCT
			}
			m.add(r, k.Detect)
			noteError(&row, r)
		}
		if file == "" {
			row.NoSignature++
			continue
		}
		r, res := runConfig(ctx, cfg, work, bin(Partial), dir(Partial), k.Name+"-partial", "^Test", wire.Config{Strategy: "regression", Regress: file, Seed: seed, ScheduleDir: "-"})
		row.Regress.add(r, k.Detect)
		noteError(&row, r)
		if r.Outcome == wire.OutcomeFinding && r.Kind == k.Detect && res.Regress != nil {
			l := fmt.Sprintf("w=%s, d=%d", res.Regress.W, res.Regress.D)
			switch {
			case res.Regress.Unsteered:
				l = "unsteered"
			case res.Regress.Matched == 0:
				l = "before any match"
			}
			row.Levels[l]++
		}
		r, _ = runConfig(ctx, cfg, work, bin(Fixed), dir(Fixed), k.Name+"-fixed", "^Test", wire.Config{Strategy: "regression", Regress: file, Seed: seed, ScheduleDir: "-"})
		row.FixedRuns++
		if r.Outcome == wire.OutcomeFinding {
			row.FixedFound++
			row.Errors = append(row.Errors, fmt.Sprintf("fixed, seed %d: %s: %s", seed, r.Kind, r.Message))
		}
		noteError(&row, r)
	}
	return row
}

func noteError(row *RegressRow, r Run) {
	if r.Outcome == OutcomeError || r.Outcome == wire.OutcomeDiverged {
		row.Errors = append(row.Errors, firstLine(r.Message))
	}
}

// WriteMarkdown writes the regression table.
func (rep *RegressReport) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "| kernel | detect | regression: re-exposed | schedules (mean) | w, d that re-exposed | random | schedules (mean) | pct | schedules (mean) | fixed twin |\n")
	fmt.Fprintf(&b, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	var reg, rnd, pct []int
	var regN, rndN, pctN, regD, rndD, pctD, fixedN, fixedF int
	for _, r := range rep.Rows {
		var levels []string
		for l, n := range r.Levels {
			levels = append(levels, fmt.Sprintf("%s (%d)", l, n))
		}
		sort.Strings(levels)
		fixed := fmt.Sprintf("not re-exposed %d/%d", r.FixedRuns-r.FixedFound, r.FixedRuns)
		if r.FixedFound > 0 {
			fixed = fmt.Sprintf("**%d false reports** in %d", r.FixedFound, r.FixedRuns)
		}
		fmt.Fprintf(&b, "| %s | %s | %d/%d | %s | %s | %d/%d | %s | %d/%d | %s | %s |\n", r.Kernel, r.Detect,
			r.Regress.Detected, r.Regress.Runs, mean(r.Regress), strings.Join(levels, "; "),
			r.Random.Detected, r.Random.Runs, mean(r.Random), r.PCT.Detected, r.PCT.Runs, mean(r.PCT), fixed)
		reg, rnd, pct = append(reg, r.Regress.Schedules...), append(rnd, r.Random.Schedules...), append(pct, r.PCT.Schedules...)
		regN, rndN, pctN = regN+r.Regress.Runs, rndN+r.Random.Runs, pctN+r.PCT.Runs
		regD, rndD, pctD = regD+r.Regress.Detected, rndD+r.Random.Detected, pctD+r.PCT.Detected
		fixedN, fixedF = fixedN+r.FixedRuns, fixedF+r.FixedFound
	}
	all := func(s []int) string { return mean(Measure{Schedules: s}) }
	fmt.Fprintf(&b, "| **all** | | %d/%d | %s | | %d/%d | %s | %d/%d | %s | not re-exposed %d/%d |\n",
		regD, regN, all(reg), rndD, rndN, all(rnd), pctD, pctN, all(pct), fixedN-fixedF, fixedN)
	for _, r := range rep.Rows {
		if r.NoSignature > 0 {
			fmt.Fprintf(&b, "\n%s: %d seeds of the buggy variant gave no schedule file with a signature.\n", r.Kernel, r.NoSignature)
		}
		for _, e := range r.Errors {
			fmt.Fprintf(&b, "\n%s: %s\n", r.Kernel, e)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mean(m Measure) string {
	if len(m.Schedules) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", m.Mean())
}

// WriteJSON writes the report as JSON.
func (rep *RegressReport) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(rep)
}

// Failed reports whether a fixed twin got a finding or a run failed.
func (rep *RegressReport) Failed() bool {
	for _, r := range rep.Rows {
		if r.FixedFound > 0 || len(r.Errors) > 0 {
			return true
		}
	}
	return false
}

// Markers delimit the generated table in the regression Markdown file.
const (
	regressBegin = "<!-- begin regress table: generated by interleave bench -regress -->"
	regressEnd   = "<!-- end regress table -->"
)

// regressMain runs the -regress form of the bench command.
func regressMain(ctx context.Context, cfg Config, kernels []*Kernel, b Builder, md string, stdout, stderr io.Writer, start time.Time) int {
	rep, err := RunRegress(ctx, cfg, kernels, b)
	if err != nil {
		fmt.Fprintf(stderr, "interleave bench: %v\n", err)
		return 2
	}
	var table strings.Builder
	if err := rep.WriteMarkdown(&table); err != nil {
		fmt.Fprintf(stderr, "interleave bench: %v\n", err)
		return 2
	}
	if err := replaceBetween(md, fmt.Sprintf("%s\n\n%d seeds, a budget of %d schedules per run.\n\n%s\n%s", regressBegin, rep.Seeds, rep.Schedules, table.String(), regressEnd)); err != nil {
		fmt.Fprintf(stderr, "interleave bench: %v\n", err)
		return 2
	}
	if err := writeFile(strings.TrimSuffix(md, ".md")+".json", rep.WriteJSON); err != nil {
		fmt.Fprintf(stderr, "interleave bench: %v\n", err)
		return 2
	}
	fmt.Fprint(stdout, table.String())
	fmt.Fprintf(stdout, "bench: regression mode on %d kernels in %s\n", len(rep.Rows), time.Since(start).Round(time.Second))
	if rep.Failed() {
		return 1
	}
	return 0
}

// replaceBetween replaces the text between the regress markers of the
// file at path (the whole file when it has none) with text.
func replaceBetween(path, text string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	s := string(old)
	i, j := strings.Index(s, regressBegin), strings.Index(s, regressEnd)
	if i >= 0 && j > i {
		s = s[:i] + text + s[j+len(regressEnd):]
	} else {
		s = text + "\n"
	}
	return writeFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	})
}
