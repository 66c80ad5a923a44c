package bench

import (
	"bytes"
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
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	stdout, stderr := &outputScanner{}, &outputScanner{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	stdout.flush()
	stderr.flush()
	secs := time.Since(start).Seconds()
	r := Run{Seconds: secs, Wall: secs, Schedules: stdout.runs}
	switch {
	case err == nil:
		r.Outcome = wire.OutcomePass
	case rctx.Err() != nil:
		r.Outcome, r.Kind, r.Message = wire.OutcomeFinding, KindHang, "killed: the test binary ignored its own timeout"
	default:
		r.Outcome = wire.OutcomeFinding
		r.Kind, r.Message = nativeKind(stdout, stderr)
	}
	return r
}

// nativeKind classifies a failed native run from the markers seen in its
// output (a timeout's goroutine dump can be megabytes long, so the output
// is scanned as it streams, not kept).
func nativeKind(outs ...*outputScanner) (kind, message string) {
	var o outputScanner
	for _, x := range outs {
		o.timedOut = o.timedOut || x.timedOut
		o.asleep = o.asleep || x.asleep
		o.race = o.race || x.race
		o.failed = o.failed || x.failed
		if o.panicLine == "" {
			o.panicLine = x.panicLine
		}
		if o.fatalLine == "" {
			o.fatalLine = x.fatalLine
		}
	}
	switch {
	case o.timedOut:
		return KindHang, "the test did not finish within " + NativeTimeout.String()
	case o.asleep:
		return "deadlock", "fatal error: all goroutines are asleep - deadlock!"
	case o.race:
		return "data race", "the race detector reported a data race"
	case o.panicLine != "":
		return "panic", o.panicLine
	case o.fatalLine != "":
		return "fatal error", o.fatalLine
	}
	return "test failure", "the test failed"
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

// outputScanner watches the output of a native test binary line by line:
// it counts the top-level test executions started ("=== RUN" lines of
// -test.v) and notes the markers of each kind of failure.
type outputScanner struct {
	partial   []byte
	runs      int
	timedOut  bool // panic: test timed out
	asleep    bool // fatal error: all goroutines are asleep
	race      bool // WARNING: DATA RACE
	failed    bool // --- FAIL
	panicLine string
	fatalLine string
}

func (o *outputScanner) Write(p []byte) (int, error) {
	o.partial = append(o.partial, p...)
	for {
		i := bytes.IndexByte(o.partial, '\n')
		if i < 0 {
			break
		}
		o.line(string(o.partial[:i]))
		o.partial = o.partial[i+1:]
	}
	if len(o.partial) > 1<<16 {
		o.flush()
	}
	return len(p), nil
}

// flush scans an unterminated last line.
func (o *outputScanner) flush() {
	if len(o.partial) > 0 {
		o.line(string(o.partial))
		o.partial = o.partial[:0]
	}
}

func (o *outputScanner) line(l string) {
	switch {
	case strings.HasPrefix(l, "=== RUN   Test") && !strings.Contains(l, "/"):
		o.runs++
	case strings.HasPrefix(l, "panic: test timed out"):
		o.timedOut = true
	case strings.HasPrefix(l, "panic: ") && o.panicLine == "":
		o.panicLine = l
	case strings.Contains(l, "all goroutines are asleep - deadlock"):
		o.asleep = true
	case strings.HasPrefix(l, "fatal error: ") && o.fatalLine == "":
		o.fatalLine = l
	case strings.Contains(l, "WARNING: DATA RACE"):
		o.race = true
	case strings.HasPrefix(strings.TrimSpace(l), "--- FAIL"):
		o.failed = true
	}
}
