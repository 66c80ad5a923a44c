package main

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

var mcrLine = regexp.MustCompile(`interleave: MCR: (\d+) runs, (\d+) solver queries`)

// TestMCREndToEnd runs strategy mcr through the command on the kernel of
// the maximal path causality paper's figure 1, whose test's second input
// reaches the sentinel under one schedule: mcr finds it, its schedule
// replays, the fixed twin passes with -v saying what mcr did, and -reduce
// is refused.
func TestMCREndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a kernel and the solver")
	}
	dir := kernelsDir(t)
	code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy", "mcr", "-run", "TestSentinel", "./mpc-sentinel/buggy")
	if code != driver.ExitFail || !strings.Contains(stdout, "(strategy mcr") || !strings.Contains(stdout, "saw the sentinel") {
		t.Fatalf("buggy: exit %d, want 1 with the sentinel found by mcr\n%s\n%s", code, stdout, stderr)
	}
	r := replayLine.FindStringSubmatch(stdout)
	if r == nil {
		t.Fatalf("no replay line in the report:\n%s", stdout)
	}
	if code, out, stderr := cli(t, "replay", "-C", dir, r[1]); code != driver.ExitFail || !strings.Contains(out, "saw the sentinel") {
		t.Errorf("replay: exit %d\n%s\n%s", code, out, stderr)
	}

	code, stdout, stderr = cli(t, "test", "-C", dir, "-strategy", "mcr", "-v", "-run", "TestSentinel", "./mpc-sentinel/fixed")
	if code != 0 {
		t.Fatalf("fixed: exit %d\n%s\n%s", code, stdout, stderr)
	}
	m := mcrLine.FindStringSubmatch(stdout)
	if m == nil || m[1] == "1" || m[2] == "0" {
		t.Errorf("fixed: no MCR line with several runs and queries under -v:\n%s", stdout)
	}
	if code, _, stderr := cli(t, "test", "-C", dir, "-strategy", "mcr", "-reduce", "./mpc-sentinel/fixed"); code != 2 || !strings.Contains(stderr, "-reduce does not apply to -strategy mcr") {
		t.Errorf("-reduce: exit %d\n%s", code, stderr)
	}
}

var mpcLine = regexp.MustCompile(`interleave: MPC: (\d+) runs, (\d+) paths, (\d+) solver queries`)

