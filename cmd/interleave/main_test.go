package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/strategies"
)

func TestMain(m *testing.M) {
	// One cache for the whole test process: the runtime module is written
	// and compiled once, not once per test (its build depends on its
	// directory).
	cache, err := os.MkdirTemp("", "interleave-cmd-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv(driver.CacheEnv, cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}

// cli runs the command in-process with a private cache.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	if testing.Verbose() {
		t.Logf("interleave %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	return code, out.String(), errb.String()
}

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestUsageErrorsExitTwo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"test", "-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"test", "./...", "-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"test", "-strategy=bfs"}, `-strategy "bfs"`},
		{[]string{"test", "-timers=lazy"}, `-timers "lazy": want stall, eager or idle`},
		{[]string{"bench", "-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{[]string{"bench", "-diff", "-programs=x"}, `invalid value "x" for flag -programs`},
		{[]string{"test", "-schedules=-1"}, "must not be negative"},
		{[]string{"test", "-stall=-1s"}, "must not be negative"},
		{[]string{"test", "-goroutines=-1"}, "must not be negative"},
		{[]string{"test", "-choices=-1"}, "must not be negative"},
		{[]string{"test", "-preemptions=-1"}, "must not be negative"},
		{[]string{"test", "-reduce", "-race=false"}, "-reduce needs -race"},
		{[]string{"test", "-reduce", "-strategy=active"}, "-reduce does not apply to -strategy active"},
		{[]string{"test", "-strategy=hapset", "-hapset-k=-1"}, "must not be negative"},
		{[]string{"test", "-modfile=x.mod"}, "interleave sets -modfile itself"},
		{[]string{"test", "-instrument=main,golang.org/x/sync"}, "want all, main, or comma-separated package patterns"},
		{[]string{"replay"}, "want exactly one schedule file"},
		{[]string{"frobnicate"}, "unknown command"},
		{nil, "Usage:"},
	} {
		code, _, stderr := cli(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("interleave %v: exit %d, stderr:\n%s\nwant exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, _, stderr := cli(t, "test", "-nosuchflag"); !strings.Contains(stderr, "usage: interleave test") {
		t.Errorf("unknown flag does not print the usage:\n%s", stderr)
	}
}

func TestHelpAndVersion(t *testing.T) {
	if code, stdout, _ := cli(t, "help"); code != 0 || !strings.Contains(stdout, "interleave replay") {
		t.Errorf("help: exit %d\n%s", code, stdout)
	}
	if code, stdout, _ := cli(t, "help", "test"); code != 0 || !strings.Contains(stdout, "-strategy") || !strings.Contains(stdout, "every module of the build list but the") ||
		!strings.Contains(stdout, "dpor") || !strings.Contains(stdout, "-preemptions k") {
		t.Errorf("help test: exit %d\n%s", code, stdout)
	} else if n := strings.Count(stdout, "\n"); n >= 130 {
		t.Errorf("help test is %d lines, want fewer than 130", n)
	}
	// Every strategy -strategy takes has a line in help test and a
	// paragraph in help strategies.
	_, strategiesOut, _ := cli(t, "help", "strategies")
	_, testOut, _ := cli(t, "help", "test")
	for _, s := range strategies.All {
		if s.Internal {
			continue
		}
		if !strings.Contains(testOut, "\t"+s.Name+" ") || !strings.Contains(strategiesOut, "\n"+s.Name+"\n\t"+s.Name+" ") {
			t.Errorf("strategy %s lacks its line in help test or its paragraph in help strategies", s.Name)
		}
	}
	if code, stdout, _ := cli(t, "version"); code != 0 || !strings.HasPrefix(stdout, "interleave ") || !strings.Contains(stdout, "runtime ") {
		t.Errorf("version: exit %d\n%s", code, stdout)
	}
}

// TestInstrumentFlag checks -instrument and the retired -instrument-deps,
// which still runs, with a note that it is the default.
func TestInstrumentFlag(t *testing.T) {
	var c commonFlags
	var stderr bytes.Buffer
	fs := newFlagSet("test", testUsage, &stderr)
	c.define(fs)
	if _, _, err := parseInterspersed(fs, []string{"-instrument=main", "-instrument-deps", "-dep-warnings", "./..."}); err != nil {
		t.Fatal(err)
	}
	opts := c.options(&bytes.Buffer{}, &stderr)
	if opts.Scope.String() != "main" || !opts.DepWarnings {
		t.Errorf("options %+v", opts)
	}
	if !strings.Contains(stderr.String(), "-instrument-deps is retired") {
		t.Errorf("no note about -instrument-deps:\n%s", stderr.String())
	}
}

func TestFlagsInterspersedAndPassedThrough(t *testing.T) {
	var c commonFlags
	fs := newFlagSet("test", testUsage, &bytes.Buffer{})
	strategy := fs.String("strategy", "random", "")
	race := fs.Bool("race", true, "")
	c.define(fs)
	pos, testArgs, err := parseInterspersed(fs, []string{
		"-v", "./a/...", "-run", "TestX", "./b", "-race=false", "-count=3",
		"-tags", "x,y", "-strategy=pct", "-gcflags=-N -l", "-json", "-test.short", "-args", "-custom", "1",
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"./a/...", "./b"}; !reflect.DeepEqual(pos, want) {
		t.Errorf("packages = %q, want %q", pos, want)
	}
	if want := []string{"-custom", "1"}; !reflect.DeepEqual(testArgs, want) {
		t.Errorf("test args = %q, want %q", testArgs, want)
	}
	if want := []string{"-v=true", "-run=TestX", "-count=3", "-gcflags=-N -l", "-json=true", "-test.short=true"}; !reflect.DeepEqual(c.goFlags, want) {
		t.Errorf("go flags = %q, want %q", c.goFlags, want)
	}
	if *strategy != "pct" || *race || c.tags != "x,y" {
		t.Errorf("strategy %q race %v tags %q", *strategy, *race, c.tags)
	}
}

func TestReplayRejectsBadScheduleFiles(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.json")
	os.WriteFile(corrupt, []byte("{\"format\": \"interleave-sched"), 0o644)
	foreign := filepath.Join(dir, "foreign.json")
	os.WriteFile(foreign, []byte(`{"format":"something-else","version":1,"test":"TestX","iteration":1}`), 0o644)
	future := filepath.Join(dir, "future.json")
	os.WriteFile(future, []byte(`{"format":"interleave-schedule","version":99,"test":"TestX","iteration":1}`), 0o644)
	for file, want := range map[string]string{
		corrupt:                         "not an interleave schedule file",
		foreign:                         "not an interleave schedule file",
		future:                          "version 99 is not supported",
		filepath.Join(dir, "none.json"): "no such file",
	} {
		code, _, stderr := cli(t, "replay", file)
		if code != 2 || !strings.Contains(stderr, want) || !strings.Contains(stderr, file) {
			t.Errorf("replay %s: exit %d, stderr:\n%s\nwant exit 2 naming the file and %q", filepath.Base(file), code, stderr, want)
		}
	}
}

const passingModule = `module example.com/m

go 1.22
`

func TestBuildErrorExitsTwoAtOriginalLine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":    passingModule,
		"m.go":      "package m\n\n// F is fine.\nfunc F() int { return 1 }\n",
		"broken.go": "package m\n\n// G does not compile.\nfunc G() string {\n\treturn 42\n}\n",
		"m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tif F() != 1 {\n\t\tt.Fatal(F())\n\t}\n}\n",
	})
	code, _, stderr := cli(t, "test", "-C", dir, ".")
	if code != 2 || !strings.Contains(stderr, "broken.go:5:") {
		t.Errorf("exit %d, want 2 and broken.go:5 in:\n%s", code, stderr)
	}
}

func TestPassAndFailExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{
		"go.mod":        passingModule,
		"m.go":          "package m\n\n// F returns 1.\nfunc F() int { return 1 }\n",
		"m_test.go":     "package m\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tif F() != 1 {\n\t\tt.Fatal(F())\n\t}\n}\n",
		"bad/b.go":      "package bad\n",
		"bad/b_test.go": "package bad\n\nimport \"testing\"\n\nfunc TestBad(t *testing.T) { t.Fatal(\"always\") }\n",
	})
	if code, stdout, stderr := cli(t, "test", "-C", dir, "."); code != 0 || !strings.Contains(stdout, "ok  \texample.com/m") {
		t.Errorf("passing package: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ := cli(t, "test", "-C", dir, "./...", "-run", "TestBad", "-json")
	if code != 1 || !strings.Contains(stdout, `"Action":"fail"`) {
		t.Errorf("failing package with -json: exit %d\n%s", code, stdout)
	}
}
