package bench

import (
	"fmt"
	"sort"
	"strings"

	"interleave.dev/rt/wire"
)

// Spread summarizes a sample of numbers: its median, minimum and maximum.
// N is the sample size; the other fields are meaningless when N is 0.
type Spread struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// SpreadOf returns the spread of xs.
func SpreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Spread{N: len(s), Median: m, Min: s[0], Max: s[len(s)-1]}
}

// Row aggregates the runs of one kernel variant under one strategy.
type Row struct {
	Kernel     string `json:"kernel"`
	Class      string `json:"class"`
	Detect     string `json:"detect"`
	Hard       bool   `json:"hard,omitempty"`
	NeedsInput bool   `json:"needs_input,omitempty"`
	Variant    string `json:"variant"`
	Strategy   string `json:"strategy"`
	// Runs is the number of runs (seeds); Errors those without a result.
	Runs   int `json:"runs"`
	Errors int `json:"errors,omitempty"`
	// Detected counts runs that found the kernel's bug (buggy, partial).
	Detected int `json:"detected"`
	// FalseReports counts runs with any finding on a fixed twin.
	FalseReports int `json:"false_reports"`
	// Findings counts the finding kinds of all runs.
	Findings map[string]int `json:"findings,omitempty"`
	// Exhausted counts runs whose systematic search covered every
	// interleaving without a finding.
	Exhausted int `json:"exhausted,omitempty"`
	// ToDetection is the spread of the schedules to first detection over
	// the detecting runs.
	ToDetection Spread `json:"to_detection"`
	// Seconds is the spread of the exploration time of the runs with a
	// result.
	Seconds Spread `json:"seconds"`
	// Predictions is the spread of the active strategy's predictions per
	// run, Confirmed the runs in which one was confirmed.
	Predictions Spread `json:"predictions,omitempty"`
	Confirmed   int    `json:"confirmed,omitempty"`
}

// Aggregate groups runs into rows, one per kernel, variant and strategy, in
// the order of the runs after SortRuns; kernels supplies the metadata.
func Aggregate(kernels []*Kernel, runs []Run) []Row {
	meta := map[string]*Kernel{}
	for _, k := range kernels {
		meta[k.Name] = k
	}
	sorted := append([]Run(nil), runs...)
	SortRuns(sorted)
	var rows []Row
	index := map[[3]string]int{}
	det := map[int][]float64{}
	secs := map[int][]float64{}
	preds := map[int][]float64{}
	for _, r := range sorted {
		key := [3]string{r.Kernel, r.Variant, r.Strategy}
		i, ok := index[key]
		if !ok {
			row := Row{Kernel: r.Kernel, Variant: r.Variant, Strategy: r.Strategy}
			if k := meta[r.Kernel]; k != nil {
				row.Class, row.Detect, row.Hard, row.NeedsInput = k.Class, k.Detect, k.Hard, k.NeedsInput
			}
			i = len(rows)
			index[key] = i
			rows = append(rows, row)
		}
		row := &rows[i]
		row.Runs++
		if r.Outcome == OutcomeError {
			row.Errors++
			continue
		}
		secs[i] = append(secs[i], r.Seconds)
		preds[i] = append(preds[i], float64(r.Predictions))
		if r.Confirmed > 0 {
			row.Confirmed++
		}
		if r.Outcome == wire.OutcomeFinding {
			if row.Findings == nil {
				row.Findings = map[string]int{}
			}
			row.Findings[r.Kind]++
		}
		if r.Exhausted {
			row.Exhausted++
		}
		if r.Detected {
			row.Detected++
			det[i] = append(det[i], float64(r.Schedules))
		}
		if r.FalseReport {
			row.FalseReports++
		}
	}
	for i := range rows {
		rows[i].ToDetection = SpreadOf(det[i])
		rows[i].Seconds = SpreadOf(secs[i])
		if rows[i].Strategy == "active" {
			rows[i].Predictions = SpreadOf(preds[i])
		}
	}
	return rows
}

