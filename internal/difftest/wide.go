package difftest

import (
	"fmt"
	"math/rand"
	"strings"
)

// The forms users showed after the first generators: programs of real
// modules and of users read memory statistics and weak pointers in cache
// tests, wait for finalizers, select through reflect, implement a
// context.Context of their own (mock clocks), and stream through io.Pipe
// and net.Pipe. widen adds such statements to half the programs, drawn
// with a generator of its own, so that the base program of every seed
// stays as it was (the additions come on top). Each sequential statement
// computes a value of seq that does not depend on the schedule (the
// semantics oracle compares it with the native one); each concurrent one
// keeps the Safe form's rule that a goroutine waits only for goroutines
// before it.

// wideSeed separates the generator of the wider forms from the program's.
const wideSeed = 0x5eed_1de4

// widePres are the sequential statements of the wider grammar. The
// allocator's counters are the process's: a goroutine of an earlier
// statement still ending allocates too (natively, 10 allocations counted
// 17 once), so seq.memstats keeps a range, wide enough for that and
// narrow enough for the tool's own allocations (9 a new(int), before
// they were subtracted).
var widePres = []Stmt{
	{Kind: "seq.allocs", Code: "seq += fmt.Sprint(testing.AllocsPerRun(100, func() { sinkp = new(int) }))"},
	{Kind: "seq.memstats", Code: "{ var ma, mb runtime.MemStats; runtime.ReadMemStats(&ma); for i := 0; i < 10; i++ { sinkp = new(int) }; runtime.ReadMemStats(&mb); d := mb.Mallocs - ma.Mallocs; seq += fmt.Sprint(d >= 10 && d < 40) }"},
	{Kind: "seq.weak", Code: "{ wp := new([16]int); w := weak.Make(wp); seq += fmt.Sprint(w.Value() == wp); wp = nil; runtime.GC(); seq += fmt.Sprint(w.Value() == nil) }"},
	{Kind: "seq.finalizer", Code: "{ fc := make(chan int, 1); fp := new([16]int); runtime.SetFinalizer(fp, func(q *[16]int) { fc <- len(q) }); fp = nil; runtime.GC(); select { case v := <-fc: seq += fmt.Sprint(v); case <-time.After(5 * time.Second): seq += \"no finalizer\" } }"},
	{Kind: "seq.addcleanup", Code: "{ fc := make(chan int, 1); fp := new([16]int); runtime.AddCleanup(fp, func(n int) { fc <- n }, 16); fp = nil; runtime.GC(); select { case v := <-fc: seq += fmt.Sprint(v); case <-time.After(5 * time.Second): seq += \"no cleanup\" } }"},
	{Kind: "seq.reflectselect", Code: "{ ra, rb := make(chan int, 1), make(chan int); ra <- 3; i, v, ok := reflect.Select([]reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(rb)}, {Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ra)}}); seq += fmt.Sprint(i, v.Int(), ok, len(ra)) }"},
	{Kind: "seq.mctx", Code: "{ mc := newMctx(); c2, cc := context.WithCancel(mc); defer cc(); seq += fmt.Sprint(c2.Err()); mc.cancel(); <-c2.Done(); seq += fmt.Sprint(c2.Err()) }"},
	{Kind: "seq.iopipe", Code: "{ pr, pw := io.Pipe(); go func() { pw.Write([]byte(\"ab\")); pw.CloseWithError(io.ErrUnexpectedEOF) }(); b, err := io.ReadAll(pr); seq += fmt.Sprint(string(b), err) }"},
	{Kind: "seq.netpipe", Code: "{ c1, c2 := net.Pipe(); go func() { c1.Write([]byte(\"xyz\")); c1.Close() }(); b, err := io.ReadAll(c2); c2.Close(); seq += fmt.Sprint(string(b), err) }"},
	{Kind: "seq.netdeadline", Code: "{ c1, c2 := net.Pipe(); c2.SetReadDeadline(time.Now().Add(time.Millisecond)); _, err := c2.Read(make([]byte, 1)); seq += fmt.Sprint(errors.Is(err, os.ErrDeadlineExceeded)); c1.Close(); c2.Close() }"},
}

// wideRuntime are statements on the runtime that any goroutine may run.
var wideRuntime = []Stmt{
	{Kind: "runtime.gc", Code: "runtime.GC()"},
	{Kind: "runtime.weak", Code: "{ wp := new([16]int); w := weak.Make(wp); if w.Value() == wp { acc++ }; runtime.KeepAlive(wp) }"},
	{Kind: "runtime.memstats", Code: "{ var ms runtime.MemStats; runtime.ReadMemStats(&ms); if ms.Mallocs > 0 { acc++ } }"},
	{Kind: "runtime.finalizer", Code: "{ fc := make(chan int, 1); fp := new([16]int); runtime.SetFinalizer(fp, func(*[16]int) { fc <- 1 }); fp = nil; runtime.GC(); select { case v := <-fc: acc += v; case <-time.After(5 * time.Second): acc += 100 } }"},
}

