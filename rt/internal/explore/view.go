package explore

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"interleave.dev/rt/internal/event"
	"interleave.dev/rt/internal/sched"
	"interleave.dev/rt/internal/site"
	"interleave.dev/rt/internal/view"
)

// The page shows at most viewEvents events (the last ones) and reads at
// most viewFiles source files, each up to viewFileBytes.
const (
	viewEvents    = 2000
	viewFiles     = 200
	viewFileBytes = 4 << 20
)

// writeView writes the HTML page of finding f of rep to path.
func writeView(path string, rep *Report, f *sched.Finding) error {
	p := &view.Page{
		Test: rep.Test, Kind: f.Kind, Message: f.Message, Schedule: rep.Path, Report: rep.Text,
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
	page, err := view.Render(p)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, page, 0o644); err != nil {
		return fmt.Errorf("interleave: writing the page of the finding: %w", err)
	}
	return nil
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

// readSources adds to p the source lines around its events and goroutines'
// positions.
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
	for file, lines := range want {
		f, err := os.Open(file)
		if err != nil {
			continue
		}
		src := make(map[string]string)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, viewFileBytes)
		for n := 1; sc.Scan(); n++ {
			if lines[n] {
				src[strconv.Itoa(n)] = strings.TrimRight(sc.Text(), "\r")
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