// TestMPCEndToEnd runs strategy mpc through the command on the fuzz test
// of the kernel of the MPC paper's figure 6(a), whose seed corpus never
// shows the bug: mpc finds the input and the schedule together, its
// schedule file holds the input and replays, strategy S1 (-mpc simple)
// misses it as the paper says, mcr with the seed input cannot find it,
// and the fixed twin passes (not claiming every path: its fuzz body
// checks a call's result, which the terms do not follow).
func TestMPCEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a kernel and the solver")
	}
	dir := kernelsDir(t)
	code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy", "mpc", "-run", "FuzzRun", "./mpc-fallback-write/buggy")
	if code != driver.ExitFail || !strings.Contains(stdout, "(strategy mpc") || !strings.Contains(stdout, "saw the degraded state") {
		t.Fatalf("buggy: exit %d, want 1 with the degraded state found by mpc\n%s\n%s", code, stdout, stderr)
	}
	r := replayLine.FindStringSubmatch(stdout)
	if r == nil {
		t.Fatalf("no replay line in the report:\n%s", stdout)
	}
	if code, out, stderr := cli(t, "replay", "-C", dir, r[1]); code != driver.ExitFail || !strings.Contains(out, "Run(") || !strings.Contains(out, ", 5): the watcher saw the degraded state") {
		t.Errorf("replay: exit %d, want the finding with level 5\n%s\n%s", code, out, stderr)
	}
	code, stdout, stderr = cli(t, "test", "-C", dir, "-strategy", "mpc", "-mpc", "simple", "-v", "-run", "FuzzRun", "./mpc-fallback-write/buggy")
	if code != 0 || !strings.Contains(stdout, "strategy S1 (-mpc simple) does not explore every path") {
		t.Errorf("-mpc simple: exit %d, want 0 (S1 misses the path) and not complete\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy", "mcr", "-run", "FuzzRun", "./mpc-fallback-write/buggy"); code != 0 {
		t.Errorf("mcr with the seed input: exit %d, want 0\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "test", "-C", dir, "-strategy", "mpc", "-v", "-run", "FuzzRun", "./mpc-fallback-write/fixed")
	if code != 0 {
		t.Fatalf("fixed: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if m := mpcLine.FindStringSubmatch(stdout); m == nil || m[2] == "1" {
		t.Errorf("fixed: no MPC line with several paths under -v:\n%s", stdout)
	}
}

// TestMPCCallResultEndToEnd: kernels/input-overdraft's bug hides behind
// a method's result (if a.Balance() < n); mpc follows it, finds the input
// and the schedule from the seed corpus, and covers every path of the
// fixed twin.
func TestMPCCallResultEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a kernel and the solver")
	}
	dir := kernelsDir(t)
	code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy", "mpc", "-run", "FuzzWithdraw", "./input-overdraft/buggy")
	if code != driver.ExitFail || !strings.Contains(stdout, "(strategy mpc") || !strings.Contains(stdout, "balance went negative") {
		t.Fatalf("buggy: exit %d, want 1 with the overdraft found by mpc\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "test", "-C", dir, "-strategy", "mpc", "-v", "-run", "FuzzWithdraw", "./input-overdraft/fixed")
	if code != 0 || !strings.Contains(stdout, "every path covered (inputs and schedules)") {
		t.Errorf("fixed: exit %d, want 0 and every path covered\n%s\n%s", code, stdout, stderr)
	}
}

// TestMPCStringEndToEnd: kernels/mpc-string-command's bug needs a command
// string that starts with "!r" and a schedule; mpc finds both from the
// seed "get", records the string in the schedule file, which replays it,
// and covers every path of the fixed twin.
func TestMPCStringEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a kernel and the solver")
	}
	dir := kernelsDir(t)
	code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy", "mpc", "-run", "FuzzApply", "./mpc-string-command/buggy")
	cmd := regexp.MustCompile(`Run\("(!r[^"]*)"\): the monitor saw an update half done`).FindStringSubmatch(stdout)
	if code != driver.ExitFail || !strings.Contains(stdout, "(strategy mpc") || cmd == nil {
		t.Fatalf("buggy: exit %d, want 1 with a command \"!r...\" found by mpc\n%s\n%s", code, stdout, stderr)
	}
	r := replayLine.FindStringSubmatch(stdout)
	if r == nil {
		t.Fatalf("no replay line in the report:\n%s", stdout)
	}
	s, err := wire.ReadSchedule(r[1])
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.Quote(cmd[1]); len(s.Input) != 1 || s.Input[0] != "string("+want+")" {
		t.Errorf("the schedule file's input is %q, want [string(%s)]", s.Input, want)
	}
	if code, out, stderr := cli(t, "replay", "-C", dir, r[1]); code != driver.ExitFail || !strings.Contains(out, cmd[0]) {
		t.Errorf("replay: exit %d, want the finding with %q\n%s\n%s", code, cmd[1], out, stderr)
	}
	code, stdout, stderr = cli(t, "test", "-C", dir, "-strategy", "mpc", "-v", "-run", "FuzzApply", "./mpc-string-command/fixed")
	if code != 0 || !strings.Contains(stdout, "every path covered (inputs and schedules)") {
		t.Errorf("fixed: exit %d, want 0 and every path covered\n%s\n%s", code, stdout, stderr)
	}
}

// TestMPCIdiomsEndToEnd: the kernels whose bug hides behind a switch
// on a string command (mpc-command-dispatch) and behind the version and
// opcode bytes of a []byte frame (mpc-frame-header): mpc finds the input
// and the schedule from seed corpora that never reach the bug, within a
// few dozen runs, and covers every path of their fixed twins, reporting
// nothing.
func TestMPCIdiomsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds kernels and the solver")
	}
	dir := kernelsDir(t)
	for _, tc := range []struct {
		test, kernel string
		found        *regexp.Regexp // in the buggy variant's report
	}{
		{"FuzzExec", "mpc-command-dispatch", regexp.MustCompile(`Run\("incr"\): an increment was lost`)},
		{"FuzzHandle", "mpc-frame-header", regexp.MustCompile(`(?s)data race after \d+ schedules \(strategy mpc.*close of c\.done`)},
	} {
		code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy", "mpc", "-v", "-run", tc.test, "./"+tc.kernel+"/buggy")
		m := mpcLine.FindStringSubmatch(stdout)
		if code != driver.ExitFail || !tc.found.MatchString(stdout) || m == nil {
			t.Errorf("%s buggy: exit %d, want 1 with the bug found by mpc\n%s\n%s", tc.kernel, code, stdout, stderr)
		} else if runs, _ := strconv.Atoi(m[1]); runs > 50 {
			t.Errorf("%s buggy: found after %d runs, want at most 50", tc.kernel, runs)
		}
		code, stdout, stderr = cli(t, "test", "-C", dir, "-strategy", "mpc", "-v", "-run", tc.test, "./"+tc.kernel+"/fixed")
		if code != 0 || !strings.Contains(stdout, "every path covered (inputs and schedules)") {
			t.Errorf("%s fixed: exit %d, want 0 and every path covered\n%s\n%s", tc.kernel, code, stdout, stderr)
		}
	}
}

