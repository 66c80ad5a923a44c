package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"interleave.dev/rt/wire"
)

// rareRead fails only in the schedules in which the reader sees the
// counter at exactly 7 of 12 increments; each schedule is long enough
// (a loop of its own) that worker processes take part.
const rareRead = `package m

import (
	"sync"
	"testing"
)

func TestRareRead(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n, seen := 0, -1
	wg.Add(2)
	go func() {
		defer wg.Done()
		for k := 0; k < 12; k++ {
			mu.Lock()
			n++
			mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		seen = n
		mu.Unlock()
	}()
	busy := make([]int, 1)
	for k := 0; k < 3000; k++ {
		busy[0]++
	}
	wg.Wait()
	if seen == 7 {
		t.Errorf("saw the counter at 7")
	}
}
`

var afterLine = regexp.MustCompile(`interleave: test failure after (\d+) schedules?`)

// scheduleFiles returns the schedule files in dir, by name, without their
// directory-dependent parts.
func scheduleFiles(t *testing.T, dir string) map[string]*wire.Schedule {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	out := map[string]*wire.Schedule{}
	for _, f := range files {
		s, err := wire.ReadSchedule(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = s
	}
	return out
}

// The command's result does not depend on -workers (same finding, same
// schedule number, same schedule files), and N shards merged by
// "interleave merge" give what one run gives.
func TestWorkersAndShardsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.23\n", "m_test.go": rareRead})
	run := func(args ...string) (int, string, map[string]*wire.Schedule) {
		t.Helper()
		sd := t.TempDir()
		code, stdout, stderr := cli(t, append([]string{"test", "-C", dir, "-schedule-dir", sd, "-schedules", "600"}, args...)...)
		if code != 0 && code != 1 {
			t.Fatalf("interleave test %v: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
		after := ""
		if m := afterLine.FindStringSubmatch(stdout); m != nil {
			after = m[1]
		}
		return code, after, scheduleFiles(t, sd)
	}
	for _, seed := range []string{"2", "4"} { // found after 64 and 99 schedules
		code1, after1, files1 := run("-seed", seed, "-workers", "1", ".")
		code2, after2, files2 := run("-seed", seed, "-workers", "2", ".")
		if code1 != code2 || after1 != after2 || !reflect.DeepEqual(files1, files2) {
			t.Errorf("seed %s: -workers 1: exit %d, found after %q, files %v; -workers 2: exit %d, after %q, files %v", seed, code1, after1, keys(files1), code2, after2, keys(files2))
		}
		if code1 != 1 || len(files1) != 1 {
			t.Errorf("seed %s: exit %d with %d schedule files: the test finds nothing to compare", seed, code1, len(files1))
		}

		// Three shards, merged.
		var dirs []string
		for k := 0; k < 3; k++ {
			sd := t.TempDir()
			code, stdout, stderr := cli(t, "test", "-C", dir, "-schedule-dir", sd, "-schedules", "600", "-seed", seed, "-shard", fmt.Sprintf("%d/3", k), ".")
			if code != 0 && code != 1 {
				t.Fatalf("shard %d: exit %d\n%s\n%s", k, code, stdout, stderr)
			}
			dirs = append(dirs, sd)
		}
		out := t.TempDir()
		code, stdout, stderr := cli(t, append([]string{"merge", "-o", out}, dirs...)...)
		want := fmt.Sprintf("test failure on schedule %s ", after1)
		if code != code1 || !strings.Contains(stdout, want) || !reflect.DeepEqual(scheduleFiles(t, out), files1) {
			t.Errorf("seed %s: merge: exit %d, want %d and %q, files %v, want %v\n%s\n%s", seed, code, code1, want, keys(scheduleFiles(t, out)), keys(files1), stdout, stderr)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Shard values: auto/N takes K from the Indexed Job's completion index.
func TestResolveShard(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	for _, tc := range []struct {
		in, env, want string
		err           bool
	}{
		{"", "", "", false},
		{"1/3", "", "1/3", false},
		{"0/1", "", "", false},
		{"auto/4", "3", "3/4", false},
		{"auto/4", "", "", true},
		{"auto/4", "4", "", true},
		{"3/3", "", "", true},
		{"x", "", "", true},
	} {
		got, err := resolveShard(tc.in, env(tc.env))
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("resolveShard(%q) with index %q = %q, %v; want %q, error %v", tc.in, tc.env, got, err, tc.want, tc.err)
		}
	}
}

func TestWorkersShardUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"test", "-workers", "0"}, "-workers 0: want at least 1"},
		{[]string{"test", "-shard", "3/3"}, `bad shard "3/3"`},
		{[]string{"test", "-shard", "1/2", "-strategy", "dpor"}, "dpor does not split between shards"},
		{[]string{"test", "-shard", "1/2", "-strategy", "coverage"}, "coverage does not split between shards"},
		{[]string{"merge"}, "name the shards' schedule directories"},
	} {
		code, _, stderr := cli(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("interleave %v: exit %d, want 2 and %q in\n%s", tc.args, code, tc.want, stderr)
		}
	}
}

