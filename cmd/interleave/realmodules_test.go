package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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

// timingAssumptionTests are the x/sync tests that assume a timer cannot
// fire while other work is still runnable. With eager timers (the default)
// the explorer breaks that assumption, and the report must say so.
var timingAssumptionTests = map[string]string{
	"TestWeightedAcquire": "expects Acquire under a 10ms context timeout to succeed when the semaphore is free",
	"TestPanicDo":         "fails with \"Do hangs\" when its 1s watchdog fires before the goroutines finish",
	"TestGoexitDo":        "fails with \"Do hangs\" when its 1s watchdog fires before the goroutines finish",
}

// TestRealModuleXSync copies golang.org/x/sync's errgroup, semaphore and
// singleflight packages from the module cache into a temporary module and
// runs their tests under interleave (docs/real-modules.md). With
// -timers=idle every test must pass; with eager timers only the tests that
// assume a timer cannot beat runnable work may report, and their reports
// must say that the schedule fired a timer early.
func TestRealModuleXSync(t *testing.T) {
	if testing.Short() {
		t.Skip("explores golang.org/x/sync (half a minute)")
	}
	version := os.Getenv("INTERLEAVE_XSYNC_VERSION")
	if version == "" {
		version = "v0.24.0"
	}
	out, err := exec.Command("go", "mod", "download", "-json", "golang.org/x/sync@"+version).Output()
	if err != nil {
		t.Skipf("golang.org/x/sync@%s is neither in the module cache nor downloadable: %v", version, err)
	}
	var mod struct{ Version, Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	copyTree(t, filepath.Join(mod.Dir, "go.mod"), filepath.Join(dir, "go.mod"))
	for _, pkg := range []string{"errgroup", "semaphore", "singleflight"} {
		copyTree(t, filepath.Join(mod.Dir, pkg), filepath.Join(dir, pkg))
	}
	schedules := 200
	if s := os.Getenv("INTERLEAVE_XSYNC_SCHEDULES"); s != "" {
		fmt.Sscan(s, &schedules)
	}
	cache := t.TempDir()
	for _, timers := range []string{"idle", "eager"} {
		var stdout, stderr bytes.Buffer
		start := time.Now()
		res, err := driver.Test(context.Background(), driver.Options{
			Dir:        dir,
			Patterns:   []string{"./..."},
			GoFlags:    []string{"-v", "-timeout=20m"},
			Config:     wire.Config{Schedules: schedules, Seed: 1, Budget: wire.Duration(time.Minute), Timers: timers},
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
		t.Logf("golang.org/x/sync %s, -timers=%s, %d schedules per test, %s, exit %d", mod.Version, timers, schedules, time.Since(start).Round(time.Second), res.ExitCode())
		for _, r := range res.Results {
			msg, _, _ := strings.Cut(r.Message, "\n")
			t.Logf("| %s | %s | %s %s | %d | %.1fs | %s |", strings.TrimPrefix(r.Package, "golang.org/x/sync/"), r.Test, r.Outcome, r.Kind, r.Schedules, r.Seconds, msg)
			if r.Outcome == wire.OutcomePass || r.Outcome == wire.OutcomeSkip {
				continue
			}
			if _, known := timingAssumptionTests[r.Test]; timers == "idle" || !known {
				t.Errorf("-timers=%s: %s: %s %s: %s", timers, r.Test, r.Outcome, r.Kind, r.Message)
			}
		}
		if timers == "eager" {
			notes := strings.Count(stdout.String(), "note: this schedule fires timers while other goroutines could still run")
			if fails := strings.Count(stdout.String(), "--- FAIL: Test"); notes != fails {
				t.Errorf("%d failing tests but %d reports explain an early timer:\n%s", fails, notes, stdout.String())
			}
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
