package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"interleave.dev/rt/wire"
)

// kernelVariant returns a file of a variant of the withdraw-helper-split
// kernel (the bug; a fix that moved the check and the debit into helpers
// but kept them apart, still buggy; the real fix) as package bank.
func kernelVariant(t *testing.T, variant, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "kernels", "withdraw-helper-split", variant, file))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(b), "package "+variant, "package bank", 1)
}

// TestRegressMode finds a bug, keeps its signature, and checks it against
// a partial fix that moved the code (re-exposed, exit 1, with the
// similarity that did it and a replayable schedule) and against the real
// fix (not re-exposed, exit 0), by file and with -all.
func TestRegressMode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":            "module example.com/regressmode\n\ngo 1.22\n",
		"bank/bank.go":      kernelVariant(t, "buggy", "account.go"),
		"bank/bank_test.go": kernelVariant(t, "buggy", "account_test.go"),
	})
	bank := filepath.Join(dir, "bank", "bank.go")
	write := func(src string) {
		if err := os.WriteFile(bank, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := cli(t, "test", "-C", dir, "./bank")
	m := replayLine.FindStringSubmatch(stdout)
	if code != 1 || m == nil {
		t.Fatalf("interleave test on the bug: exit %d, no schedule:\n%s\n%s", code, stdout, stderr)
	}
	file := m[1]
	s, err := wire.ReadSchedule(file)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != wire.ScheduleVersion || s.Signature == nil || len(s.Signature.Events) < 2 {
		t.Fatalf("no signature in %s: %+v", file, s)
	}
	for i, e := range s.Signature.Events {
		if e.Function != "(*Account).Withdraw" || len(e.Stack) < 2 || e.Line <= e.FuncLine || !strings.HasSuffix(e.File, "bank.go") || e.Goroutine < 1 || e.Object != 1 {
			t.Errorf("signature event %d: %+v", i+1, e)
		}
	}

	write(kernelVariant(t, "partial", "account.go"))
	code, stdout, stderr = cli(t, "regress", "-C", dir, "-schedules", "50", file)
	if code != 1 || !strings.Contains(stdout, "re-exposed: the bug (test failure) comes back at w=any, d=1 (the schedule matched 3 of the signature's 3 events)") {
		t.Fatalf("regress on the partial fix: exit %d, want 1 and re-exposed at w=any, d=1 (the helpers):\n%s\n%s", code, stdout, stderr)
	}
	again := regexpFind(`(?m)^\s*replay:\s+interleave replay (\S+)$`, stdout)
	if again == "" {
		t.Fatalf("no replay command in the verdict:\n%s", stdout)
	}
	if code, out, _ := cli(t, "replay", "-C", dir, again); code != 1 || !strings.Contains(out, "test failure") {
		t.Errorf("the re-exposing schedule does not replay: exit %d\n%s", code, out)
	}

	write(kernelVariant(t, "fixed", "account.go"))
	code, stdout, _ = cli(t, "replay", "-C", dir, file)
	if code != 1 || !strings.Contains(stdout, "interleave regress "+file) {
		t.Errorf("replay on changed code: exit %d, want 1 and a suggestion to regress:\n%s", code, stdout)
	}
	code, stdout, stderr = cli(t, "regress", "-C", dir, "-schedules", "50", file)
	if code != 0 || !strings.Contains(stdout, "not re-exposed within the budget: 50 schedules, w up to") {
		t.Errorf("regress on the fix: exit %d, want 0 and not re-exposed:\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "regress", "-all", "-C", dir, "-schedules", "20", "./...")
	if code != 0 || !strings.Contains(stdout, "TestWithdraw: not re-exposed") {
		t.Errorf("regress -all on the fix: exit %d:\n%s\n%s", code, stdout, stderr)
	}
	write(kernelVariant(t, "partial", "account.go"))
	code, stdout, stderr = cli(t, "regress", "-all", "-C", dir, "-schedules", "50")
	if code != 1 || !strings.Contains(stdout, "TestWithdraw: re-exposed") {
		t.Errorf("regress -all on the partial fix: exit %d:\n%s\n%s", code, stdout, stderr)
	}
}

// TestRegressRefusesFilesWithoutSignature: a version 1 file loads (replay
// reads it) but has nothing to regress with, and a corrupt signature is
// named as such.
func TestRegressRefusesFilesWithoutSignature(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	os.WriteFile(old, []byte(`{"format":"interleave-schedule","version":1,"test":"TestX","strategy":"random","seed":1,"iteration":1,"race":true,"leaks":true,"max_steps":1,"steps":1,"event_hash":"1","choices":[]}`), 0o644)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format":"interleave-schedule","version":2,"test":"TestX","strategy":"random","seed":1,"iteration":1,"race":true,"leaks":true,"max_steps":1,"steps":1,"event_hash":"1","choices":[],"signature":{"events":[{"op":"read","goroutine":9}]}}`), 0o644)
	for file, want := range map[string]string{
		old: "has no bug signature (format version 1)",
		bad: "corrupt schedule: signature event 1: bad goroutine",
	} {
		code, _, stderr := cli(t, "regress", file)
		if code != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, want 2 and %q:\n%s", filepath.Base(file), code, want, stderr)
		}
	}
	if code, _, stderr := cli(t, "regress"); code != 2 || !strings.Contains(stderr, "want a schedule file") {
		t.Errorf("no file: exit %d\n%s", code, stderr)
	}
}

// regexpFind returns the first submatch of pattern in s, or "".
func regexpFind(pattern, s string) string {
	if m := regexp.MustCompile(pattern).FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}
