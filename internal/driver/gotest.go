package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// buildFailureMarkers are the go command's signs that a package did not
// build, in text and -json output.
var buildFailureMarkers = [][]byte{
	[]byte("[build failed]"),
	[]byte("[setup failed]"),
	[]byte(`"Action":"build-fail"`),
}

// resultPrefixes start the lines by which go test reports on a package or
// test; a failing go test that printed none of them failed to start.
var resultPrefixes = [][]byte{
	[]byte("ok  \t"), []byte("FAIL\t"), []byte("?   \t"), []byte("--- "), []byte("=== RUN"),
	[]byte("{"), // -json events
}

// markerWriter passes output through and notes whether a line holds a
// build failure marker, and whether go test reported any result.
type markerWriter struct {
	w       io.Writer
	mu      *sync.Mutex
	partial []byte
	found   *bool
	results *bool
	lines   func([]byte) // observes every complete line, if set
	clear   func()       // called before the output is written, if set
}

func (m *markerWriter) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.partial = append(m.partial, p...)
	for {
		i := bytes.IndexByte(m.partial, '\n')
		if i < 0 {
			break
		}
		m.scan(m.partial[:i])
		m.partial = m.partial[i+1:]
	}
	if len(m.partial) > 1<<16 { // a huge line: scan and forget it
		m.scan(m.partial)
		m.partial = m.partial[:0]
	}
	if m.clear != nil {
		m.clear()
	}
	return m.w.Write(p)
}

func (m *markerWriter) scan(line []byte) {
	if m.lines != nil {
		m.lines(line)
	}
	for _, k := range resultPrefixes {
		if bytes.HasPrefix(line, k) {
			*m.results = true
		}
	}
	for _, k := range buildFailureMarkers {
		if bytes.Contains(line, k) {
			*m.found = true
		}
	}
}

// goTestRun is the outcome of one go test command.
type goTestRun struct {
	Exit        int  // the go command's exit status
	BuildFailed bool // some package did not build
}

// runGoTest runs "go test args..." in dir, copying its output to stdout and
// stderr as it comes.
// Each line of standard output is also passed to lines, if not nil. When
// progress is not nil, the progress it reads is shown between lines of
// output, and cleared before any output and at the end.
func runGoTest(ctx context.Context, dir string, env, args []string, stdout, stderr io.Writer, lines func([]byte), progress *progressTail) (*goTestRun, error) {
	run := &goTestRun{}
	var mu sync.Mutex
	var results bool
	cmd := exec.CommandContext(ctx, "go", append([]string{"test"}, args...)...)
	cmd.Dir = dir
	cmd.Env = env
	// On cancellation (an interrupt), let go test stop its test binaries
	// and print what it has, as it does on ^C.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	out := &markerWriter{w: stdout, mu: &mu, found: &run.BuildFailed, results: &results, lines: lines}
	errw := &markerWriter{w: stderr, mu: &mu, found: &run.BuildFailed, results: &results}
	cmd.Stdout, cmd.Stderr = out, errw
	if progress != nil {
		out.clear, errw.clear = progress.sink.Clear, progress.sink.Clear
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			ticker := time.NewTicker(progressPoll)
			defer ticker.Stop()
			for {
				select {
				case <-stop:
					return
				case <-ticker.C:
				}
				progress.read()
				mu.Lock()
				if len(out.partial) == 0 && len(errw.partial) == 0 { // between lines
					progress.show()
				}
				mu.Unlock()
			}
		}()
		defer func() {
			close(stop)
			<-done
			progress.sink.Clear()
		}()
	}
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		run.Exit = exit.ExitCode()
	default:
		return nil, fmt.Errorf("running go test: %w", err)
	}
	if run.Exit != 0 && !results {
		run.BuildFailed = true // the go command failed before testing anything
	}
	return run, nil
}
