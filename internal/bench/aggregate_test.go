package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"interleave.dev/rt/wire"
)

func TestSpreadOf(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want Spread
	}{
		{nil, Spread{}},
		{[]float64{7}, Spread{N: 1, Median: 7, Min: 7, Max: 7}},
		{[]float64{9, 1, 5}, Spread{N: 3, Median: 5, Min: 1, Max: 9}},
		{[]float64{4, 1, 10, 2}, Spread{N: 4, Median: 3, Min: 1, Max: 10}},
	} {
		if got := SpreadOf(c.in); got != c.want {
			t.Errorf("SpreadOf(%v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// synthetic returns two kernels and runs as the runtime would have
// reported them.
func synthetic() ([]*Kernel, []Run) {
	ks := []*Kernel{
		{Name: "abba", Class: "deadlock", Detect: "deadlock", Partial: true, Variants: []string{Buggy, Partial, Fixed}},
		{Name: "counter", Class: "race", Detect: "data race", Hard: true, Variants: []string{Buggy, Fixed}},
	}
	meta := map[string]*Kernel{"abba": ks[0], "counter": ks[1]}
	mk := func(kernel, variant, strategy string, seed int64, outcome, kind string, schedules int) Run {
		r := Run{Kernel: kernel, Variant: variant, Strategy: strategy, Seed: seed, Outcome: outcome, Kind: kind, Schedules: schedules, Seconds: 0.5}
		if outcome == OutcomeError {
			r.Seconds = 0
		}
		Classify(meta[kernel], &r)
		return r
	}
	f, p := wire.OutcomeFinding, wire.OutcomePass
	runs := []Run{
		// Listed out of order on purpose: Aggregate sorts.
		mk("counter", Fixed, "random", 1, p, "", 1000),
		mk("abba", Buggy, "random", 3, f, "deadlock", 10),
		mk("abba", Buggy, "random", 1, f, "deadlock", 4),
		mk("abba", Buggy, "random", 2, f, "deadlock", 1),
		mk("abba", Buggy, "random", 4, p, "", 1000),
		mk("abba", Buggy, "dfs", 1, f, "goroutine leak", 30), // wrong kind: not a detection
		mk("abba", Partial, "random", 1, f, "deadlock", 7),
		mk("abba", Partial, "random", 2, OutcomeError, "", 0),
		mk("abba", Fixed, "random", 1, p, "", 1000),
		mk("abba", Fixed, "random", 2, f, "data race", 12), // a false report
		mk("abba", Fixed, "dfs", 1, p, "", 40),
		mk("counter", Buggy, "random", 1, f, "data race", 2),
		mk("counter", Buggy, "random", 2, f, "data race", 3),
	}
	runs[10].Exhausted = true
	return ks, runs
}

func TestAggregate(t *testing.T) {
	ks, runs := synthetic()
	rows := Aggregate(ks, runs)
	var got []string
	for _, r := range rows {
		got = append(got, r.Kernel+"/"+r.Variant+"/"+r.Strategy)
	}
	want := "abba/buggy/random abba/buggy/dfs abba/partial/random abba/fixed/random abba/fixed/dfs counter/buggy/random counter/fixed/random"
	if strings.Join(got, " ") != want {
		t.Fatalf("rows %v, want %s", got, want)
	}
	br := rows[0]
	if br.Runs != 4 || br.Detected != 3 || br.ToDetection != (Spread{N: 3, Median: 4, Min: 1, Max: 10}) {
		t.Errorf("abba/buggy/random = %+v", br)
	}
	if br.Class != "deadlock" || br.Detect != "deadlock" || br.Findings["deadlock"] != 3 {
		t.Errorf("abba/buggy/random metadata or findings = %+v", br)
	}
	if d := rows[1]; d.Detected != 0 || d.Findings["goroutine leak"] != 1 || d.ToDetection.N != 0 {
		t.Errorf("a finding of another kind counted as detection: %+v", d)
	}
	if p := rows[2]; p.Runs != 2 || p.Errors != 1 || p.Detected != 1 || p.Seconds.N != 1 {
		t.Errorf("abba/partial/random = %+v", p)
	}
	if fx := rows[3]; fx.FalseReports != 1 || fx.Detected != 0 {
		t.Errorf("abba/fixed/random = %+v, want one false report", fx)
	}
	if fx := rows[4]; fx.Exhausted != 1 || fx.FalseReports != 0 {
		t.Errorf("abba/fixed/dfs = %+v", fx)
	}
	if c := rows[5]; !c.Hard || c.Detected != 2 || c.ToDetection.Median != 2.5 {
		t.Errorf("counter/buggy/random = %+v", c)
	}
}

func TestSummarize(t *testing.T) {
	ks, runs := synthetic()
	sums := Summarize([]string{"random", "dfs"}, Aggregate(ks, runs), runs)
	if len(sums) != 2 {
		t.Fatalf("%d summaries", len(sums))
	}
	r := sums[0]
	want := Summary{
		Strategy: "random", Buggy: 2, BuggyDetected: 2, Partial: 1, PartialDetected: 1, Hard: 1, HardDetected: 1,
		BugRuns: 7, DetectRuns: 6, Fixed: 2, FixedFalse: 1, FalseRuns: 1,
		ToDetection: Spread{N: 6, Median: 3.5, Min: 1, Max: 10}, Seconds: 5.0, Errors: 1,
	}
	if r != want {
		t.Errorf("random summary\n got %+v\nwant %+v", r, want)
	}
	d := sums[1]
	if d.Buggy != 1 || d.BuggyDetected != 0 || d.Fixed != 1 || d.FixedFalse != 0 || d.DetectRuns != 0 {
		t.Errorf("dfs summary %+v", d)
	}
	line := r.String()
	for _, s := range []string{"random:", "buggy 2/2 detected", "partial 1/1", "hard 1/1", "(6/7 runs)", "median 3.5 schedules", "false reports on 1/2 fixed twins (1 runs)", "1 runs failed"} {
		if !strings.Contains(line, s) {
			t.Errorf("summary line %q lacks %q", line, s)
		}
	}
}

func TestMarkdown(t *testing.T) {
	ks, runs := synthetic()
	md := markdown(t, []string{"random", "dfs"}, ks, runs)
	for _, s := range []string{
		"| random | 2/2 | 1/1 | 1/1 | 6/7 | 3.5 (1-10) | 1/2 / 1 | 1 | 5.00s |",
		"- abba/buggy under dfs: goroutine leak 1 of 1 runs (expected deadlock)",
		"| abba **P** | deadlock: deadlock | buggy | random | 3/4 | 4 (1-10) | 500.0 |  | deadlock 3 |",
		"|  |  | buggy | dfs | 0/1 | - | 500.0 |  | goroutine leak 1 |",
		"|  |  | partial | random | 1/2 (1 failed) | 7 | 500.0 |  | deadlock 1 |",
		"|  |  | fixed | random | - | - | 500.0 | 1 | data race 1 |",
		"|  |  | fixed | dfs (exhausted 1) | - | - | 500.0 | 0 |  |",
		"| counter **H** | race: data race | buggy | random | 2/2 | 2.5 (2-3) |",
		"- **abba** **P** (deadlock; detected as deadlock; variants buggy, partial, fixed).",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q\n%s", s, md)
		}
	}
}

func TestJSON(t *testing.T) {
	ks, runs := synthetic()
	rep := NewReport(DefaultConfig(), true, ks, runs)
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Rows) != len(rep.Rows) || len(back.Runs) != len(runs) || !back.Settings.Quick || back.Settings.Seeds != 5 {
		t.Errorf("JSON round trip lost data: %d rows, %d runs, settings %+v", len(back.Rows), len(back.Runs), back.Settings)
	}
	if back.Rows[3].FalseReports != 1 || back.Runs[0].Kernel != "abba" {
		t.Errorf("JSON rows or runs differ: %+v / %+v", back.Rows[3], back.Runs[0])
	}
}

// TestMarkdownActive: the section on the active strategy puts its
// predictions and confirmations next to random's schedules to detection.
func TestMarkdownActive(t *testing.T) {
	ks, runs := synthetic()
	f, p := wire.OutcomeFinding, wire.OutcomePass
	for seed, n := range []int{6, 8} {
		r := Run{Kernel: "abba", Variant: Buggy, Strategy: "active", Seed: int64(seed + 1), Outcome: f, Kind: "deadlock", Schedules: n, Predictions: 2 + seed, Confirmed: 1}
		Classify(ks[0], &r)
		runs = append(runs, r)
	}
	r := Run{Kernel: "abba", Variant: Fixed, Strategy: "active", Seed: 1, Outcome: p, Schedules: 25, Predictions: 1}
	Classify(ks[0], &r)
	runs = append(runs, r)
	md := markdown(t, []string{"random", "active"}, ks, runs)
	for _, s := range []string{
		"## Active testing",
		"| abba | buggy | 2.5 (2-3) | 2/2 | 7 (6-8) (2/2) | 4 (1-10) (3/4) | not run |",
		"| abba | fixed | 1 | 0/1 | false 0/1 | false 1/2 | not run |",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q\n%s", s, md)
		}
	}
	ks, runs = synthetic()
	if strings.Contains(markdown(t, []string{"random"}, ks, runs), "## Active testing") {
		t.Errorf("an Active testing section without the active strategy")
	}
}

