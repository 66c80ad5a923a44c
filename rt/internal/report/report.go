// Package report renders findings as the text printed under a failing
// test: what went wrong, the goroutines involved with their stacks, the
// interleaving that led there, and how to replay it.
package report

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/sched"
)

// Header is what the report says about the exploration.
type Header struct {
	Schedules int // how many schedules the exploration ran; 0 leaves the count out
	Strategy  string
	Seed      int64
	Path      string // schedule file, "" if none was written
	View      string // the finding's HTML page, "" if none was written
}

// Positions maps a site to "file:line".
type Positions func(site uint32) string

// traceShown is how many events of the interleaving the report lists.
const traceShown = 40

// traceWidth is the least width of the column of operations in the
// interleaving; a longer one widens the column for every line.
const traceWidth = 28

// Render returns the report of f.
func Render(h Header, f *sched.Finding, pos Positions) string {
	var b strings.Builder
	fmt.Fprintf(&b, "interleave: %s", f.Kind)
	switch h.Schedules {
	case 0: // no count: the report of a schedule file, whichever run wrote it
	case 1:
		b.WriteString(" after 1 schedule")
	default:
		fmt.Fprintf(&b, " after %d schedules", h.Schedules)
	}
	fmt.Fprintf(&b, " (strategy %s, seed %d)\n", h.Strategy, h.Seed)
	fmt.Fprintf(&b, "%s\n", f.Message)
	if len(f.EarlyTimers) > 0 {
		writeEarlyTimers(&b, f, pos)
	}
	if f.RaceObject != "" {
		fmt.Fprintf(&b, "location: %s\n", f.RaceObject)
	}
	for _, g := range f.Goroutines {
		b.WriteString("\n")
		name := fmt.Sprintf("goroutine %d", g.ID)
		if g.Main {
			name += " (test)"
		}
		fmt.Fprintf(&b, "%s: %s", name, g.Status)
		if g.Site != 0 {
			fmt.Fprintf(&b, " at %s", pos(g.Site))
		}
		b.WriteString("\n")
		if g.SpawnSite != 0 {
			fmt.Fprintf(&b, "    started at %s\n", pos(g.SpawnSite))
		}
		if st := Trim(g.Stack); st != "" {
			b.WriteString(indent(st, "    "))
		}
	}
	if f.Kind == sched.KindPanic || f.Kind == sched.KindFatal {
		st := Trim(f.Stack)
		if f.Internal {
			st = f.Stack
		}
		if st != "" {
			b.WriteString("\nstack:\n")
			b.WriteString(indent(st, "    "))
		}
	}
	if len(f.Logs) > 0 && !logsInMessage(f) {
		b.WriteString("\ntest log of this schedule:\n")
		for _, l := range f.Logs {
			b.WriteString(indent(l, "    "))
		}
	}
	if len(f.Trace) > 0 {
		b.WriteString("\n")
		writeTrace(&b, f, pos)
	}
	if h.Path != "" {
		fmt.Fprintf(&b, "\nschedule: %s\nreplay: interleave replay %s\n", h.Path, h.Path)
	}
	if h.View != "" {
		if h.Path == "" {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "view: %s\n", fileURL(h.View))
	}
	return b.String()
}

// logsInMessage reports whether the test log of f's schedule is its
// message again: a failure logged alone (an assertion library's message
// is both).
func logsInMessage(f *sched.Finding) bool {
	msg := strings.TrimSpace(f.Message)
	for _, l := range f.Logs {
		if strings.TrimSpace(l) != msg {
			return false
		}
	}
	return true
}

