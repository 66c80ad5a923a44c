package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"interleave.dev/internal/driver"
	"interleave.dev/rt/wire"
)

// isTerminal reports whether w is a terminal. It is a variable so that
// tests can take the terminal's path.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressSink returns how "interleave test" shows the progress of its
// explorations: with -json, progress events among go test's events on
// stdout; else, when stderr is a terminal and -v is not given, one line
// redrawn on stderr; else nothing (nil).
func progressSink(goFlags []string, stdout, stderr io.Writer) driver.ProgressSink {
	switch {
	case goFlagSet(goFlags, "json"):
		return &jsonProgress{w: stdout, now: time.Now, last: map[[2]string]time.Time{}}
	case goFlagSet(goFlags, "v") || !isTerminal(stderr):
		return nil
	}
	width, err := strconv.Atoi(os.Getenv("COLUMNS"))
	if err != nil || width < 20 {
		width = 80
	}
	return &lineProgress{w: stderr, width: width}
}

// goFlagSet reports whether the boolean go test flag name (or its
// "test." form) is set among the passed-through flags, which read
// "-name=value"; the last one counts.
func goFlagSet(goFlags []string, name string) bool {
	set := false
	for _, f := range goFlags {
		v, ok := strings.CutPrefix(f, "-"+name+"=")
		if !ok {
			v, ok = strings.CutPrefix(f, "-test."+name+"=")
		}
		if ok {
			b, err := strconv.ParseBool(v)
			set = err != nil || b // -test.v=test2json is on too
		}
	}
	return set
}

// lineProgress shows the progress on a terminal: one line, redrawn in
// place with a carriage return and erased to its end, and cleared before
// any other output so that the output stays as without it.
type lineProgress struct {
	w     io.Writer
	width int  // of the terminal; the line is cut to fit
	shown bool // a line is on the screen
}

// Update implements driver.ProgressSink.
func (l *lineProgress) Update(p driver.TestProgress) {
	line := progressLine(p)
	if r := []rune(line); len(r) >= l.width {
		line = string(r[:l.width-1])
	}
	fmt.Fprintf(l.w, "\r%s\x1b[K", line)
	l.shown = true
}

// Clear implements driver.ProgressSink.
func (l *lineProgress) Clear() {
	if l.shown {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.shown = false
	}
}

// progressLine renders p, such as
// "TestFoo  1234 schedules  410/s  12s of 1m0s left".
func progressLine(p driver.TestProgress) string {
	count := fmt.Sprintf("%d schedules", p.Schedules)
	if p.MaxSchedules > 0 {
		count = fmt.Sprintf("%d of %d schedules", p.Schedules, p.MaxSchedules)
	}
	when := p.Elapsed.Round(time.Second).String()
	if p.Budget > 0 {
		when = fmt.Sprintf("%s of %s left", max(p.Budget-p.Elapsed, 0).Round(time.Second), p.Budget)
	}
	if p.Covered > 0 {
		count += fmt.Sprintf(" (~%.0f%% of the space)", 100*p.Covered)
	}
	return fmt.Sprintf("%s  %s  %.0f/s  %s", p.Test, count, p.PerSecond, when)
}

// jsonEvery is the least time between two progress events of a test.
const jsonEvery = time.Second

// jsonProgress writes progress events among go test's -json events, at
// most one per test per jsonEvery.
type jsonProgress struct {
	w    io.Writer
	now  func() time.Time
	last map[[2]string]time.Time // (package, test) -> time of its last event
}

// progressEvent is the -json event of the action "progress", in the shape
// of go test's events (test2json), times in seconds.
type progressEvent struct {
	Time         time.Time
	Action       string
	Package      string
	Test         string
	Schedules    int
	PerSecond    float64
	Elapsed      float64
	Budget       float64 `json:",omitempty"`
	MaxSchedules int     `json:",omitempty"`
	Covered      float64 `json:",omitempty"`
}

// Update implements driver.ProgressSink.
func (j *jsonProgress) Update(p driver.TestProgress) {
	k, now := [2]string{p.Package, p.Test}, j.now()
	if last, ok := j.last[k]; ok && now.Sub(last) < jsonEvery {
		return
	}
	j.last[k] = now
	b, err := json.Marshal(progressEvent{
		Time: now, Action: "progress", Package: p.Package, Test: p.Test,
		Schedules: p.Schedules, PerSecond: math.Round(p.PerSecond*10) / 10,
		Elapsed: p.Elapsed.Seconds(), Budget: p.Budget.Seconds(), MaxSchedules: p.MaxSchedules,
		Covered: math.Round(p.Covered*1000) / 1000,
	})
	if err != nil {
		panic(err) // a progressEvent always marshals
	}
	j.w.Write(append(b, '\n'))
}

// Clear implements driver.ProgressSink: events stay.
func (j *jsonProgress) Clear() {}

// noteEvent is the -json event of the action "note": what the exploration
// of a test noticed that is not a finding (a goroutine that never stops, a
// test failure that needs a timer fired early, a test not explored within
// -budget), in the shape of go test's output events.
type noteEvent struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Output  string
}

// writeNotes writes the notes of the results as -json events, after go
// test's.
func writeNotes(w io.Writer, results []wire.Result, now time.Time) {
	for _, r := range results {
		notes := r.Notes
		if r.Timing != "" {
			notes = append(notes[:len(notes):len(notes)], r.Timing)
		}
		if r.Outcome == wire.OutcomeNotExplored {
			notes = append(notes[:len(notes):len(notes)], "not explored: "+r.Message)
		}
		for _, n := range notes {
			b, err := json.Marshal(noteEvent{Time: now, Action: "note", Package: r.Package, Test: r.Test, Output: n + "\n"})
			if err != nil {
				panic(err) // a noteEvent always marshals
			}
			w.Write(append(b, '\n'))
		}
	}
}
