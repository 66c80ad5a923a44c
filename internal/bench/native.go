package bench

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"interleave.dev/rt/wire"
)

// Native is the pseudo-strategy that measures plain "go test -race" as a
// baseline: the variant's tests, built without instrumentation, run up to
// Schedules times in one process under the real Go scheduler, stopping at
// the first failure. It finds what a user who reruns a flaky test would
// find: data races the race detector sees in the executions that happen,
// panics, failed assertions, and hangs (reported as a timeout, which counts
// as detecting a deadlock or livelock kernel; a livelock kernel's bounded
// spin loop giving up also counts). It cannot see leaked goroutines.
const Native = "native"

// KindHang is the finding kind of a native run that did not finish within
// its timeout.
const KindHang = "hang"

// NativeTimeout bounds a native run: a deadlocked test never ends by itself.
var NativeTimeout = 10 * time.Second

// buildNative compiles the uninstrumented test binaries of the variants
// with the race detector, as plain "go test -race -c" does.
func buildNative(ctx context.Context, dir string, pkgs []string, outDir string) error {
	args := []string{"test", "-c", "-race", "-p=1", "-o", outDir + string(filepath.Separator)}
	for _, p := range pkgs {
		args = append(args, "./"+filepath.ToSlash(p))
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go test -race -c %s in %s: %w\n%s", strings.Join(pkgs, " "), dir, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// runNative runs the native test binary bin up to cfg.Schedules times and
// classifies what happened.
func runNative(ctx context.Context, cfg Config, bin, pkgDir string) Run {
	timeout := NativeTimeout
	rctx, cancel := context.WithTimeout(ctx, timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(rctx, bin, "-test.run=^Test", "-test.v", "-test.failfast",
		fmt.Sprintf("-test.count=%d", cfg.Schedules), "-test.timeout="+timeout.String())
	cmd.Dir = pkgDir
	cmd.Env = append(os.Environ(), "GORACE=halt_on_error=0 atexit_sleep_ms=0")
	var out tailBuffer
	counter := &runCounter{}
	cmd.Stdout = multiWriter{counter, &out}
	cmd.Stderr = &out
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	secs := time.Since(start).Seconds()
	r := Run{Seconds: secs, Wall: secs, Schedules: counter.runs}
	text := out.String()
	switch {
	case err == nil:
		r.Outcome = wire.OutcomePass
		return r
	case rctx.Err() != nil:
		r.Outcome, r.Kind, r.Message = wire.OutcomeFinding, KindHang, "killed: the test binary ignored its own timeout"
		return r
	}
	r.Outcome = wire.OutcomeFinding
	r.Kind, r.Message = nativeKind(text)
	return r
}

// nativeKind classifies the output of a failed native run.
func nativeKind(text string) (kind, message string) {
	switch {
	case strings.Contains(text, "panic: test timed out"):
		return KindHang, "the test did not finish within " + NativeTimeout.String()
	case strings.Contains(text, "all goroutines are asleep - deadlock"):
		return "deadlock", "fatal error: all goroutines are asleep - deadlock!"
	case strings.Contains(text, "WARNING: DATA RACE"):
		return "data race", "the race detector reported a data race"
	case strings.Contains(text, "\npanic: ") || strings.HasPrefix(text, "panic: "):
		return "panic", firstLine(text[strings.Index(text, "panic: "):])
	case strings.Contains(text, "fatal error: "):
		return "fatal error", firstLine(text[strings.Index(text, "fatal error: "):])
	case strings.Contains(text, "--- FAIL"):
		return "test failure", "the test failed"
	}
	return "test failure", firstLine(text)
}

// nativeDetects reports whether a native finding of kind counts as
// detecting a kernel whose finding kind is detect.
func nativeDetects(kind, detect string) bool {
	switch {
	case kind == KindHang:
		return detect == "deadlock" || detect == "livelock"
	case kind == "test failure" && detect == "livelock":
		// The livelock kernels bound their spin loops so that plain go
		// test ends; running out of spins fails the test.
		return true
	}
	return kind == detect
}

// runCounter counts the test executions started ("=== RUN" lines of
// top-level tests) in -test.v output.
type runCounter struct {
	partial []byte
	runs    int
}

func (c *runCounter) Write(p []byte) (int, error) {
	c.partial = append(c.partial, p...)
	complete := strings.LastIndexByte(string(c.partial), '\n')
	if complete < 0 {
		return len(p), nil
	}
	sc := bufio.NewScanner(strings.NewReader(string(c.partial[:complete+1])))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "=== RUN   Test") && !strings.Contains(l, "/") {
			c.runs++
		}
	}
	c.partial = append(c.partial[:0], c.partial[complete+1:]...)
	return len(p), nil
}

// multiWriter writes to every writer in turn, like io.MultiWriter, for
// writers that never fail.
type multiWriter []interface{ Write([]byte) (int, error) }

func (m multiWriter) Write(p []byte) (int, error) {
	for _, w := range m {
		w.Write(p)
	}
	return len(p), nil
}
