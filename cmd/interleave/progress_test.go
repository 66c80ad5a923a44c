package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"interleave.dev/internal/driver"
)

func TestProgressLineRendering(t *testing.T) {
	for _, tc := range []struct {
		p    driver.TestProgress
		want string
	}{
		{
			driver.TestProgress{Test: "TestFoo", Schedules: 1234, PerSecond: 410.4, Elapsed: 48*time.Second + 300*time.Millisecond, Budget: time.Minute},
			"TestFoo  1234 schedules  410/s  12s of 1m0s left",
		},
		{
			driver.TestProgress{Test: "TestBar", Schedules: 20, PerSecond: 9.6, Elapsed: 2100 * time.Millisecond, MaxSchedules: 1000},
			"TestBar  20 of 1000 schedules  10/s  2s",
		},
		{
			driver.TestProgress{Test: "TestDFS", Schedules: 300, PerSecond: 100, Elapsed: 3 * time.Second, Covered: 0.254},
			"TestDFS  300 schedules (~25% of the space)  100/s  3s",
		},
		{ // past the budget, while the last schedule ends
			driver.TestProgress{Test: "TestBaz", Schedules: 7, PerSecond: 1, Elapsed: 11 * time.Second, Budget: 10 * time.Second},
			"TestBaz  7 schedules  1/s  0s of 10s left",
		},
	} {
		if got := progressLine(tc.p); got != tc.want {
			t.Errorf("progressLine(%+v) = %q, want %q", tc.p, got, tc.want)
		}
	}

	var out bytes.Buffer
	l := &lineProgress{w: &out, width: 30}
	l.Clear() // nothing shown: nothing to clear
	l.Update(driver.TestProgress{Test: "TestFoo", Schedules: 5, PerSecond: 5, Elapsed: time.Second})
	l.Update(driver.TestProgress{Test: "TestWithAVeryLongNameIndeed", Schedules: 6, PerSecond: 5, Elapsed: time.Second})
	l.Clear()
	l.Clear()
	want := "\rTestFoo  5 schedules  5/s  1s\x1b[K" + "\rTestWithAVeryLongNameIndeed  \x1b[K" + "\r\x1b[K"
	if out.String() != want {
		t.Errorf("terminal output %q, want %q", out.String(), want)
	}
}

