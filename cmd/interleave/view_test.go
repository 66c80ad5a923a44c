package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"interleave.dev/rt/wire"
)

// chromium returns the path of a headless Chromium, skipping the test when
// there is none outside CI (.ci/run installs it and sets
// INTERLEAVE_CI_BROWSER, so there a missing browser fails the test).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("INTERLEAVE_CI_BROWSER") != "" {
		t.Fatal("no chromium on PATH, and CI needs it to test the finding page (apt-get install chromium)")
	}
	t.Skip("no headless Chromium on PATH (apt-get install chromium); CI runs this test")
	return ""
}

var viewLine = regexp.MustCompile(`(?m)^\s*view: file://(\S+\.html)\s*$`)

// TestViewPageRendersInChromium runs the deadlock example, which writes
// the finding's page, loads the page in headless Chromium and checks what
// the page's script rendered: a lane per goroutine, the events, the
// blocked goroutines' status with "waits for" arrows, and no console
// error. Then "interleave view" writes the same page again from the
// schedule file.
func TestViewPageRendersInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("explores an example and runs a browser")
	}
	browser := chromium(t)
	dir := t.TempDir()
	src := examplesDir(t)
	copyTree(t, filepath.Join(src, "go.mod"), filepath.Join(dir, "go.mod"))
	copyTree(t, filepath.Join(src, "deadlock"), filepath.Join(dir, "deadlock"))
	code, stdout, stderr := cli(t, "test", "-C", dir, "./deadlock")
	m := viewLine.FindStringSubmatch(stdout)
	if code != 1 || m == nil {
		t.Fatalf("interleave test: exit %d, no page:\n%s\n%s", code, stdout, stderr)
	}
	dom, console := render(t, browser, m[1])
	for _, lane := range []string{`1"[^>]*>goroutine 1 \(test\)<`, `2"[^>]*>goroutine 2<`, `3"[^>]*>goroutine 3<`} {
		if !regexp.MustCompile(`class="lanehead" data-g="` + lane).MatchString(dom) {
			t.Errorf("the rendered page has no lane %s", lane)
		}
	}
	for _, want := range []string{
		"Lock from.mu#",
		"blocked in Lock on to.mu (Mutex#",
		"Transfer(from, to *Account, amount int)", // the source around the selected event
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page has no %q", want)
		}
	}
	if n := strings.Count(dom, `class="ev`); n < 5 {
		t.Errorf("the rendered page shows %d events, want the run's 6", n)
	}
	// A two-goroutine lock cycle: an arrow from each to the other.
	if n := strings.Count(dom, `marker-end="url(#head-3366ff)"`); n != 2 {
		t.Errorf("the rendered page draws %d waits-for arrows, want 2", n)
	}
	if console != "" {
		t.Errorf("console errors:\n%s", console)
	}

	sched := strings.TrimSuffix(m[1], ".html") + ".json"
	out := filepath.Join(t.TempDir(), "page.html")
	code, stdout, stderr = cli(t, "view", "-C", dir, "-out", out, sched)
	if code != 0 || !strings.Contains(stdout, "view: "+out) {
		t.Fatalf("interleave view: exit %d\n%s\n%s", code, stdout, stderr)
	}
	dom, console = render(t, browser, out)
	if !strings.Contains(dom, "blocked in Lock on to.mu (Mutex#") || console != "" {
		t.Errorf("the page of interleave view does not render the deadlock (console: %q)", console)
	}
}

// render loads the page at path in headless Chromium and returns the DOM
// after its scripts ran, and the console errors it logged.
func render(t *testing.T, browser, path string) (dom, console string) {
	t.Helper()
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
		"--user-data-dir="+t.TempDir(), "--window-size=1400,900", "--virtual-time-budget=2000", "--dump-dom", "file://"+path)
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, errb.String())
	}
	var errs []string
	for _, l := range strings.Split(errb.String(), "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Uncaught") {
			errs = append(errs, l)
		}
	}
	return string(out), strings.Join(errs, "\n")
}

// racyModule is a module whose test races on a counter's field c.n.
var racyModule = map[string]string{
	"go.mod": "module example.com/racy\n\ngo 1.22\n",
	"counter.go": `package racy

type Counter struct{ n int }

func (c *Counter) Hit() { c.n++ }
`,
	"counter_test.go": `package racy

import (
	"sync"
	"testing"
)

func TestHits(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Hit()
		}()
	}
	wg.Wait()
}
`,
}

// TestViewFromScheduleFileAlone runs interleave test on a racy module,
// moves the schedule file to another directory, removes the module, and
// runs interleave view from a third working directory: the page comes
// from the file alone, and names the racing field as the source does. A
// file without the page's data (as older versions wrote) is replayed in
// its module, and says so when that fails.
func TestViewFromScheduleFileAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("explores a module")
	}
	mod := writeModule(t, racyModule)
	schedules := t.TempDir()
	code, stdout, stderr := cli(t, "test", "-C", mod, "-schedule-dir", schedules, "./...")
	m := replayLine.FindStringSubmatch(stdout)
	if code != 1 || m == nil || !strings.Contains(stdout, "write of c.n (variable#") {
		t.Fatalf("interleave test: exit %d, no race on c.n with a schedule file:\n%s\n%s", code, stdout, stderr)
	}
	moved := filepath.Join(t.TempDir(), "race.json")
	b, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(moved, b, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := wire.ReadSchedule(moved)
	if err != nil || len(s.View) == 0 {
		t.Fatalf("the schedule file holds no page data (%v)", err)
	}

	// As an older interleave wrote it: view replays it in its module.
	old := filepath.Join(t.TempDir(), "old.json")
	s.View = nil
	if err := wire.WriteSchedule(old, s); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	code, _, stderr = cli(t, "view", old)
	if code == 0 || !strings.Contains(stderr, "holds no page data") || !strings.Contains(stderr, "the replay failed") {
		t.Errorf("view of an old file outside its module: exit %d, want a failure that says it replayed:\n%s", code, stderr)
	}
	code, stdout, stderr = cli(t, "view", "-C", mod, old)
	if page := strings.TrimSuffix(old, ".json") + ".html"; code != 0 || !strings.Contains(stdout, "view: "+page) {
		t.Errorf("view of an old file in its module: exit %d\n%s\n%s", code, stdout, stderr)
	}

	if err := os.RemoveAll(mod); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(schedules); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = cli(t, "view", "-replay", moved)
	if code == 0 || !strings.Contains(stderr, "replaying "+moved+"; the replay failed") {
		t.Errorf("view -replay without the module: exit %d, want a failure that says it replayed:\n%s", code, stderr)
	}
	code, stdout, stderr = cli(t, "view", "-out", "page.html", moved)
	wd, _ := os.Getwd()
	page := filepath.Join(wd, "page.html")
	if code != 0 || !strings.Contains(stdout, "view: "+page) {
		t.Fatalf("interleave view: exit %d\n%s\n%s", code, stdout, stderr)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"message":"write of c.n (variable#`, // the race, named
		`"obj":"c.n#`,                        // its events
		`func (c *Counter) Hit() { c.n++ }`,  // the source, from the file
		`"schedule":` + strconv.Quote(moved), // where the file is now
		"<title>interleave: data race in TestHits</title>",
	} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the page has no %s", want)
		}
	}
}
