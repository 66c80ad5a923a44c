package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

// realModule is a module from the Go module proxy whose own tests run
// under interleave, with the findings expected in each timer mode; every
// expected finding is explained in docs/real-modules.md.
type realModule struct {
	path, version string
	packages      []string
	schedules     int
	// expected maps "idle", "stall" (the default) and "eager" to the tests
	// that may report, with the kind they report ("a|b": either).
	expected map[string]map[string]string
	// untimed are the tests whose eager-timer findings are not caused by
	// a timer firing early, so that their reports need not say it did.
	untimed map[string]bool
}

// leakyConcTests leave a pool worker blocked: their "before wait"
// subtests call Go and never Wait.
var leakyConcTests = map[string]string{
	"TestPool": "goroutine leak", "TestErrorPool": "goroutine leak", "TestContextPool": "goroutine leak",
	"TestResultGroup": "goroutine leak", "TestResultErrorGroup": "goroutine leak", "TestResultContextPool": "goroutine leak",
}

var realModules = []realModule{{
	path: "golang.org/x/sync", version: "v0.24.0",
	packages:  []string{"errgroup", "semaphore", "singleflight"},
	schedules: 200,
	expected: map[string]map[string]string{
		"idle":  {},
		"stall": {},
		// Tests that assume a timer cannot fire while work is runnable.
		"eager": {"TestWeightedAcquire": "test failure", "TestPanicDo": "test failure", "TestGoexitDo": "test failure"},
	},
}, {
	path: "golang.org/x/time", version: "v0.16.0",
	packages:  []string{"rate"},
	schedules: 200,
	expected: map[string]map[string]string{
		"idle":  {},
		"stall": {},
		"eager": {"TestWaitTimeout": "test failure"},
	},
}, {
	path: "github.com/sourcegraph/conc", version: "v0.3.0",
	packages:  []string{".", "internal/multierror", "iter", "panics", "pool", "stream"},
	schedules: 30,
	expected: map[string]map[string]string{
		"idle":  leakyConcTests,
		"stall": leakyConcTests,
		"eager": leakyConcTests,
	},
}, {
	// A connection pool: it synchronizes through golang.org/x/sync's
	// semaphore, a dependency, which is instrumented by default.
	path: "github.com/jackc/puddle/v2", version: "v2.2.3",
	packages:  []string{".", "internal/genstack"},
	schedules: 20,
	expected: map[string]map[string]string{
		"idle":  puddleUntimed,
		"stall": puddleUntimed,
		"eager": merge(puddleUntimed, map[string]string{
			"TestPoolAcquireCallsConstructorWithAcquireContextValuesButNotDeadline": "test failure",
			"TestPoolAcquireCalledConstructorIsNotCanceledByAcquireCancellation":    "test failure",
			"TestPoolAcquireCreatesResourceRespectingContext":                       "test failure",
			"TestPoolTryAcquire": "test failure",
			"TestPoolTryAcquireDestroysResourceConstructedAfterClose":           "test failure",
			"TestPoolTryAcquireDestroysResourceConstructedBeforeReset":          "test failure",
			"TestPoolCreateResourceReturnsErrorWhenClosedWhileCreatingResource": "test failure",
		}),
	},
	untimed: keys(puddleUntimed),
}, {
	// A rate limiter whose tests drive a mock clock, a dependency
	// (github.com/benbjohnson/clock), instrumented by default.
	path: "go.uber.org/ratelimit", version: "v0.3.1",
	packages:  []string{"."},
	schedules: 20,
	expected: map[string]map[string]string{
		"idle":  ratelimitFindings,
		"stall": ratelimitFindings,
		"eager": ratelimitFindings,
	},
	untimed: keys(ratelimitFindings),
}}

// puddleUntimed are the findings in puddle's tests that do not depend on
// when timers fire (docs/real-modules.md).
var puddleUntimed = map[string]string{
	"TestPoolStatSuccessfulAcquireCounters": "data race",
	"TestResourceLastUsageTimeTracking":     "test failure",
	"TestReleaseAfterAcquire":               "livelock",
	"TestStress_AcquireAllIdle_TryAcquire":  "livelock",
	"TestStress_AcquireAllIdle_Acquire":     "livelock",
}