// widen adds the wider grammar's statements to half the programs.
func widen(p *Program, n int) {
	r := rand.New(rand.NewSource(p.Seed ^ wideSeed))
	if r.Intn(2) == 0 {
		return
	}
	if r.Intn(2) == 0 {
		p.Pre = append(p.Pre, widePres[r.Intn(len(widePres))])
	}
	for k := 1 + r.Intn(2); k > 0 && p.Size()-len(p.Pre)+2 <= 40; k-- {
		a := r.Intn(n - 1)
		b := a + 1 + r.Intn(n-1-a)
		id := len(p.Decls) + 100
		switch r.Intn(5) {
		case 0: // an io.Pipe: a goroutine a starts streams into it, b reads it all
			msgs := []string{`"ab"`, `"c"`, `"def"`}[:1+r.Intn(3)]
			p.Decls = append(p.Decls, fmt.Sprintf("pr%[1]d, pw%[1]d := io.Pipe(); _, _ = pr%[1]d, pw%[1]d", id))
			insert(p, r, a, Stmt{Kind: "pipe.write", Code: fmt.Sprintf("go func() { for _, m := range []string{%s} { pw%d.Write([]byte(m)) }; pw%d.Close() }()", strings.Join(msgs, ", "), id, id)})
			insert(p, r, b, Stmt{Kind: "pipe.readall", Code: fmt.Sprintf("{ b, _ := io.ReadAll(pr%d); acc += len(b) }", id)})
		case 1: // a net.Pipe, the same way, from both ends' sides
			p.Decls = append(p.Decls, fmt.Sprintf("nc%[1]d, nd%[1]d := net.Pipe(); _, _ = nc%[1]d, nd%[1]d", id))
			insert(p, r, a, Stmt{Kind: "netpipe.write", Code: fmt.Sprintf("go func() { nc%[1]d.Write([]byte(\"%[2]s\")); nc%[1]d.Close() }()", id, []string{"a", "bc", "def"}[r.Intn(3)])})
			insert(p, r, b, Stmt{Kind: "netpipe.readall", Code: fmt.Sprintf("{ b, _ := io.ReadAll(nd%[1]d); acc += len(b); nd%[1]d.Close() }", id)})
		case 2: // a child of a context the program implements itself
			p.Decls = append(p.Decls, fmt.Sprintf("mc%[1]d := newMctx(); mcc%[1]d, mcancel%[1]d := context.WithCancel(mc%[1]d); defer mcancel%[1]d(); _ = mcc%[1]d", id))
			insert(p, r, a, Stmt{Kind: "mctx.cancel", Code: fmt.Sprintf("mc%d.cancel()", id)})
			insert(p, r, b, Stmt{Kind: "mctx.done", Code: fmt.Sprintf("<-mcc%[1]d.Done(); acc += len(mcc%[1]d.Err().Error())", id)})
		case 3: // the runtime, from any goroutine
			insert(p, r, r.Intn(n), wideRuntime[r.Intn(len(wideRuntime))])
		default: // a cleanup of the test, registered by the test goroutine
			insert(p, r, 0, Stmt{Kind: "test.cleanup", Code: "t.Cleanup(func() { if len(res) == 0 { t.Error(\"no results\") } })"})
		}
	}
}

// liveSeed separates the generator of the liveness forms from the others.
const liveSeed = 0x11fe_5eed

// livePres are sequential statements of what real modules showed after
// the wider grammar (maypok86/otter's cache tests): memory that only an
// ended goroutine touched last is collected, and a local that only a
// deferred or immediately called literal captures stays on the stack, so
// testing.AllocsPerRun counts nothing for it.
var livePres = []Stmt{
	{Kind: "seq.gclastaccess", Code: "{ fc := make(chan int, 1); jd := make(chan struct{}); func() { fp := new([16]int); runtime.AddCleanup(fp, func(n int) { fc <- n }, 16); go func() { <-jd; fp[1]++ }() }(); close(jd); got := \"no cleanup\"; for i := 0; i < 100 && got == \"no cleanup\"; i++ { time.Sleep(time.Millisecond); runtime.GC(); select { case v := <-fc: got = fmt.Sprint(v); case <-time.After(10 * time.Millisecond): } }; seq += got }"},
	{Kind: "seq.deferflag", Code: "seq += fmt.Sprint(testing.AllocsPerRun(100, func() { done := false; defer func() { if !done { sinkp = new(int) } }(); done = true }))"},
	{Kind: "seq.calledlit", Code: "seq += fmt.Sprint(testing.AllocsPerRun(100, func() { k := 0; func() { k++ }(); if k != 1 { sinkp = new(int) } }))"},
}

// live adds one of livePres to a quarter of the programs (generator
// version 5), drawn with a generator of its own, so that every program
// of version 4 stays as it was otherwise.
func live(p *Program) {
	r := rand.New(rand.NewSource(p.Seed ^ liveSeed))
	if r.Intn(4) == 0 {
		p.Pre = append(p.Pre, livePres[r.Intn(len(livePres))])
	}
}

// stackSeed separates the generator of the stack forms from the others.
const stackSeed = 0x57ac_5eed

// stackPres are sequential statements of what testify's assertions
// showed: the frames under the test's function, which the program walks
// with runtime.Callers and runtime.Caller, are testing.tRunner's and
// runtime.goexit's, as natively, not the scheduler's.
var stackPres = []Stmt{
	{Kind: "seq.callers", Code: `{ pcs := make([]uintptr, 16); fs := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)]); for { f, more := fs.Next(); seq += f.File[strings.LastIndex(f.File, "/")+1:] + ":" + fmt.Sprint(f.Line) + " "; if !more { break } } }`},
	{Kind: "seq.caller", Code: "{ n := 0; for i := 0; i < 20; i++ { if _, _, _, ok := runtime.Caller(i); ok { n++ } }; seq += fmt.Sprint(n) }"},
}

// stacks adds one of stackPres to a quarter of the programs (generator
// version 6), drawn with a generator of its own, so that every program
// of version 5 stays as it was otherwise.
func stacks(p *Program) {
	r := rand.New(rand.NewSource(p.Seed ^ stackSeed))
	if r.Intn(4) == 0 {
		p.Pre = append(p.Pre, stackPres[r.Intn(len(stackPres))])
	}
}
