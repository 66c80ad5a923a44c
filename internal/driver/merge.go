package driver

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"interleave.dev/rt/wire"
)

// A run with -shard K/N explores the K-th of N disjoint shares of every
// test's schedules; it writes its results next to its schedule files, as
// results-K-of-N.jsonl, so that the schedule directories of the N runs
// (CI artifacts, a shared volume) can be merged into what a single run
// would have reported.

// shardResultsName is the name of a shard's results file.
func shardResultsName(shard string) string {
	k, n, _ := wire.ParseShard(shard)
	return fmt.Sprintf("results-%d-of-%d.jsonl", k, n)
}

// writeShardResults writes the results of a shard run into its schedule
// directory.
func writeShardResults(cfg wire.Config, results []wire.Result) error {
	path := filepath.Join(cfg.ScheduleDir, shardResultsName(cfg.Shard))
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("writing the shard's results: %w", err)
	}
	for _, r := range results {
		if err := wire.AppendResult(path, r); err != nil {
			return fmt.Errorf("writing the shard's results: %w", err)
		}
	}
	return nil
}

// Merged is the combination of shard runs.
type Merged struct {
	// Results has one result per test, as a single run would report it:
	// the lowest-numbered finding of any shard, or a pass counting the
	// schedules of every shard.
	Results []wire.Result
	// Shards lists the shards seen ("K/N"), sorted; Missing, those of
	// 0..N-1 not seen.
	Shards, Missing []string
}

// Merge combines the results of shard runs. Each path is a directory
// holding results-K-of-N.jsonl files and the schedule files they name,
// or a results file. Schedule files are looked up next to the results
// file that names them (the paths recorded are those of the machine that
// ran the shard); with outDir set, the schedule files of the merged
// findings are copied there and the results name the copies.
func Merge(paths []string, outDir string) (*Merged, error) {
	type entry struct {
		r   wire.Result
		dir string // where its schedule file is
	}
	byTest := map[string]*entry{}
	var order []string
	shards := map[string]bool{}
	n := 0
	for _, p := range paths {
		files := []string{p}
		if fi, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		} else if fi.IsDir() {
			files, err = filepath.Glob(filepath.Join(p, "results-*-of-*.jsonl"))
			if err != nil || len(files) == 0 {
				return nil, fmt.Errorf("merge: %s holds no shard results (results-K-of-N.jsonl)", p)
			}
		}
		for _, f := range files {
			rs, err := wire.ReadResults(f)
			if err != nil {
				return nil, fmt.Errorf("merge: %w", err)
			}
			for _, r := range rs {
				if r.Shard != "" {
					shards[r.Shard] = true
					if _, sn, err := wire.ParseShard(r.Shard); err == nil && sn > n {
						n = sn
					}
				}
				key := r.Package + "\x00" + r.Test
				e, ok := byTest[key]
				if !ok {
					byTest[key] = &entry{r: r, dir: filepath.Dir(f)}
					order = append(order, key)
					continue
				}
				if combine(&e.r, r) {
					e.dir = filepath.Dir(f)
				}
			}
		}
	}
	m := &Merged{}
	for s := range shards {
		m.Shards = append(m.Shards, s)
	}
	sort.Strings(m.Shards)
	for k := 0; k < n; k++ {
		if s := fmt.Sprintf("%d/%d", k, n); !shards[s] {
			m.Missing = append(m.Missing, s)
		}
	}
	sort.Strings(order)
	for _, key := range order {
		e := byTest[key]
		r := e.r
		r.Shard = ""
		if r.Schedule != "" {
			local := filepath.Join(e.dir, filepath.Base(r.Schedule))
			if _, err := os.Stat(local); err == nil {
				r.Schedule = local
			}
			if outDir != "" {
				dst := filepath.Join(outDir, filepath.Base(r.Schedule))
				if err := os.MkdirAll(outDir, 0o755); err != nil {
					return nil, fmt.Errorf("merge: %w", err)
				}
				if err := copyFile(r.Schedule, dst); err != nil {
					return nil, fmt.Errorf("merge: %w", err)
				}
				r.Schedule = dst
			}
		}
		m.Results = append(m.Results, r)
	}
	return m, nil
}

// found is the rank of outcomes that name a failing schedule.
func found(o string) bool {
	return o == wire.OutcomeFinding || o == wire.OutcomeUnrepeatable
}

// combine merges shard result r into a, the combination so far, and
// reports whether r's schedule file is now a's.
func combine(a *wire.Result, r wire.Result) bool {
	switch {
	case a.Outcome == wire.OutcomeError || a.Outcome == wire.OutcomeDiverged:
		return false
	case r.Outcome == wire.OutcomeError || r.Outcome == wire.OutcomeDiverged:
		*a = r
		return true
	case found(r.Outcome) && (!found(a.Outcome) || r.Schedules < a.Schedules):
		// The lowest-numbered failing schedule is the one a single
		// run, which stops at its first finding, reports.
		*a = r
		return true
	case found(a.Outcome) || found(r.Outcome):
		return false
	case a.Outcome == wire.OutcomeSkip || r.Outcome == wire.OutcomeSkip:
		a.Outcome = wire.OutcomeSkip
	}
	a.Schedules += r.Schedules
	a.Seconds += r.Seconds
	a.Exhausted = a.Exhausted && r.Exhausted
	return false
}

// WriteReport writes one line per test with a finding or another
// outcome that fails the run, then the summary, as "interleave test" ends.
func (m *Merged) WriteReport(w io.Writer) {
	if len(m.Missing) > 0 {
		fmt.Fprintf(w, "interleave merge: shards missing: %s (the merged result covers only the shards given)\n", strings.Join(m.Missing, ", "))
	}
	for _, r := range m.Results {
		name := r.Test
		if r.Package != "" {
			name = r.Package + "." + r.Test
		}
		switch r.Outcome {
		case wire.OutcomeFinding, wire.OutcomeUnrepeatable:
			fmt.Fprintf(w, "--- FAIL: %s: %s on schedule %d (%s, seed %d): %s\n", name, r.Kind, r.Schedules, r.Strategy, r.Seed, r.Message)
			if r.Schedule != "" && r.Outcome == wire.OutcomeFinding {
				fmt.Fprintf(w, "    replay: interleave replay %s\n", r.Schedule)
			}
		case wire.OutcomeError, wire.OutcomeDiverged:
			fmt.Fprintf(w, "--- FAIL: %s: %s: %s\n", name, r.Outcome, r.Message)
		}
	}
	(&Outcome{Results: m.Results}).WriteSummary(w)
}
