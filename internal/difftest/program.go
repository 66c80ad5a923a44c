package difftest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Form names the variant of a program a test function holds.
type Form string

// The forms of a program.
const (
	// Safe orders every shared access by a lock, a channel or a join and
	// cannot deadlock: every finding on it is a false report.
	Safe Form = "Safe"
	// Racy is Safe with one planted data race.
	Racy Form = "Racy"
	// Bug holds the bugs of a program generated with them: deadlocks,
	// leaks, panics, failures that happen under some schedules.
	Bug Form = "Bug"
)

// TestName returns the name of the test function that holds form f.
func (f Form) TestName() string { return "Test" + string(f) }

// Stmt is one statement of a goroutine: one line of Go, self-contained, so
// that deleting it keeps the program compiling.
type Stmt struct {
	// Kind names the grammar production ("map.range", "chan.send", ...).
	Kind string `json:"kind"`
	// Code is the statement as the Safe form has it, its guard included.
	Code string `json:"code"`
	// Racy, when set, replaces Code in the Racy form: the planted race.
	Racy string `json:"racy,omitempty"`
	// Bug, when set, replaces Code in the Bug form.
	Bug string `json:"bug,omitempty"`
	// Group is the shared memory the statement accesses ("" for none).
	Group string `json:"group,omitempty"`
	// Write is set when the statement writes Group.
	Write bool `json:"write,omitempty"`
}

// code returns the text of s in form f ("" when s is absent from f).
func (s Stmt) code(f Form) string {
	switch {
	case f == Racy && s.Racy != "":
		return s.Racy
	case f == Bug && s.Bug != "":
		return s.Bug
	}
	return s.Code
}

// Goroutine is one goroutine of a program.
type Goroutine struct {
	// Join is how the test goroutine waits for it: "wg" (Add, defer
	// Done), "go" (WaitGroup.Go), "done" (a channel it closes) or "none"
	// (never joined: Bug forms only). The test goroutine's own part has
	// Join "main".
	Join  string `json:"join"`
	Stmts []Stmt `json:"stmts"`
}

// Program is a generated test program. Gs[0] is the part of the test
// goroutine that runs concurrently with the goroutines Gs[1:] it starts.
type Program struct {
	Seed int64 `json:"seed"`
	// Bugs is set when the program has a Bug form.
	Bugs bool `json:"bugs,omitempty"`
	// Planted is set when the program has a Racy form.
	Planted bool `json:"planted,omitempty"`
	// Decls are declarations of the test body before any goroutine
	// starts (channels, conditions, contexts); each is followed by a use
	// so that deleting statements never leaves an unused variable.
	Decls []string `json:"decls"`
	// BugDecls are declarations of the Bug form only, after Decls: the
	// objects of the deep bugs (deep.go), each followed by a use.
	BugDecls []string `json:"bugDecls,omitempty"`
	// Pre are sequential statements of the test goroutine before it
	// starts the others: they compute seq, whose value does not depend
	// on the schedule.
	Pre []Stmt `json:"pre,omitempty"`
	// Gs are the goroutines; Gs[0] is the test goroutine.
	Gs []*Goroutine `json:"gs"`
	// Tail are statements after the join.
	Tail []string `json:"tail,omitempty"`
	// Subtests runs the test goroutine's part and every joined goroutine
	// as parallel subtests (t.Run, t.Parallel) instead: they run side by
	// side once the test function has returned, and a cleanup, which
	// runs after them, holds the tail and the record (subtests.go).
	Subtests bool `json:"subtests,omitempty"`
}

// Forms returns the forms the program has.
func (p *Program) Forms() []Form {
	fs := []Form{Safe}
	if p.Planted {
		fs = append(fs, Racy)
	}
	if p.Bugs {
		fs = append(fs, Bug)
	}
	return fs
}

// Size is the number of statements of the program.
func (p *Program) Size() int {
	n := len(p.Pre)
	for _, g := range p.Gs {
		n += len(g.Stmts)
	}
	return n
}

// Clone returns a deep copy of p.
func (p *Program) Clone() *Program {
	q := *p
	q.Decls = append([]string(nil), p.Decls...)
	q.BugDecls = append([]string(nil), p.BugDecls...)
	q.Pre = append([]Stmt(nil), p.Pre...)
	q.Tail = append([]string(nil), p.Tail...)
	q.Gs = make([]*Goroutine, len(p.Gs))
	for i, g := range p.Gs {
		c := *g
		c.Stmts = append([]Stmt(nil), g.Stmts...)
		q.Gs[i] = &c
	}
	return &q
}

