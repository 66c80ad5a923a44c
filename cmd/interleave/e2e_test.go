package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

// examplesDir is the examples module of the repository.
func examplesDir(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Skipf("no examples module: %v", err)
	}
	return dir
}

// kernelsDir is the bug-kernel module of the repository.
func kernelsDir(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "kernels"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

var reportLine = regexp.MustCompile(`(?m)^\s*interleave: .+ after \d+ schedules? \(strategy \w+, seed \d+\)$`)

var replayLine = regexp.MustCompile(`(?m)^\s*replay: interleave replay (\S+)\s*$`)

// TestExamplesAreFoundAndReplayed runs each example under interleave,
// expects the finding its bug causes, and replays the schedule file of the
// report, which must reproduce it.
func TestExamplesAreFoundAndReplayed(t *testing.T) {
	if testing.Short() {
		t.Skip("explores the examples")
	}
	dir := examplesDir(t)
	for _, tc := range []struct {
		pkg, kind string // kind: a word the finding's kind must contain ("" for any)
	}{
		{"deadlock", "deadlock"},
		{"leak", "leak"},
		{"race", "race"},
		{"atomicity", ""},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			before := treeDigest(t, dir)
			var stdout, stderr bytes.Buffer
			out, err := driver.Test(context.Background(), driver.Options{
				Dir:        dir,
				Patterns:   []string{"./" + tc.pkg},
				Config:     wire.Config{Schedules: 2000, Seed: 1},
				Instrument: instrumentFile,
				Stdout:     &stdout,
				Stderr:     &stderr,
			})
			if err != nil {
				t.Fatalf("interleave test ./%s: %v\n%s", tc.pkg, err, stderr.String())
			}
			if out.ExitCode() != driver.ExitFail {
				t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", out.ExitCode(), stdout.String(), stderr.String())
			}
			var finding *wire.Result
			for i, r := range out.Results {
				if r.Outcome == wire.OutcomeFinding {
					finding = &out.Results[i]
				}
			}
			if finding == nil || !strings.Contains(strings.ToLower(finding.Kind), tc.kind) {
				t.Fatalf("results %+v: want a finding of kind %q\nstdout:\n%s", out.Results, tc.kind, stdout.String())
			}
			if !reportLine.MatchString(stdout.String()) {
				t.Errorf("no report in go test's output:\n%s", stdout.String())
			}
			m := replayLine.FindStringSubmatch(stdout.String())
			if m == nil {
				t.Fatalf("no replay line in the report:\n%s", stdout.String())
			}
			if m[1] != finding.Schedule && finding.Schedule != "" {
				t.Errorf("report names schedule %s, result %s", m[1], finding.Schedule)
			}
			if treeDigest(t, dir) != before {
				t.Error("interleave test wrote into the examples module")
			}
			code, rstdout, rstderr := cli(t, "replay", "-C", dir, m[1])
			if code != driver.ExitFail {
				t.Errorf("replay: exit %d, want 1 (the finding reproduces)\nstdout:\n%s\nstderr:\n%s", code, rstdout, rstderr)
			}
		})
	}
}

// treeDigest is a cheap digest of a tree: names, sizes and times.
func treeDigest(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			b.WriteString(p + " " + info.ModTime().String() + " " + info.Mode().String() + "\n")
		}
		return nil
	})
	return b.String()
}

// TestReplayOfChangedCodeSaysSo records a deadlock, changes the code so that
// it no longer follows the schedule, and expects replay to exit 1 with the
// runtime's plain message instead of a finding.
func TestReplayOfChangedCodeSaysSo(t *testing.T) {
	if testing.Short() {
		t.Skip("explores an example")
	}
	dir := t.TempDir()
	src := examplesDir(t)
	copyTree(t, filepath.Join(src, "go.mod"), filepath.Join(dir, "go.mod"))
	copyTree(t, filepath.Join(src, "deadlock"), filepath.Join(dir, "deadlock"))
	code, stdout, _ := cli(t, "test", "-C", dir, "./deadlock")
	m := replayLine.FindStringSubmatch(stdout)
	if code != 1 || m == nil {
		t.Fatalf("interleave test: exit %d, no schedule:\n%s", code, stdout)
	}
	bank := filepath.Join(dir, "deadlock", "bank.go")
	b, err := os.ReadFile(bank)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(b), "func Transfer(from, to *Account, amount int) {\n",
		"func Transfer(from, to *Account, amount int) {\n\tvar extra sync.Mutex\n\textra.Lock()\n\textra.Unlock()\n", 1)
	if err := os.WriteFile(bank, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "replay", "-C", dir, m[1])
	if code != 1 || !strings.Contains(stdout, "replay does not match the code") {
		t.Errorf("replay of changed code: exit %d, want 1 and the runtime's message\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "no longer following the schedule") {
		t.Errorf("summary does not say the replay diverged:\n%s", stderr)
	}
}

// TestMultiPackageRunSchedulesNameTheirPackage runs two example packages in
// one go test with -json: the runtime cannot know its package then, so the
// driver completes the schedule files, and replay must find the package.
func TestMultiPackageRunSchedulesNameTheirPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("explores the examples")
	}
	dir := examplesDir(t)
	code, stdout, stderr := cli(t, "test", "-C", dir, "-json", "./deadlock", "./race")
	if code != driver.ExitFail {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	paths := map[string]bool{}
	for _, m := range regexp.MustCompile(`replay: interleave replay ([^\s"\\]+)`).FindAllStringSubmatch(stdout, -1) {
		paths[m[1]] = true
	}
	if len(paths) != 2 {
		t.Fatalf("want two schedule files in the output, got %v", paths)
	}
	for p := range paths {
		s, err := wire.ReadSchedule(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(s.Package, "example.com/examples/") {
			t.Errorf("%s: package %q", p, s.Package)
		}
		if code, out, errs := cli(t, "replay", "-C", dir, p); code != driver.ExitFail {
			t.Errorf("replay %s: exit %d, want 1\n%s\n%s", p, code, out, errs)
		}
	}
}