// markdown renders the report of runs made with strategies.
func markdown(t *testing.T, strategies []string, ks []*Kernel, runs []Run) string {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Strategies = strategies
	var b bytes.Buffer
	if err := NewReport(cfg, false, ks, runs).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestClassifyNeverStops: a leak every schedule shows is a note, which
// detects a leak kernel (and is a false report on its fixed twin), and
// detects nothing else.
func TestClassifyNeverStops(t *testing.T) {
	leak := &Kernel{Name: "first", Class: "leak", Detect: "goroutine leak"}
	abba := &Kernel{Name: "abba", Class: "deadlock", Detect: "deadlock"}
	p := wire.OutcomePass
	for _, c := range []struct {
		k                   *Kernel
		variant, strategy   string
		notes               bool
		detected, falseRept bool
	}{
		{leak, Buggy, "random", true, true, false},
		{leak, Buggy, "random", false, false, false},
		{leak, Fixed, "dfs", true, false, true},
		{leak, Buggy, Native, true, false, false},
		{abba, Buggy, "random", true, false, false},
		{abba, Fixed, "random", true, false, false},
	} {
		r := Run{Kernel: c.k.Name, Variant: c.variant, Strategy: c.strategy, Outcome: p, NeverStops: c.notes}
		Classify(c.k, &r)
		if r.Detected != c.detected || r.FalseReport != c.falseRept {
			t.Errorf("%s %s %s, notes %v: detected %v, false report %v; want %v, %v", c.k.Name, c.variant, c.strategy, c.notes, r.Detected, r.FalseReport, c.detected, c.falseRept)
		}
	}
}
