package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

// goPrograms are the Go distribution's "// run" test programs about
// goroutines and channels, relative to $GOROOT/test. Each prints a known
// output or panics on a wrong result.
var goPrograms = []string{
	"chan/doubleselect.go", "chan/fifo.go", "chan/nonblock.go",
	"chan/powser1.go", "chan/powser2.go", "chan/select.go",
	"chan/select4.go", "chan/select6.go", "chan/select7.go",
	"chan/select8.go", "chan/sendstmt.go", "chan/sieve1.go", "chan/sieve2.go",
	"chan/zerosize.go", "235.go", "atomicload.go", "goprint.go", "init1.go",
}

// racyByDesign are programs with a data race on purpose; they run with the
// race detector off (go run -race reports the same races).
var racyByDesign = map[string]string{
	"chan/powser1.go": "the request counter seqno is incremented by several goroutines without synchronization",
	"chan/powser2.go": "the request counter seqno is incremented by several goroutines without synchronization",
	"atomicload.go":   "it races on a byte on purpose, to check that a byte load is atomic",
}

// excludedGoPrograms lists the goroutine and channel programs not run, and
// why. They are documented in docs/go-programs.md.
var excludedGoPrograms = map[string]string{
	"chan/perm.go":       "an errorcheck test: it must not compile",
	"chan/select5.go":    "a runoutput test: it generates the program to run",
	"chan/goroutines.go": "it reads its goroutine count from the command line",
	"chan/select3.go":    "it decides that an operation does not block when it finishes within a 10-second sleep; under the explorer a runnable goroutine may be delayed past any timer (Go promises nothing else), so the explorer correctly breaks that timing assumption",
	"chanlinear.go":      "it measures wall-clock time to check that select is linear in the number of goroutines; instrumented, it measures the explorer",
	"closure.go":         "it counts heap allocations of closures, which instrumentation changes",
	"chan/select2.go":    "it checks that 100,000 selects leave under 110 kB of heap; the explorer records every choice of the run (8 bytes each) to be able to replay it",
}

// Each program runs once per configuration, in a process of its own: the
// programs keep state in package variables, so main cannot run twice in
// one process.
var goProgramConfigs = []wire.Config{
	{Strategy: "random", Seed: 1},
	{Strategy: "random", Seed: 2},
	{Strategy: "pct", Seed: 1},
	{Strategy: "pct", Seed: 2, PCTDepth: 2},
}

// TestGoDistributionPrograms runs each program under the explorer, as the
// body of a generated test that calls main, with several strategies and
// seeds: its output must be the uninstrumented program's, and nothing may
// be reported. Goroutine leaks are not checked: when main returns, a
// program's remaining goroutines end with it.
func TestGoDistributionPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the Go distribution's goroutine and channel programs under the explorer (a minute)")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	testDir := filepath.Join(strings.TrimSpace(string(goroot)), "test")
	// Every channel program of this Go distribution is run or excluded
	// with a reason, so a new one does not go unnoticed.
	chanProgs, _ := filepath.Glob(filepath.Join(testDir, "chan", "*.go"))
	for _, p := range chanProgs {
		name := "chan/" + filepath.Base(p)
		if _, excluded := excludedGoPrograms[name]; !excluded && !slices.Contains(goPrograms, name) {
			t.Errorf("%s is neither run nor excluded with a reason", name)
		}
	}
	for _, prog := range goPrograms {
		t.Run(strings.TrimSuffix(filepath.Base(prog), ".go"), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(testDir, prog))
			if err != nil {
				t.Skipf("not in this Go distribution: %v", err)
			}
			dir := t.TempDir()
			write(t, filepath.Join(dir, "go.mod"), "module goprogram\n\ngo 1.26\n")
			write(t, filepath.Join(dir, "prog.go"), string(src))
			write(t, filepath.Join(dir, "prog_test.go"), "package main\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestProgram(t *testing.T) {\n\tos.Args = os.Args[:1] // as when run with no arguments\n\tmain()\n}\n")
			native, err := exec.Command("go", "run", filepath.Join(dir, "prog.go")).CombinedOutput()
			if err != nil {
				t.Fatalf("the program fails natively: %v\n%s", err, native)
			}
			for _, cfg := range goProgramConfigs {
				cfg.Schedules = 1
				cfg.MaxSteps = 10000000
				cfg.NoLeaks = true
				_, cfg.NoRace = racyByDesign[prog]
				var stdout, stderr bytes.Buffer
				res, err := driver.Test(context.Background(), driver.Options{
					Dir:        dir,
					Patterns:   []string{"."},
					GoFlags:    []string{"-run=^TestProgram$", "-count=1", "-v"},
					Config:     cfg,
					Instrument: instrumentFile,
					Stdout:     &stdout,
					Stderr:     &stderr,
				})
				if err != nil {
					t.Fatalf("%s seed %d: %v\n%s", cfg.Strategy, cfg.Seed, err, stderr.String())
				}
				if len(res.Results) != 1 || res.Results[0].Outcome != wire.OutcomePass || res.Results[0].Schedules != 1 {
					t.Errorf("%s seed %d: %+v\n%s%s", cfg.Strategy, cfg.Seed, res.Results, stdout.String(), stderr.String())
					continue
				}
				if got := programOutput(stdout.String()); got != string(native) {
					t.Errorf("%s seed %d: output differs from the uninstrumented program's\ngot:\n%s\nwant:\n%s", cfg.Strategy, cfg.Seed, got, native)
				}
			}
		})
	}
}

var goTestFraming = regexp.MustCompile(`^(=== RUN|--- PASS|--- FAIL|PASS$|FAIL$|ok  |    prog_test.go:)`)

// programOutput removes go test's own lines from the output of a -v run.
func programOutput(out string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(out, "\n") {
		if l == "" || goTestFraming.MatchString(strings.TrimSuffix(l, "\n")) {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
