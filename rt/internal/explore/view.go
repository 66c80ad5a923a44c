package explore

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/site"
	"interleave.dev/rt/view"
)

// The page shows at most viewEvents events (the last ones) and reads at
// most viewFiles source files, each up to viewFileBytes. The schedule file
// carries the page's data too, so what it keeps is bounded: source lines
// cut at viewLineBytes, viewSourceBytes of them in all, and the report's
// text cut at viewReportBytes (a test log alone can be 1 MiB; the test's
// output has the whole report). A page's data is then at most about half
// a MiB, most of it the events.
const (
	viewEvents      = 2000
	viewFiles       = 200
	viewFileBytes   = 4 << 20
	viewLineBytes   = 240
	viewSourceBytes = 256 << 10
	viewReportBytes = 64 << 10
)

// pageOf returns the page of finding f of rep.
func pageOf(rep *Report, f *sched.Finding) *view.Page {
	p := &view.Page{
		Test: rep.Test, Kind: f.Kind, Message: f.Message, Schedule: rep.Path, Report: cutReport(rep.Text),
		Sources: make(map[string]map[string]string),
	}
	for _, g := range f.Goroutines {
		vg := view.Goroutine{ID: g.ID, Main: g.Main, Status: g.Status, WaitsFor: g.WaitsFor}
		if g.Site != 0 {
			vg.At = positionString(g.Site)
		}
		if g.SpawnSite != 0 {
			vg.Started = positionString(g.SpawnSite)
		}
		p.Goroutines = append(p.Goroutines, vg)
	}
	p.Events, p.Dropped = viewEventsOf(f)
	readSources(p)
	return p
}

// pageReport is the report text of finding f of rep that the schedule
// file keeps for its page: nothing in it depends on the run that wrote
// the file (with -workers or -shard, or after interleave merge, the file
// is the same), so it says neither how many schedules ran nor where the
// file and page were written; the page shows the file it was written
// from.
func pageReport(rep *Report, f *sched.Finding) string {
	bare := *rep
	bare.Path, bare.View, bare.Schedules = "", "", 0
	return cutReport(reportText(&bare, f))
}

// cutReport is the report text s, bounded for the page.
func cutReport(s string) string {
	return cut(s, viewReportBytes, "\n(the report is cut here: the test's output has all of it)\n")
}

// writeView writes page p to path.
func writeView(path string, p *view.Page) error {
	page, err := view.Render(p)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, page, 0o644); err != nil {
		return fmt.Errorf("interleave: writing the page of the finding: %w", err)
	}
	return nil
}

// cut returns s, or its first n bytes (at a character's start) followed by
// more when it is longer.
func cut(s string, n int, more string) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + more
}

// viewEventsOf returns the events of f's trace the page shows (not the
// start and resume events, which only say that a goroutine was scheduled),
// with preemptions and the race's accesses marked, and how many earlier
// events it leaves out.
func viewEventsOf(f *sched.Finding) ([]view.Event, int) {
	tr := f.Trace
	preempt := make(map[int]bool, len(f.Preempts))
	for _, k := range f.Preempts {
		preempt[k-f.TraceDropped] = true
	}
	var later, earlier = -1, -1
	if r := f.Race; r != nil {
		for i := len(tr) - 1; i >= 0; i-- {
			e := tr[i]
			if later < 0 && e.G == r.Cur.G && e.Site == r.Cur.Site {
				later = i
			} else if later >= 0 && e.G == r.Prev.G && e.Site == r.Prev.Site {
				earlier = i
				break
			}
		}
	}
	var out []view.Event
	carry := make(map[int32]bool) // a preemption by a start or resume, shown on the goroutine's next event
	for i, e := range tr {
		if e.Op == event.OpStart || e.Op == event.OpResume {
			if preempt[i] {
				carry[e.G] = true
			}
			continue
		}
		ve := view.Event{G: e.G, Op: e.Op.String()}
		ve.Obj = f.ObjectName(e)
		if e.Site != 0 {
			pos := site.Pos(e.Site)
			ve.File, ve.Line = pos.File, pos.Line
		}
		ve.Preempt = preempt[i] || carry[e.G]
		delete(carry, e.G)
		switch i {
		case later:
			ve.Race = "later"
		case earlier:
			ve.Race = "earlier"
		}
		out = append(out, ve)
	}
	dropped := f.TraceDropped
	if len(out) > viewEvents {
		dropped += len(out) - viewEvents
		out = out[len(out)-viewEvents:]
	}
	return out, dropped
}

// readSources adds to p the source lines around its events, within the
// bounds above.
func readSources(p *view.Page) {
	want := make(map[string]map[int]bool)
	add := func(file string, line int) {
		if file == "" || line <= 0 {
			return
		}
		if want[file] == nil {
			if len(want) == viewFiles {
				return
			}
			want[file] = make(map[int]bool)
		}
		for n := line - 3; n <= line+3; n++ {
			want[file][n] = true
		}
	}
	for _, e := range p.Events {
		add(e.File, e.Line)
	}
	files := make([]string, 0, len(want))
	for file := range want {
		files = append(files, file)
	}
	slices.Sort(files) // which lines the bound keeps does not depend on map order
	budget := viewSourceBytes
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			continue
		}
		src := make(map[string]string)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, viewFileBytes)
		for n := 1; sc.Scan() && budget > 0; n++ {
			if want[file][n] {
				l := cut(strings.TrimRight(sc.Text(), "\r"), viewLineBytes, "…")
				src[strconv.Itoa(n)] = l
				budget -= len(l)
			}
		}
		f.Close()
		p.Sources[file] = src
	}
}

// positionString gives "file:line" for s.
func positionString(s uint32) string {
	pos := site.Pos(s)
	if pos.File == "" {
		return "?"
	}
	return fmt.Sprintf("%s:%d", pos.File, pos.Line)
}
