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

// realModulesEnv enables TestRealModuleXSync, which explores every test of
// three real packages and takes minutes.
const realModulesEnv = "INTERLEAVE_REAL_MODULES"

// TestRealModuleXSync copies golang.org/x/sync's errgroup, semaphore and
// singleflight packages from the module cache into a temporary module and
// runs their tests under interleave. It reports every test's outcome (the
// source of docs/real-modules.md) and fails when a package does not build
// instrumented or the run cannot start; findings are logged, not failures,
// since they need triage.
func TestRealModuleXSync(t *testing.T) {
	if os.Getenv(realModulesEnv) == "" {
		t.Skipf("set %s=1 to explore golang.org/x/sync (takes minutes)", realModulesEnv)
	}
	if !realInstrumenter {
		t.Skip("internal/instrument is not wired into the command yet")
	}
	version := os.Getenv("INTERLEAVE_XSYNC_VERSION")
	if version == "" {
		version = "latest"
	}
	out, err := exec.Command("go", "mod", "download", "-json", "golang.org/x/sync@"+version).Output()
	if err != nil {
		t.Skipf("golang.org/x/sync@%s is not available: %v", version, err)
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
	var stdout, stderr bytes.Buffer
	start := time.Now()
	res, err := driver.Test(context.Background(), driver.Options{
		Dir:        dir,
		Patterns:   []string{"./..."},
		GoFlags:    []string{"-v", "-timeout=20m"},
		Config:     wire.Config{Schedules: schedules, Seed: 1, Budget: wire.Duration(time.Minute)},
		Instrument: instrumentFile,
		CacheDir:   t.TempDir(),
		Stdout:     &stdout,
		Stderr:     &stderr,
	})
	if err != nil {
		t.Fatalf("interleave test: %v\n%s", err, stderr.String())
	}
	t.Logf("golang.org/x/sync %s, %d schedules per test, %s, exit %d", mod.Version, schedules, time.Since(start).Round(time.Second), res.ExitCode())
	os.WriteFile(filepath.Join(os.TempDir(), "interleave-xsync.out"), append(stdout.Bytes(), stderr.Bytes()...), 0o644)
	t.Logf("full output: %s", filepath.Join(os.TempDir(), "interleave-xsync.out"))
	for _, r := range res.Results {
		msg, _, _ := strings.Cut(r.Message, "\n")
		t.Logf("| %s | %s | %s %s | %d | %.1fs | %s |", strings.TrimPrefix(r.Package, "golang.org/x/sync/"), r.Test, r.Outcome, r.Kind, r.Schedules, r.Seconds, msg)
	}
	if res.BuildFailed {
		t.Errorf("a package did not build instrumented:\n%s", stderr.String())
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