// orders has a dfs search of many schedules: TestOrder fails after
// some thousands (two goroutines append to a list under a mutex, then
// count on their own), TestOrderPasses never, and its space is larger
// than the runs below explore.
const orders = `package m

import (
	"fmt"
	"sync"
	"testing"
)

func run(t *testing.T, steps int, bad string) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	var order []int
	for g := 1; g <= 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			order = append(order, g)
			mu.Unlock()
			own := new(int)
			for e := 0; e < steps; e++ {
				*own++
			}
		}()
	}
	wg.Wait()
	if fmt.Sprint(order) == bad {
		t.Errorf("the order %v", order)
	}
}

func TestOrder(t *testing.T) { run(t, 3, "[1 2]") }

func TestOrderPasses(t *testing.T) { run(t, 2, "") }
`

var explored = regexp.MustCompile(`interleave: (\d+) schedules explored`)

// readFiles returns the contents of the schedule files in dir, by name.
func readFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

// splitRun runs interleave test -v with args in the module dir, and
// returns its exit status, the number of the schedule it found
// something on, the number of schedules of the test that passed, and
// the schedule files it wrote.
func splitRun(t *testing.T, dir string, args ...string) (int, string, string, map[string]string) {
	t.Helper()
	sd := t.TempDir()
	code, stdout, stderr := cli(t, append([]string{"test", "-C", dir, "-schedule-dir", sd, "-v"}, args...)...)
	if code != 0 && code != 1 {
		t.Fatalf("interleave test %v: exit %d\n%s\n%s", args, code, stdout, stderr)
	}
	after, passed := "", ""
	if m := afterLine.FindStringSubmatch(stdout); m != nil {
		after = m[1]
	}
	if m := explored.FindStringSubmatch(stdout); m != nil {
		passed = m[1]
	}
	return code, after, passed, readFiles(t, sd)
}