// ratelimitFindings are the races of ratelimit's tests with the mock
// clock they drive (docs/real-modules.md).
var ratelimitFindings = map[string]string{
	"TestRateLimiter": "test failure|goroutine leak", "TestPer": "test failure|goroutine leak",
	"TestDelayedRateLimiter": "deadlock|test failure", "TestInitial": "deadlock|test failure",
	"TestMaxSlack": "deadlock|test failure", "TestSlack": "deadlock|test failure",
}

func merge(a, b map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}

func keys(m map[string]string) map[string]bool {
	s := map[string]bool{}
	for k := range m {
		s[k] = true
	}
	return s
}

// TestRealModules copies packages of real modules from the module cache
// into temporary modules and runs their own tests under interleave
// (docs/real-modules.md), once per timer policy: idle, stall (the
// default) and eager. Only the expected tests may report, with the
// expected kind; a timing report must say that its schedule fired a timer
// early, and how long a stall that needs.
func TestRealModules(t *testing.T) {
	if testing.Short() {
		t.Skip("explores the tests of real modules (a minute)")
	}
	for _, m := range realModules {
		t.Run(m.path, func(t *testing.T) {
			out, err := exec.Command("go", "mod", "download", "-json", m.path+"@"+m.version).Output()
			if err != nil {
				t.Skipf("%s@%s is neither in the module cache nor downloadable: %v", m.path, m.version, err)
			}
			var mod struct{ Version, Dir string }
			if err := json.Unmarshal(out, &mod); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, f := range []string{"go.mod", "go.sum"} {
				if _, err := os.Stat(filepath.Join(mod.Dir, f)); err == nil {
					copyTree(t, filepath.Join(mod.Dir, f), filepath.Join(dir, f))
				}
			}
			var patterns []string
			for _, pkg := range m.packages {
				if pkg == "." {
					copyGoFiles(t, mod.Dir, dir)
				} else {
					copyTree(t, filepath.Join(mod.Dir, pkg), filepath.Join(dir, pkg))
				}
				patterns = append(patterns, "./"+pkg)
			}
			if b, err := exec.Command("go", "-C", dir, "mod", "download").CombinedOutput(); err != nil {
				t.Skipf("the dependencies of %s cannot be had: %v\n%s", m.path, err, b)
			}
			cache := t.TempDir()
			for _, timers := range []string{"idle", "stall", "eager"} {
				var stdout, stderr bytes.Buffer
				start := time.Now()
				res, err := driver.Test(context.Background(), driver.Options{
					Dir:        dir,
					Patterns:   patterns,
					GoFlags:    []string{"-v", "-timeout=20m"},
					Config:     wire.Config{Schedules: m.schedules, Seed: 1, Budget: wire.Duration(time.Minute), Timers: timers},
					Instrument: instrumentFile,
					CacheDir:   cache,
					Stdout:     &stdout,
					Stderr:     &stderr,
				})
				if err != nil {
					t.Fatalf("interleave test: %v\n%s", err, stderr.String())
				}
				if res.BuildFailed {
					t.Fatalf("a package did not build instrumented:\n%s", stderr.String())
				}
				t.Logf("%s %s, -timers=%s, %d schedules per test, %s, exit %d", m.path, mod.Version, timers, m.schedules, time.Since(start).Round(time.Second), res.ExitCode())
				early := 0
				for _, r := range res.Results {
					msg, _, _ := strings.Cut(r.Message, "\n")
					t.Logf("| %s | %s | %s %s | %d | %.1fs | %s |", r.Package, r.Test, r.Outcome, r.Kind, r.Schedules, r.Seconds, msg)
					if r.Outcome == wire.OutcomePass || r.Outcome == wire.OutcomeSkip {
						continue
					}
					want, ok := m.expected[timers][r.Test]
					if !ok || !strings.Contains("|"+want+"|", "|"+r.Kind+"|") {
						t.Errorf("-timers=%s: %s: unexpected %s %s: %s", timers, r.Test, r.Outcome, r.Kind, r.Message)
					}
					if r.Kind != "goroutine leak" && !m.untimed[r.Test] {
						early++
					}
				}
				if timers != "idle" {
					notes := strings.Count(stdout.String(), "note: this schedule fires timers while other goroutines could still run")
					if notes < early {
						t.Errorf("%d timing findings but %d reports explain an early timer:\n%s", early, notes, stdout.String())
					}
				}
			}
		})
	}
}

// copyGoFiles copies the files (not the directories) of src to dst.
func copyGoFiles(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			copyTree(t, filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()))
		}
	}
}

// copyTree copies the file or directory src to dst, with writable modes
// (the module cache is read-only).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
