package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"interleave.dev/rt/wire"
)

// fuzzCounter is a fuzz target whose body races only for inputs above 1:
// its seed corpus has one input of each kind and a file in testdata/fuzz.
const fuzzCounter = `package fz

import (
	"sync"
	"testing"
)

func count(n int, locked bool) int {
	var c int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if locked {
				mu.Lock()
				defer mu.Unlock()
			}
			c++
		}()
	}
	wg.Wait()
	return c
}

func FuzzCount(f *testing.F) {
	f.Add(1)
	f.Add(SEED)
	f.Fuzz(func(t *testing.T, n int) {
		if n < 0 || n > 8 {
			t.Skip()
		}
		if got := count(n, LOCKED); got != n {
			t.Errorf("count(%d) = %d", n, got)
		}
	})
}
`

// TestFuzzTargetsAreExplored runs a FuzzXxx test: every input of its seed
// corpus (f.Add and testdata/fuzz) is explored like a test, the finding's
// schedule file records the input, and a replay uses the recorded input
// even after the corpus changed.
func TestFuzzTargetsAreExplored(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	src := strings.NewReplacer("SEED", "3", "LOCKED", "false").Replace(fuzzCounter)
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/fz\n\ngo 1.26\n",
		"fz_test.go": src,
		// A corpus file: one more input, as go test -fuzz writes them.
		"testdata/fuzz/FuzzCount/one": "go test fuzz v1\nint(1)\n",
	})
	code, stdout, stderr := cli(t, "test", "-C", dir, "-schedules", "100", "-json", ".")
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	actions, output := map[string]string{}, ""
	for _, line := range strings.Split(stdout, "\n") {
		var ev struct{ Action, Test, Output string }
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		output += ev.Output
		if ev.Action == "pass" || ev.Action == "fail" {
			actions[ev.Test] = ev.Action
		}
	}
	for test, want := range map[string]string{"FuzzCount/seed#0": "pass", "FuzzCount/one": "pass", "FuzzCount/seed#1": "fail"} {
		if actions[test] != want {
			t.Errorf("%s: %q, want %q\n%s", test, actions[test], want, output)
		}
	}
	if !strings.Contains(output, "fz_test.go:") || strings.Contains(output, "value.go:") {
		t.Errorf("the report is not attributed to the fuzz body's file:\n%s", output)
	}
	m := replayLine.FindStringSubmatch(output)
	if m == nil {
		t.Fatalf("no schedule file in the output:\n%s", output)
	}
	path := m[1]
	s, err := wire.ReadSchedule(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Test != "FuzzCount/seed#1" || s.Finding != "data race" || !reflect.DeepEqual(s.Input, []string{"int(3)"}) {
		t.Fatalf("schedule: test %q, finding %q, input %q; want FuzzCount/seed#1, data race, [int(3)]", s.Test, s.Finding, s.Input)
	}

	// The corpus changes: seed#1 is now an input with no race. The replay
	// runs the recorded input, so the race comes back.
	changed := strings.NewReplacer("SEED", "2", "LOCKED", "false").Replace(fuzzCounter)
	if err := os.WriteFile(filepath.Join(dir, "fz_test.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = cli(t, "replay", "-C", dir, path)
	if code != 1 || !strings.Contains(stdout, "DATA RACE") && !strings.Contains(stdout, "data race") {
		t.Errorf("replay with the recorded input: exit %d, want 1 and the race\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	// The fixed twin reports nothing.
	fixed := strings.NewReplacer("SEED", "3", "LOCKED", "true").Replace(fuzzCounter)
	if err := os.WriteFile(filepath.Join(dir, "fz_test.go"), []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = cli(t, "test", "-C", dir, "-schedules", "100", ".")
	if code != 0 {
		t.Errorf("fixed twin: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestFuzzInputEncoding checks that a corrupt input in a schedule file is
// a clear error.
func TestFuzzInputCorrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/fz\n\ngo 1.26\n",
		"fz_test.go": strings.NewReplacer("SEED", "3", "LOCKED", "false").Replace(fuzzCounter),
	})
	path := filepath.Join(t.TempDir(), "s.json")
	if err := wire.WriteSchedule(path, &wire.Schedule{Package: "example.com/fz", Test: "FuzzCount/seed#1", Strategy: "random", Seed: 1, Iteration: 1, Race: true, Leaks: true, Choices: []int{}, Input: []string{"string(\"x\")"}}); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "replay", "-C", dir, path)
	if code != 1 || !strings.Contains(stdout, "the schedule's input does not fit FuzzCount/seed#1's fuzz body") {
		t.Errorf("exit %d, want 1 and a clear error\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
