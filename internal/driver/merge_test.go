package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"interleave.dev/rt/wire"
)

// writeShard writes the results file of shard k of n into dir, with a
// schedule file for each finding (named by the path of another machine).
func writeShard(t *testing.T, dir string, k, n int, rs ...wire.Result) {
	t.Helper()
	shard := itoa(k) + "/" + itoa(n)
	for _, r := range rs {
		r.Shard = shard
		if r.Schedule != "" {
			s := &wire.Schedule{Test: r.Test, Strategy: "random", Seed: 1, Iteration: r.Schedules, EventHash: "1", Choices: []int{1, 2}}
			if err := wire.WriteSchedule(filepath.Join(dir, r.Schedule), s); err != nil {
				t.Fatal(err)
			}
			r.Schedule = "/elsewhere/" + r.Schedule
		}
		if err := wire.AppendResult(filepath.Join(dir, shardResultsName(shard)), r); err != nil {
			t.Fatal(err)
		}
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

func TestMergeIsWhatOneRunReports(t *testing.T) {
	root := t.TempDir()
	dirs := []string{filepath.Join(root, "s0"), filepath.Join(root, "s1"), filepath.Join(root, "s2")}
	for _, d := range dirs {
		os.MkdirAll(d, 0o755)
	}
	pass := func(test string, n int) wire.Result {
		return wire.Result{Package: "p", Test: test, Outcome: wire.OutcomePass, Strategy: "random", Seed: 1, Schedules: n}
	}
	finding := func(test string, i int, file string) wire.Result {
		return wire.Result{Package: "p", Test: test, Outcome: wire.OutcomeFinding, Kind: "data race", Strategy: "random", Seed: 1, Schedules: i, Schedule: file, Message: "race " + itoa(i%10)}
	}
	// TestA passes on every shard: 334+333+333 schedules. TestB is found
	// by shards 1 (schedule 5) and 2 (schedule 9): schedule 5 is the
	// run's finding, whatever the order of the arguments.
	writeShard(t, dirs[0], 0, 3, pass("TestA", 334), pass("TestB", 334))
	writeShard(t, dirs[1], 1, 3, pass("TestA", 333), finding("TestB", 5, "b5.json"))
	writeShard(t, dirs[2], 2, 3, pass("TestA", 333), finding("TestB", 9, "b9.json"))
	for _, order := range [][]string{dirs, {dirs[2], dirs[0], dirs[1]}} {
		out := filepath.Join(root, "out")
		m, err := Merge(order, out)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Results) != 2 || len(m.Missing) != 0 || len(m.Shards) != 3 {
			t.Fatalf("merged %+v", m)
		}
		a, b := m.Results[0], m.Results[1]
		if a.Test != "TestA" || a.Outcome != wire.OutcomePass || a.Schedules != 1000 {
			t.Errorf("TestA: %+v, want a pass of 1000 schedules", a)
		}
		if b.Test != "TestB" || b.Outcome != wire.OutcomeFinding || b.Schedules != 5 || b.Schedule != filepath.Join(out, "b5.json") {
			t.Errorf("TestB: %+v, want the finding of schedule 5, copied to %s", b, out)
		}
		if s, err := wire.ReadSchedule(b.Schedule); err != nil || s.Iteration != 5 {
			t.Errorf("copied schedule: %+v, %v", s, err)
		}
		var buf bytes.Buffer
		m.WriteReport(&buf)
		if !strings.Contains(buf.String(), "2 tests, 1005 schedules: 1 passed, 1 with findings") || !strings.Contains(buf.String(), "replay: interleave replay "+b.Schedule) {
			t.Errorf("report:\n%s", buf.String())
		}
		if (&Outcome{Results: m.Results}).ExitCode() != ExitFail {
			t.Error("a merged finding does not fail the run")
		}
	}
	// A missing shard is named.
	m, err := Merge(dirs[:2], "")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Missing) != 1 || m.Missing[0] != "2/3" {
		t.Errorf("missing %v, want [2/3]", m.Missing)
	}
	if m.Results[1].Schedule != filepath.Join(dirs[1], "b5.json") {
		t.Errorf("schedule %q: not found next to its results", m.Results[1].Schedule)
	}
}

// Shards of a dfs search report their parts; the merge tallies them in
// the order of their keys, as the processes of one run are tallied: the
// finding is the one of the part found first, numbered after every
// schedule of the parts before it (its shard numbered it within its
// share), and the copy of its schedule file carries that number. A
// search without a finding covers the space only if every shard's parts
// ran to their ends.
func TestMergeTalliesTheShardsOfASearch(t *testing.T) {
	root := t.TempDir()
	dirs := []string{filepath.Join(root, "s0"), filepath.Join(root, "s1")}
	for _, d := range dirs {
		os.MkdirAll(d, 0o755)
	}
	part := func(key []int, n int, found bool) wire.Part {
		return wire.Part{Key: key, Schedules: n, Finding: found, Ended: !found}
	}
	search := func(test string, n int, parts ...wire.Part) wire.Result {
		return wire.Result{Package: "p", Test: test, Outcome: wire.OutcomePass, Strategy: "dfs", Seed: 1, Schedules: n, Parts: parts, Limit: 100}
	}
	found := search("TestB", 7, part([]int{0, 1}, 4, false), part([]int{0, 2, 0}, 3, true))
	found.Outcome, found.Kind, found.Schedule, found.Message = wire.OutcomeFinding, "deadlock", "d.json", "stuck"
	// TestA: 10 + 20 + 30 schedules, every part ended. TestB: parts
	// [0] (shard 0: 40 schedules), [0 1] (shard 1: 4), [0 2 0] (shard
	// 1: found on its 3rd), [0 2 1] (shard 0: found on its 1st, later).
	later := search("TestB", 41, part([]int{0}, 40, false), part([]int{0, 2, 1}, 1, true))
	later.Outcome, later.Kind, later.Schedule, later.Message = wire.OutcomeFinding, "panic", "p.json", "later"
	writeShard(t, dirs[0], 0, 2, search("TestA", 40, part([]int{0}, 10, false), part([]int{0, 5}, 30, false)), later)
	writeShard(t, dirs[1], 1, 2, search("TestA", 20, part([]int{0, 1}, 20, false)), found)
	out := filepath.Join(root, "out")
	m, err := Merge(dirs, out)
	if err != nil {
		t.Fatal(err)
	}
	a, b := m.Results[0], m.Results[1]
	if a.Outcome != wire.OutcomePass || a.Schedules != 60 || !a.Exhausted || a.Parts != nil {
		t.Errorf("TestA: %+v, want a pass of 60 schedules covering the space", a)
	}
	if b.Outcome != wire.OutcomeFinding || b.Kind != "deadlock" || b.Schedules != 47 || b.Schedule != filepath.Join(out, "d.json") {
		t.Errorf("TestB: %+v, want the deadlock of schedule 40+4+3 = 47", b)
	}
	if s, err := wire.ReadSchedule(b.Schedule); err != nil || s.Iteration != 47 {
		t.Errorf("copied schedule: %+v, %v", s, err)
	}
	// Without shard 1, TestA is not covered.
	m, err = Merge(dirs[:1], "")
	if err != nil {
		t.Fatal(err)
	}
	if a := m.Results[0]; a.Exhausted || a.Schedules != 40 {
		t.Errorf("TestA from shard 0 alone: %+v", a)
	}
}