// Summary is the result of one strategy over the whole suite.
type Summary struct {
	Strategy string `json:"strategy"`
	// Buggy and Partial count the kernels run in that variant, and
	// BuggyDetected and PartialDetected those detected by at least one
	// seed.
	Buggy           int `json:"buggy"`
	BuggyDetected   int `json:"buggy_detected"`
	Partial         int `json:"partial"`
	PartialDetected int `json:"partial_detected"`
	// Hard and HardDetected count the buggy variants of hard kernels run
	// and detected by at least one seed.
	Hard         int `json:"hard"`
	HardDetected int `json:"hard_detected"`
	// DetectRuns of BugRuns runs on buggy and partial variants detected the
	// bug.
	BugRuns    int `json:"bug_runs"`
	DetectRuns int `json:"detect_runs"`
	// Fixed counts the fixed twins run, FixedFalse those with at least one
	// false report, and FalseRuns the runs with a false report.
	Fixed      int `json:"fixed"`
	FixedFalse int `json:"fixed_false"`
	FalseRuns  int `json:"false_runs"`
	// ToDetection is the spread of schedules to first detection over all
	// detecting runs.
	ToDetection Spread `json:"to_detection"`
	// Seconds is the total exploration time of the strategy's runs.
	Seconds float64 `json:"seconds"`
	// Errors counts runs without a result.
	Errors int `json:"errors"`
}

// Summarize computes one Summary per strategy, in the order in which the
// strategies first appear in strategies (or, if nil, in rows).
func Summarize(strategies []string, rows []Row, runs []Run) []Summary {
	if strategies == nil {
		seen := map[string]bool{}
		for _, r := range rows {
			if !seen[r.Strategy] {
				seen[r.Strategy] = true
				strategies = append(strategies, r.Strategy)
			}
		}
	}
	var out []Summary
	for _, s := range strategies {
		sum := Summary{Strategy: s}
		for _, r := range rows {
			if r.Strategy != s {
				continue
			}
			switch r.Variant {
			case Buggy:
				sum.Buggy++
				if r.Detected > 0 {
					sum.BuggyDetected++
				}
				if r.Hard {
					sum.Hard++
					if r.Detected > 0 {
						sum.HardDetected++
					}
				}
			case Partial:
				sum.Partial++
				if r.Detected > 0 {
					sum.PartialDetected++
				}
			case Fixed:
				sum.Fixed++
				if r.FalseReports > 0 {
					sum.FixedFalse++
				}
			}
		}
		var det []float64
		for _, r := range runs {
			if r.Strategy != s {
				continue
			}
			if r.Outcome == OutcomeError {
				sum.Errors++
				continue
			}
			sum.Seconds += r.Seconds
			if r.Variant != Fixed {
				sum.BugRuns++
			}
			if r.Detected {
				sum.DetectRuns++
				det = append(det, float64(r.Schedules))
			}
			if r.FalseReport {
				sum.FalseRuns++
			}
		}
		sum.ToDetection = SpreadOf(det)
		out = append(out, sum)
	}
	return out
}

// String is the one-line form of the summary printed by the command.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-7s buggy %d/%d detected", s.Strategy+":", s.BuggyDetected, s.Buggy)
	if s.Partial > 0 {
		fmt.Fprintf(&b, ", partial %d/%d", s.PartialDetected, s.Partial)
	}
	if s.Hard > 0 {
		fmt.Fprintf(&b, ", hard %d/%d", s.HardDetected, s.Hard)
	}
	fmt.Fprintf(&b, " (%d/%d runs)", s.DetectRuns, s.BugRuns)
	if s.ToDetection.N > 0 {
		fmt.Fprintf(&b, ", median %s schedules to detection", num(s.ToDetection.Median))
	}
	fmt.Fprintf(&b, "; false reports on %d/%d fixed twins (%d runs)", s.FixedFalse, s.Fixed, s.FalseRuns)
	if s.Errors > 0 {
		fmt.Fprintf(&b, "; %d runs failed", s.Errors)
	}
	fmt.Fprintf(&b, "; %.2fs exploring", s.Seconds)
	return b.String()
}

// num formats a count that may be a half (a median of an even sample).
func num(x float64) string {
	if x == float64(int64(x)) {
		return fmt.Sprintf("%d", int64(x))
	}
	return fmt.Sprintf("%.1f", x)
}
