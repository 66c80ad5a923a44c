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
// test's schedules (random, pct) or search tree (dfs, pcb); it writes its
// results next to its schedule files, as results-K-of-N.jsonl, so that
// the schedule directories of the N runs (CI artifacts, a shared volume)
// can be merged into what a single run would have reported.

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
	byTest := map[string][]shardEntry{}
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
				if byTest[key] == nil {
					order = append(order, key)
				}
				byTest[key] = append(byTest[key], shardEntry{r: r, dir: filepath.Dir(f)})
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
		e := mergeTest(byTest[key])
		r := e.r
		r.Shard, r.Parts, r.Limit = "", nil, 0
		if len(m.Missing) > 0 {
			r.Exhausted = false // the missing shards' parts were not explored
		}
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
				if err := copySchedule(r.Schedule, dst, e.iteration); err != nil {
					return nil, fmt.Errorf("merge: %w", err)
				}
				r.Schedule = dst
			}
		}
		m.Results = append(m.Results, r)
	}
	return m, nil
}

// shardEntry is a shard's result for a test, and where its schedule file
// is.
type shardEntry struct {
	r   wire.Result
	dir string
	// iteration, when not 0, is the number the merged search gives the
	// finding of the schedule file, which its shard numbered within its
	// share (dfs, pcb).
	iteration int
}

// mergeTest combines the shards' results for one test.
func mergeTest(es []shardEntry) shardEntry {
	for _, e := range es {
		if e.r.Parts != nil {
			return tallyShards(es)
		}
	}
	e := es[0]
	for _, x := range es[1:] {
		if combine(&e.r, x.r) {
			e.dir = x.dir
		}
	}
	return e
}

// tallyShards combines the shards of a dfs or pcb search: their parts
// tallied in the order of their keys (wire.Tally) are the search of one
// process, whose finding is the shard's that holds the part found
// first, numbered after every schedule of the parts before it.
func tallyShards(es []shardEntry) shardEntry {
	var parts []wire.Part
	limit := 0
	out := es[0]
	out.r.Outcome, out.r.Kind, out.r.Message, out.r.Schedule, out.r.EventHash, out.r.Seconds = wire.OutcomePass, "", "", "", "", 0
	for _, e := range es {
		switch e.r.Outcome {
		case wire.OutcomeError, wire.OutcomeDiverged:
			return e
		case wire.OutcomeSkip:
			out.r.Outcome = wire.OutcomeSkip
		}
		parts = append(parts, e.r.Parts...)
		limit = max(limit, e.r.Limit)
		out.r.Seconds += e.r.Seconds
	}
	t := wire.Tally(parts, limit)
	out.r.Schedules, out.r.Exhausted = t.Schedules, t.Exhausted
	if t.Finding < 0 {
		return out
	}
	key := parts[t.Finding].Key
	for _, e := range es {
		if !found(e.r.Outcome) {
			continue
		}
		for _, p := range e.r.Parts {
			if p.Finding && wire.CompareKeys(p.Key, key) == 0 {
				e.r.Schedules, e.iteration = t.Schedules, t.Schedules
				return e
			}
		}
	}
	// The shard that found it did not report it (it could not confirm it).
	out.r.Outcome = wire.OutcomeError
	out.r.Message = fmt.Sprintf("the shard that explored the part of the search with its finding on schedule %d did not report it", t.Schedules)
	return out
}

// copySchedule copies the schedule file src to dst, giving it the
// number iteration unless that is 0.
func copySchedule(src, dst string, iteration int) error {
	if iteration == 0 {
		return copyFile(src, dst)
	}
	s, err := wire.ReadSchedule(src)
	if err != nil {
		return err
	}
	s.Iteration = iteration
	return wire.WriteSchedule(dst, s)
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
