package driver

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// TimedOut is a test binary that go test's own -timeout ended: the tests
// it was running were not explored to their end.
type TimedOut struct {
	Package string
	After   string   // go test's -timeout, as the panic says it
	Tests   []string // the tests that were running, with how long each ran
}

// timeoutWatch reads go test's output for the panic with which a test
// binary ends at -timeout, and the tests it names as running.
type timeoutWatch struct {
	found   []TimedOut
	running bool // within the list of running tests
}

var (
	timedOutLine = regexp.MustCompile(`^panic: test timed out after (\S+)`)
	runningLine  = regexp.MustCompile(`^\s+(\S+) \(([^)]+)\)$`)
	failLine     = regexp.MustCompile(`^FAIL\t(\S+)\t`)
)

// line observes a line of go test's standard output (text or -json).
func (w *timeoutWatch) line(l []byte) {
	text, pkg := string(l), ""
	if bytes.HasPrefix(l, []byte("{")) {
		var ev struct{ Package, Output string }
		if json.Unmarshal(l, &ev) != nil {
			return
		}
		text, pkg = strings.TrimSuffix(ev.Output, "\n"), ev.Package
	}
	if m := timedOutLine.FindStringSubmatch(text); m != nil {
		w.found = append(w.found, TimedOut{Package: pkg, After: m[1]})
		w.running = false
		return
	}
	if len(w.found) == 0 {
		return
	}
	last := &w.found[len(w.found)-1]
	switch {
	case strings.TrimSpace(text) == "running tests:":
		w.running = true
	case w.running && runningLine.MatchString(text):
		m := runningLine.FindStringSubmatch(text)
		last.Tests = append(last.Tests, m[1]+" ("+m[2]+")")
	default:
		w.running = false
		if m := failLine.FindStringSubmatch(text); m != nil && last.Package == "" {
			last.Package = m[1]
		}
	}
}