// A dfs search split between -workers gives what one process gives: the
// same finding on the same schedule, byte for byte the same schedule
// file, and as many schedules for the test that passes; three -shard
// runs merged by "interleave merge" give it too.
func TestSplitSearchEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.23\n", "m_test.go": orders})
	run := func(args ...string) (int, string, string, map[string]string) {
		t.Helper()
		return splitRun(t, dir, append([]string{"-strategy", "dfs", "-schedules", "12000"}, args...)...)
	}
	code1, after1, passed1, files1 := run("-workers", "1", ".")
	if n, _ := strconv.Atoi(after1); code1 != 1 || n < 1000 || passed1 != "12000" || len(files1) != 1 {
		t.Fatalf("-workers 1: exit %d, found after %q (want 1000 or more, for the workers to take part), passed after %q, %d schedule files", code1, after1, passed1, len(files1))
	}
	code2, after2, passed2, files2 := run("-workers", "2", ".")
	if code2 != code1 || after2 != after1 || passed2 != passed1 || !reflect.DeepEqual(files2, files1) {
		t.Errorf("-workers 2: exit %d, found after %q, passed after %q, files %v; -workers 1: %d, %q, %q, %v", code2, after2, passed2, keys(files2), code1, after1, passed1, keys(files1))
	}

	var dirs []string
	for k := 0; k < 3; k++ {
		sd := t.TempDir()
		code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy", "dfs", "-schedule-dir", sd, "-schedules", "12000", "-shard", fmt.Sprintf("%d/3", k), ".")
		if code != 0 && code != 1 {
			t.Fatalf("shard %d: exit %d\n%s\n%s", k, code, stdout, stderr)
		}
		dirs = append(dirs, sd)
	}
	out := t.TempDir()
	code, stdout, stderr := cli(t, append([]string{"merge", "-o", out}, dirs...)...)
	n, _ := strconv.Atoi(after1)
	found, total := "test failure on schedule "+after1+" ", fmt.Sprintf("2 tests, %d schedules", n+12000)
	if code != code1 || !strings.Contains(stdout, found) || !strings.Contains(stdout, total) || !reflect.DeepEqual(readFiles(t, out), files1) {
		t.Errorf("merge: exit %d, want %d, %q, %q and the files %v, got %v\n%s\n%s", code, code1, found, total, keys(files1), keys(readFiles(t, out)), stdout, stderr)
	}
}

// lastZero is lastzero(3) of docs/systematic.md under a mutex: a dpor
// search of thousands of schedules, which fails on an outcome reached
// late in TestLastZero and never in TestLastZeroPasses.
const lastZero = `package m

import (
	"fmt"
	"sync"
	"testing"
)

func run(t *testing.T, n int, bad string) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	arr := make([]int, n+1)
	found := 0
	for j := 0; j <= n; j++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if j == 0 {
				i := n
				for ; i > 0; i-- {
					mu.Lock()
					v := arr[i]
					mu.Unlock()
					if v == 0 {
						break
					}
				}
				found = i
				return
			}
			mu.Lock()
			v := arr[j-1]
			mu.Unlock()
			mu.Lock()
			arr[j] = v + 1
			mu.Unlock()
		}()
	}
	wg.Wait()
	if out := fmt.Sprint(found, arr); out == bad {
		t.Errorf("outcome %s", out)
	}
}

func TestLastZero(t *testing.T) { run(t, 3, "2 [0 1 2 1]") }

func TestLastZeroPasses(t *testing.T) { run(t, 3, "") }
`

// dpor explores in rounds whatever -workers: 1 and 2 give the same
// finding on the same schedule, byte for byte the same schedule file,
// and as many schedules for the test that passes; -shard refuses it.
func TestDPORWorkersEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.23\n", "m_test.go": lastZero})
	run := func(workers string) (int, string, string, map[string]string) {
		t.Helper()
		return splitRun(t, dir, "-strategy", "dpor", "-schedules", "6000", "-workers", workers, ".")
	}
	code1, after1, passed1, files1 := run("1")
	if n, _ := strconv.Atoi(after1); code1 != 1 || n < 500 || passed1 != "6000" || len(files1) != 1 {
		t.Fatalf("-workers 1: exit %d, found after %q (want 500 or more, for the workers to take part), passed after %q, %d schedule files", code1, after1, passed1, len(files1))
	}
	code2, after2, passed2, files2 := run("2")
	if code2 != code1 || after2 != after1 || passed2 != passed1 || !reflect.DeepEqual(files2, files1) {
		t.Errorf("-workers 2: exit %d, found after %q, passed after %q, files %v; -workers 1: %d, %q, %q, %v", code2, after2, passed2, keys(files2), code1, after1, passed1, keys(files1))
	}
}