// byWorkersLine says how many runs of an mpc search worker processes made.
var byWorkersLine = regexp.MustCompile(`; (\d+) runs made by worker processes`)

// mpcSearchLine is the -v line of an mpc search without its time.
var mpcSearchLine = regexp.MustCompile(`interleave: MPC: [^\n]*? in [0-9.]+[µm]?s`)

// hexAddr is an address in a report.
var hexAddr = regexp.MustCompile(`0x[0-9a-f]+`)

// TestMPCWorkersAgree: mpc's runs made by worker processes (-workers)
// give the search made by one process: the same runs, paths, queries and
// answers, the same finding after the same number of runs, the same
// schedule file (choices and input). A worker process serves one run
// after another: each starts from the seed (mpc-frame-header's []byte
// bytes past those the search made inputs are the seed's).
func TestMPCWorkersAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds kernels and the solver")
	}
	dir := kernelsDir(t)
	type outcome struct {
		code        int
		search, hit string
		byWorkers   string
		files       map[string]*wire.Schedule
	}
	run := func(test, pkg, workers string) outcome {
		t.Helper()
		sd := t.TempDir()
		code, stdout, stderr := cli(t, "test", "-C", dir, "-strategy", "mpc", "-v", "-workers", workers, "-schedule-dir", sd, "-run", test, pkg)
		if code != 0 && code != 1 {
			t.Fatalf("%s -workers %s: exit %d\n%s\n%s", pkg, workers, code, stdout, stderr)
		}
		o := outcome{code: code, files: scheduleFiles(t, sd)}
		for _, f := range o.files {
			// A data race's report names the location by its address,
			// which is the process's.
			f.View = hexAddr.ReplaceAll(f.View, []byte("0x?"))
		}
		if m := mpcSearchLine.FindString(stdout); m != "" {
			o.search = m[:strings.LastIndex(m, " in ")]
		}
		if m := byWorkersLine.FindStringSubmatch(stdout); m != nil {
			o.byWorkers = m[1]
		}
		if m := reportLine.FindString(stdout); m != "" {
			o.hit = strings.TrimSpace(m)
		}
		if o.search == "" && o.code == 0 {
			t.Fatalf("%s -workers %s: no MPC line under -v\n%s", pkg, workers, stdout)
		}
		return o
	}
	for _, tc := range []struct{ test, pkg string }{
		{"FuzzWithdraw", "./input-overdraft/buggy"},
		{"FuzzWithdraw", "./input-overdraft/fixed"},
		{"FuzzApply", "./mpc-string-command/buggy"},
		{"FuzzRun", "./mpc-fallback-write/buggy"},
		{"FuzzHandle", "./mpc-frame-header/buggy"}, // byte inputs of a []byte
	} {
		one := run(tc.test, tc.pkg, "1")
		for _, w := range []string{"2", "4"} {
			o := run(tc.test, tc.pkg, w)
			if o.code != one.code || o.search != one.search || o.hit != one.hit || !reflect.DeepEqual(o.files, one.files) {
				t.Errorf("%s: -workers %s: exit %d, %q, %q, files %v; -workers 1: exit %d, %q, %q, files %v",
					tc.pkg, w, o.code, o.search, o.hit, keys(o.files), one.code, one.search, one.hit, keys(one.files))
			}
			if o.byWorkers == "" {
				t.Errorf("%s: -workers %s: no run was made by a worker", tc.pkg, w)
			}
		}
		if one.byWorkers != "" {
			t.Errorf("%s: -workers 1: %s runs made by workers", tc.pkg, one.byWorkers)
		}
		t.Logf("%s: exit %d, %s %s", tc.pkg, one.code, one.search, one.hit)
	}
}