// writeTrace lists the last events of f's trace, one a line: the
// goroutine, the operation and its object as the source names it
// ("Lock from.mu#3"), and where, in aligned columns. A run of at least
// ownRun accesses of one goroutine to memory words no other goroutine
// touches in the trace is one line, "N accesses to its own memory":
// they order nothing (an assertion library formatting its message, a
// local slice), and listed one by one they pushed the goroutines'
// communication out of the lines shown. The view page lists them all.
func writeTrace(b *strings.Builder, f *sched.Finding, pos Positions) {
	var shown []event.Event
	for _, e := range f.Trace {
		if e.Op == event.OpStart || e.Op == event.OpResume {
			continue
		}
		shown = append(shown, e)
	}
	// The racing accesses stay lines of their own: the earlier one may
	// be older than the trace, so that the word looks like its
	// goroutine's own.
	racing := func(e event.Event) bool {
		return f.Race != nil && (e.Site == f.Race.Cur.Site || e.Site == f.Race.Prev.Site)
	}
	lines := traceLines(shown, racing)
	skip, events := max(len(lines)-traceShown, 0), 0
	for _, l := range lines[skip:] {
		events += l.n
	}
	if skip > 0 || f.TraceDropped > 0 {
		fmt.Fprintf(b, "interleaving (last %d of %d events):\n", events, len(shown)+f.TraceDropped)
	} else {
		fmt.Fprintf(b, "interleaving (%d events):\n", events)
	}
	lines = lines[skip:]
	whats := make([]string, len(lines))
	width := traceWidth
	for i, l := range lines {
		if l.n > 1 {
			whats[i] = fmt.Sprintf("%d accesses to its own memory", l.n)
		} else {
			whats[i] = l.e.Op.String()
			if name := f.ObjectName(l.e); name != "" {
				whats[i] += " " + name
			}
		}
		width = max(width, utf8.RuneCountInString(whats[i]))
	}
	for i, l := range lines {
		who := fmt.Sprintf("g%d", l.e.G)
		if l.e.G == 0 {
			who = "timer"
		}
		at := ""
		if l.e.Site != 0 {
			at = pos(l.e.Site)
		}
		if l.n > 1 && l.last.Site != 0 && l.last.Site != l.e.Site {
			to := pos(l.last.Site)
			if k := strings.LastIndexByte(to, ':'); k > 0 && strings.HasPrefix(at, to[:k+1]) {
				at += "-" + to[k+1:] // the same file: "a.go:12-30"
			} else {
				at += " to " + to
			}
		}
		line := fmt.Sprintf("    %-6s %s%s %s", who, whats[i], strings.Repeat(" ", width-utf8.RuneCountInString(whats[i])), at)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// ownRun is the shortest run of accesses to a goroutine's own memory
// that the interleaving lists as one line.
const ownRun = 3

// A traceLine is a line of the interleaving: one event (n 1), or a run
// of n accesses of one goroutine to its own memory, from e to last.
type traceLine struct {
	e, last event.Event
	n       int
}

// traceLines groups events into the lines of the interleaving; an event
// keep says so is never part of a run.
func traceLines(events []event.Event, keep func(event.Event) bool) []traceLine {
	// The goroutine that touches each memory word, -1 for several.
	owner := map[int32]int32{}
	for _, e := range events {
		if e.Obj >= 0 {
			continue
		}
		if g, ok := owner[e.Obj]; !ok {
			owner[e.Obj] = e.G
		} else if g != e.G {
			owner[e.Obj] = -1
		}
	}
	own := func(e event.Event) bool { return e.Obj < 0 && owner[e.Obj] == e.G && !keep(e) }
	var lines []traceLine
	for i := 0; i < len(events); {
		j := i
		for j < len(events) && own(events[j]) && events[j].G == events[i].G {
			j++
		}
		if j-i >= ownRun {
			lines = append(lines, traceLine{e: events[i], last: events[j-1], n: j - i})
			i = j
			continue
		}
		lines = append(lines, traceLine{e: events[i], last: events[i], n: 1})
		i++
	}
	return lines
}

// writeEarlyTimers says, in one line, that the schedule fired a timer
// while a goroutine could still run: the timer, the goroutine it stalled
// and for how long, and whether a search without such stalls showed the
// finding.
func writeEarlyTimers(b *strings.Builder, f *sched.Finding, pos Positions) {
	e := f.EarlyTimers[0]
	for _, x := range f.EarlyTimers[1:] {
		if x.Stall > e.Stall {
			e = x
		}
	}
	at := ""
	if e.Site != 0 {
		at = " started at " + pos(e.Site)
	}
	ids := make([]string, len(e.Runnable))
	for k, g := range e.Runnable {
		ids[k] = fmt.Sprint(g)
	}
	who := "goroutine " + strings.Join(ids, ", ")
	if len(ids) > 1 {
		who = "goroutines " + strings.Join(ids, ", ")
	}
	more := ""
	if n := len(f.EarlyTimers) - 1 + f.EarlyTimersDropped; n > 0 {
		more = fmt.Sprintf(" (and %d more timers fired early)", n)
	}
	verdict := "-timers=idle tells whether the finding needs such a stall"
	switch {
	case f.StallSearch != "":
		verdict = "the finding needs such a stall: " + f.StallSearch + " did not show it"
	case f.StallChecked > 0:
		verdict = fmt.Sprintf("the finding needs such a stall: %d schedules that stall no goroutine did not show it", f.StallChecked)
	}
	fmt.Fprintf(b, "timing: the %v timer%s fired %v early, stalling %s that long%s; %s\n",
		e.Duration, at, e.Stall, who, more, verdict)
}

// TimingLine is the line of writeEarlyTimers, without its newline, for a
// note on a test failure that needs a timer fired early.
func TimingLine(f *sched.Finding, pos Positions) string {
	var b strings.Builder
	writeEarlyTimers(&b, f, pos)
	return strings.TrimSuffix(b.String(), "\n")
}

// fileURL gives the file: URL of an absolute path, which terminals make a
// link.
func fileURL(path string) string {
	if !strings.HasPrefix(path, "/") {
		return path
	}
	return (&url.URL{Scheme: "file", Path: path}).String()
}

// Trim removes the runtime's own frames (package rt, the scheduler, the
// Go runtime and the testing package) from a goroutine stack, keeping the
// user's frames with their original file positions.
func Trim(stack string) string {
	lines := strings.Split(strings.TrimSpace(stack), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "goroutine ") {
			continue
		}
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") {
			fn, loc := l, lines[i+1]
			i++
			if internalFrame(fn) {
				continue
			}
			if j := strings.LastIndex(loc, " +0x"); j >= 0 {
				loc = loc[:j]
			}
			if j := strings.LastIndex(fn, "("); j > 0 && strings.HasSuffix(fn, ")") {
				fn = fn[:j] + "(...)"
			}
			out = append(out, fn, loc)
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func internalFrame(fn string) bool {
	for _, p := range []string{"interleave.dev/rt.", "interleave.dev/rt/", "runtime.", "runtime/debug.", "testing.", "iter.", "panic(", "created by "} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

func indent(s, pre string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return pre + strings.ReplaceAll(s, "\n", "\n"+pre) + "\n"
}