// Kinds returns the sorted, distinct statement kinds of p.
func (p *Program) Kinds() []string {
	seen := map[string]bool{}
	for _, s := range p.Pre {
		seen[s.Kind] = true
	}
	for _, g := range p.Gs {
		for _, s := range g.Stmts {
			seen[s.Kind] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Line locates a statement of a rendered program.
type Line struct {
	Form Form
	G    int // goroutine; -1 for Pre
	S    int // statement index
}

// Rendered is the source of a program and where each statement is.
type Rendered struct {
	Source string
	// Lines maps a line number of the test file to the statement on it.
	Lines map[int]Line
	// Planted is the line of the planted race in the Racy form (0: none).
	Planted int
	// HeaderEnd is the last line of the helpers before the tests: code
	// there (a method) runs on behalf of the statement that calls it.
	HeaderEnd int
}

// PkgDir is the package directory inside a program's module; FileName is
// its test file.
const (
	PkgDir   = "p"
	FileName = "p_test.go"
	// OutEnv names the environment variable holding the file the test
	// appends its outcomes to.
	OutEnv = "DIFFTEST_OUT"
	// YieldEnv, when set in a native run, makes the test call
	// runtime.Gosched at the statements with probability 1/3.
	YieldEnv = "DIFFTEST_GOSCHED"
)

// Render returns the source of the test file. Native sources call yield()
// after every statement (on the same line, so that lines match the
// instrumented source), which calls runtime.Gosched at random when
// $DIFFTEST_GOSCHED is set.
func (p *Program) Render(native bool) *Rendered {
	var b strings.Builder
	r := &Rendered{Lines: map[int]Line{}}
	line := 1
	emit := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		b.WriteString(s)
		b.WriteByte('\n')
		line += strings.Count(s, "\n") + 1
	}
	y := ""
	if native {
		y = "; yield()"
	}
	b.WriteString(header)
	line += strings.Count(header, "\n")
	emit("%s", nativeYield)
	r.HeaderEnd = line - 1
	for _, f := range p.Forms() {
		emit("")
		emit("func %s(t *testing.T) {", f.TestName())
		emit("\tname := %q", f.TestName())
		emit("\ts := newState()")
		emit("\tres := make([]int, %d)", len(p.Gs))
		emit("\tvar wg sync.WaitGroup")
		emit("\tvar mu1, mu2 sync.Mutex")
		emit("\tvar rw1, rw2 sync.RWMutex")
		emit("\trl := rw2.RLocker()")
		emit("\tsem := make(chan struct{}, 1)")
		emit("\tctx, cancel := context.WithCancel(context.Background())")
		emit("\tdefer cancel()")
		emit("\t_, _, _, _, _, _, _, _ = &wg, &mu1, &mu2, &rw1, rl, sem, ctx, cancel")
		for _, d := range p.Decls {
			emit("\t%s", d)
		}
		if f == Bug {
			for _, d := range p.BugDecls {
				emit("\t%s", d)
			}
		}
		emit("\tseq := \"\"")
		for i, s := range p.Pre {
			if c := s.code(f); c != "" {
				r.Lines[line] = Line{Form: f, G: -1, S: i}
				emit("\t%s%s", c, y)
			}
		}
		emit("\trecord(name+\".seq\", seq)")
		if p.Subtests {
			p.renderSubtests(r, &line, emit, f, y)
			emit("}")
			continue
		}
		for gi, g := range p.Gs {
			if gi == 0 {
				continue
			}
			switch g.Join {
			case "wg":
				emit("\twg.Add(1)")
				emit("\tgo func() {")
				emit("\t\tdefer wg.Done()")
			case "go":
				emit("\twg.Go(func() {")
			case "done":
				emit("\tdone%d := make(chan struct{})", gi)
				emit("\tgo func() {")
				emit("\t\tdefer close(done%d)", gi)
			default:
				emit("\tgo func() {")
			}
			emit("\t\tacc := 0")
			p.renderStmts(r, &line, emit, f, gi, g, y)
			emit("\t\tres[%d] = acc", gi)
			if g.Join == "go" {
				emit("\t})")
			} else {
				emit("\t}()")
			}
		}
		emit("\t{")
		emit("\t\tacc := 0")
		p.renderStmts(r, &line, emit, f, 0, p.Gs[0], y)
		emit("\t\tres[0] = acc")
		emit("\t}")
		emit("\twg.Wait()")
		for gi, g := range p.Gs {
			if g.Join == "done" {
				emit("\t<-done%d", gi)
			}
		}
		for _, t := range p.Tail {
			emit("\t%s", t)
		}
		emit("\trecord(name, digest(s, res))")
		emit("}")
	}
	r.Source = b.String()
	return r
}

func (p *Program) renderStmts(r *Rendered, line *int, emit func(string, ...any), f Form, gi int, g *Goroutine, y string) {
	for si, s := range g.Stmts {
		c := s.code(f)
		if c == "" {
			continue
		}
		r.Lines[*line] = Line{Form: f, G: gi, S: si}
		if f == Racy && s.Racy != "" {
			r.Planted = *line
		}
		emit("\t\t%s%s", c, y)
	}
}

// WriteModule writes the module of p into dir: go.mod and the package p
// with its test file, instrumented-source flavor when native is false.
func (p *Program) WriteModule(dir string, native bool) (*Rendered, error) {
	r := p.Render(native)
	if err := os.MkdirAll(filepath.Join(dir, PkgDir), 0o755); err != nil {
		return nil, fmt.Errorf("difftest: writing module: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/difftest\n\ngo 1.26\n"), 0o644); err != nil {
		return nil, fmt.Errorf("difftest: writing go.mod: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, PkgDir, FileName), []byte(r.Source), 0o644); err != nil {
		return nil, fmt.Errorf("difftest: writing the test file: %w", err)
	}
	return r, nil
}

// MarshalProgram encodes p as indented JSON.
func MarshalProgram(p *Program) ([]byte, error) {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("difftest: encoding program: %w", err)
	}
	return append(b, '\n'), nil
}

// ReadProgram reads a program saved by MarshalProgram.
func ReadProgram(path string) (*Program, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("difftest: %w", err)
	}
	var p Program
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("difftest: %s: %w", path, err)
	}
	if len(p.Gs) == 0 {
		return nil, fmt.Errorf("difftest: %s: no goroutines", path)
	}
	return &p, nil
}

