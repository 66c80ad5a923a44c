package main

import (
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