func TestJSONProgressThrottled(t *testing.T) {
	var out bytes.Buffer
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	j := &jsonProgress{w: &out, now: func() time.Time { return now }, last: map[[2]string]time.Time{}}
	a := driver.TestProgress{Package: "example.com/m", Test: "TestA", Schedules: 10, PerSecond: 33.333, Elapsed: 300 * time.Millisecond, Budget: 2 * time.Second}
	j.Update(a)
	now = now.Add(500 * time.Millisecond)
	j.Update(driver.TestProgress{Package: "example.com/m", Test: "TestB", Schedules: 1, PerSecond: 2, Elapsed: 500 * time.Millisecond})
	a.Schedules = 20
	j.Update(a) // within a second of TestA's last event: dropped
	now = now.Add(500 * time.Millisecond)
	a.Schedules, a.Covered = 30, 0.12345
	j.Update(a)
	j.Clear()
	want := `{"Time":"2026-01-02T03:04:05Z","Action":"progress","Package":"example.com/m","Test":"TestA","Schedules":10,"PerSecond":33.3,"Elapsed":0.3,"Budget":2}
{"Time":"2026-01-02T03:04:05.5Z","Action":"progress","Package":"example.com/m","Test":"TestB","Schedules":1,"PerSecond":2,"Elapsed":0.5}
{"Time":"2026-01-02T03:04:06Z","Action":"progress","Package":"example.com/m","Test":"TestA","Schedules":30,"PerSecond":33.3,"Elapsed":0.3,"Budget":2,"Covered":0.123}
`
	if out.String() != want {
		t.Errorf("events:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestProgressSinkChoice(t *testing.T) {
	defer func(f func(io.Writer) bool) { isTerminal = f }(isTerminal)
	for _, tc := range []struct {
		flags    []string
		terminal bool
		want     string
	}{
		{nil, false, "none"},
		{nil, true, "line"},
		{[]string{"-v=true"}, true, "none"},
		{[]string{"-test.v=test2json"}, true, "none"},
		{[]string{"-v=true", "-v=false"}, true, "line"},
		{[]string{"-json=true"}, false, "json"},
		{[]string{"-json=true", "-v=true"}, true, "json"},
	} {
		isTerminal = func(io.Writer) bool { return tc.terminal }
		got := "none"
		switch progressSink(tc.flags, io.Discard, io.Discard).(type) {
		case *lineProgress:
			got = "line"
		case *jsonProgress:
			got = "json"
		}
		if got != tc.want {
			t.Errorf("flags %v, terminal %v: %s, want %s", tc.flags, tc.terminal, got, tc.want)
		}
	}
}

// steady passes every schedule, each long enough that an exploration of
// a second reports its progress several times.
const steady = `package m

import (
	"sync"
	"testing"
)

func TestSteady(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != 60 {
		t.Errorf("n = %d", n)
	}
}
`

var (
	progressRE = regexp.MustCompile("\r[^\r\n]*\x1b\\[K")
	summaryRE  = regexp.MustCompile(`(?m)^interleave: 1 test, \d+ schedules: 1 passed$`)
)

// A long exploration shows its progress: as -json events with growing
// counts; as a line redrawn on a terminal, cleared before any other output;
// and not at all when stderr is not a terminal.
func TestProgressEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.23\n", "m_test.go": steady})
	explore := func(args ...string) (string, string) {
		t.Helper()
		code, stdout, stderr := cli(t, append([]string{"test", "-C", dir, "-schedule-dir", t.TempDir(), "-budget", "1500ms", "-schedules", "100000000", "-workers", "2"}, args...)...)
		if code != 0 || !summaryRE.MatchString(progressRE.ReplaceAllString(stderr, "")) {
			t.Fatalf("interleave test %v: exit %d\n%s\n%q", args, code, stdout, stderr)
		}
		return stdout, stderr
	}

	stdout, _ := explore("-json", ".")
	var counts []int
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var e struct {
			Action, Package, Test string
			Schedules             int
			Elapsed, Budget       float64
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("not a JSON event: %q: %v", sc.Text(), err)
		}
		if e.Action != "progress" {
			continue
		}
		if e.Package != "example.com/m" || e.Test != "TestSteady" || e.Budget != 1.5 || e.Elapsed <= 0 {
			t.Errorf("progress event %s", sc.Text())
		}
		counts = append(counts, e.Schedules)
	}
	if len(counts) == 0 {
		t.Fatalf("no progress event in\n%s", stdout)
	}
	for i := 1; i < len(counts); i++ {
		if counts[i] <= counts[i-1] {
			t.Errorf("schedule counts do not grow: %v", counts)
		}
	}

	// Not a terminal: nothing of the line.
	_, stderr := explore(".")
	if strings.ContainsAny(stderr, "\r\x1b") {
		t.Errorf("progress written to a stderr that is not a terminal:\n%q", stderr)
	}

	// A terminal: the line is redrawn, and cleared before the output that
	// follows; without it, the output is what it is elsewhere.
	defer func(f func(io.Writer) bool) { isTerminal = f }(isTerminal)
	isTerminal = func(io.Writer) bool { return true }
	_, stderr = explore(".")
	lines := progressRE.FindAllString(stderr, -1)
	if len(lines) < 2 || lines[len(lines)-1] != "\r\x1b[K" || !strings.Contains(lines[0], "TestSteady  ") || !strings.Contains(lines[0], " of 1.5s left") {
		t.Fatalf("terminal progress %q in\n%q", lines, stderr)
	}
	plain := progressRE.ReplaceAllString(stderr, "")
	if strings.ContainsAny(plain, "\r\x1b") || !summaryRE.MatchString(plain) {
		t.Errorf("output besides the progress line:\n%q", plain)
	}
}