// header is the start of every test file: the state the goroutines share
// and the helpers.
const header = `package p

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"
)

var (
	_ = bytes.MinRead
	_ = context.Background
	_ = errors.Is
	_ = io.EOF
	_ = net.Pipe
	_ = weak.Make[int]
	_ = rand.Intn
	_ = reflect.TypeOf
	_ = runtime.Gosched
	_ = slices.Index[[]int]
	_ = strings.HasPrefix
	_ = time.Millisecond
	_ atomic.Int64
)

type inner struct{ e int }

type nested struct{ q struct{ v int } }

type cell struct{ v int }

func (c *cell) inc() { c.v++ }

type state struct {
	inner
	x    int
	p    nested
	arr  [4]int
	sl   []int
	m    map[int]int
	str  string
	ptr  any
	c    cell
	a    int64
	ai   atomic.Int64
	buf  bytes.Buffer
	sb   strings.Builder
	sm   sync.Map
	pool sync.Pool
	once int
}

var gv int

// sinkp makes an allocation escape.
var sinkp *int

// mctx is a context.Context the program implements itself, as mock
// clocks do: the standard library can only watch its Done channel.
type mctx struct {
	done chan struct{}
	once sync.Once
}

func newMctx() *mctx { return &mctx{done: make(chan struct{})} }
func (c *mctx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *mctx) Done() <-chan struct{} { return c.done }
func (c *mctx) Value(any) any { return nil }
func (c *mctx) cancel() { c.once.Do(func() { close(c.done) }) }
func (c *mctx) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}

func newState() *state {
	gv = 0
	return &state{sl: []int{1, 2, 3, 4}, m: map[int]int{1: 1, 2: 2}, ptr: &cell{}}
}

// digest is what a run computed.
func digest(s *state, res []int) string {
	keys := make([]int, 0, len(s.m))
	for k := range s.m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var m strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&m, "%d:%d,", k, s.m[k])
	}
	var sm []string
	s.sm.Range(func(k, v any) bool { sm = append(sm, fmt.Sprint(k, ":", v)); return true })
	sort.Strings(sm)
	return fmt.Sprintf("x=%d e=%d v=%d arr=%v sl=%v m=%s str=%q ptr=%d c=%d a=%d ai=%d buf=%q sb=%q sm=%v once=%d gv=%d res=%v",
		s.x, s.e, s.p.q.v, s.arr, s.sl, m.String(), s.str, s.ptr.(*cell).v, s.c.v, s.a, s.ai.Load(), s.buf.String(), s.sb.String(), sm, s.once, gv, res)
}

// record appends a line to the file named by $DIFFTEST_OUT.
func record(name, out string) {
	path := os.Getenv("DIFFTEST_OUT")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(f, "%s\t%s\n", name, out)
	f.Close()
}

`

// nativeYield is yield in native sources.
const nativeYield = `var yielding = os.Getenv("DIFFTEST_GOSCHED") != ""

func yield() {
	if yielding && rand.Intn(3) == 0 {
		runtime.Gosched()
	}
}`
