//line testdata/aftercall.go:1
// An assignment stores its values after evaluating its operands, calls
// included, and an expression loads the variables it reads (outside the
// operands of its calls) after its calls: such accesses are reported after
// the statement.
package aftercall; import __rt "interleave.dev/rt"

type worker struct {
	r    chan int
	n    int
	next *worker
}

func (w *worker) start() chan int {
	c := __rt.MakeChan[int](0, __rtSites_c2e0d4cf+0)
	__rt.Go(func() { __rt.Recv[int](c, __rtSites_c2e0d4cf+2); __rt.Read(&w.r, __rtSites_c2e0d4cf+5); _ = w.r }, __rtSites_c2e0d4cf+1)
	return c
}

func (w *worker) count() int { __rt.Read(&w.n, __rtSites_c2e0d4cf+6); return w.n }

var global int

func Start(w *worker, c chan int, ws []*worker) int {
	w.r = w.start(); __rt.Wrote(&w.r, __rtSites_c2e0d4cf+7);       // written when start has returned
	x := w.count() + w.n; __rt.Read(&w.n, __rtSites_c2e0d4cf+8);  // w.n is read after count
	w.n = __rt.Recv[int](c, __rtSites_c2e0d4cf+3); __rt.Wrote(&w.n, __rtSites_c2e0d4cf+9);             // written after the receive
	w.n = w.count(); __rt.Wrote(&w.n, __rtSites_c2e0d4cf+10);       // the operand w is read before the call, w.n written after it
	var y = w.count() * w.n; __rt.Read(&w.n, __rtSites_c2e0d4cf+11); 
	__rt.Write(&w.n, __rtSites_c2e0d4cf+12); w, w.n = nil, w.count() // w.n's address depends on w, which the statement assigns
	__rt.Read(&ws[0], __rtSites_c2e0d4cf+13); ws[0].n = ws[0].count(); __rt.Read(&ws[0], __rtSites_c2e0d4cf+14); __rt.Wrote(&ws[0].n, __rtSites_c2e0d4cf+15); 
	__rt.Read(&global, __rtSites_c2e0d4cf+16); var (
		global = w.count() + global // global is read before the statement declares a new one
	)
	_ = global
	return x + y
}

func Init(w *worker, c chan int) int {
	if x := __rt.Recv[int](c, __rtSites_c2e0d4cf+4) + w.n; func() bool { __rt.Read(&w.n, __rtSites_c2e0d4cf+17); return true }() && (x > 0) { // w.n is read after the receive, where the condition is evaluated
		return x
	}
	if w.r = w.start(); func() bool { __rt.Wrote(&w.r, __rtSites_c2e0d4cf+18); return true }() && (func() bool { __rt.Read(&w.r, __rtSites_c2e0d4cf+19); return true }() && (w.r != nil)) {
		return 1
	}
	return 0
}

func Conditional(w *worker, ok func() bool) bool {
	__rt.Read(&w.n, __rtSites_c2e0d4cf+20); b := w.n > 0 && ok() // w.n is read before ok, which may not run
	b = ok() || w.n > 0  // w.n is read only sometimes: not instrumented
	return b
}

func NoCall(w *worker) {
	__rt.Update(&w.n, __rtSites_c2e0d4cf+21); w.n = w.n + 1 // no call: before the statement, as any access
	__rt.Update(&w.n, __rtSites_c2e0d4cf+22); w.n++
}

var __rtSites_c2e0d4cf = __rt.RegisterFile("testdata/aftercall.go", "c*c\n\nc*c\nc*c\nc*c\nv*w.r\nv*w.n\nv*w.r\nv*w.n\nv*w.n\nv*w.n\nv*w.n\nv*w.n\nv*ws[0]\nv*ws[0]\nv*ws[0].n\nv*global\nv*w.n\nv*w.r\nv*w.r\nv*w.n\nv*w.n\nv*w.n", 14, 7, 15, 2, 15, 14, 26, 8, 39, 10, 15, 23, 19, 39, 24, 2, 25, 19, 26, 2, 27, 2, 28, 22, 29, 5, 30, 12, 30, 2, 30, 2, 32, 24, 39, 16, 42, 5, 42, 22, 49, 7, 55, 8, 56, 2)
