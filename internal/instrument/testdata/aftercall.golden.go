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
	__rt.Go(func() { __rt.Recv[int](c, __rtSites_c2e0d4cf+2); __rt.Read(&w.r, __rtSites_c2e0d4cf+4); _ = w.r }, __rtSites_c2e0d4cf+1)
	return c
}

func (w *worker) count() int { __rt.Read(&w.n, __rtSites_c2e0d4cf+5); return w.n }

func Start(w *worker, c chan int, ws []*worker) int {
	w.r = w.start(); __rt.Write(&w.r, __rtSites_c2e0d4cf+6);       // written when start has returned
	x := w.count() + w.n; __rt.Read(&w.n, __rtSites_c2e0d4cf+7);  // w.n is read after count
	w.n = __rt.Recv[int](c, __rtSites_c2e0d4cf+3); __rt.Write(&w.n, __rtSites_c2e0d4cf+8);             // written after the receive
	w.n = w.count(); __rt.Write(&w.n, __rtSites_c2e0d4cf+9);       // the operand w is read before the call, w.n written after it
	var y = w.count() * w.n; __rt.Read(&w.n, __rtSites_c2e0d4cf+10); 
	__rt.Write(&w.n, __rtSites_c2e0d4cf+11); w, w.n = nil, w.count() // w.n's address depends on w, which the statement assigns
	__rt.Read(&ws[0], __rtSites_c2e0d4cf+12); ws[0].n = ws[0].count(); __rt.Read(&ws[0], __rtSites_c2e0d4cf+13); __rt.Write(&ws[0].n, __rtSites_c2e0d4cf+14); 
	return x + y
}

func Conditional(w *worker, ok func() bool) bool {
	__rt.Read(&w.n, __rtSites_c2e0d4cf+15); b := w.n > 0 && ok() // w.n is read before ok, which may not run
	b = ok() || w.n > 0  // w.n is read only sometimes: not instrumented
	return b
}

func NoCall(w *worker) {
	__rt.Write(&w.n, __rtSites_c2e0d4cf+16); w.n = w.n + 1 // no call: before the statement, as any access
	__rt.Write(&w.n, __rtSites_c2e0d4cf+17); w.n++
}

var __rtSites_c2e0d4cf = __rt.RegisterFile("testdata/aftercall.go", 14, 7, 15, 2, 15, 14, 24, 8, 15, 23, 19, 39, 22, 2, 23, 19, 24, 2, 25, 2, 26, 22, 27, 5, 28, 12, 28, 2, 28, 2, 33, 7, 39, 8, 40, 2)
