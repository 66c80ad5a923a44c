// An assignment stores its values after evaluating its operands, calls
// included, and an expression loads the variables it reads (outside the
// operands of its calls) after its calls: such accesses are reported after
// the statement.
package aftercall

type worker struct {
	r    chan int
	n    int
	next *worker
}

func (w *worker) start() chan int {
	c := make(chan int)
	go func() { <-c; _ = w.r }()
	return c
}

func (w *worker) count() int { return w.n }

var global int

func Start(w *worker, c chan int, ws []*worker) int {
	w.r = w.start()      // written when start has returned
	x := w.count() + w.n // w.n is read after count
	w.n = <-c            // written after the receive
	w.n = w.count()      // the operand w is read before the call, w.n written after it
	var y = w.count() * w.n
	w, w.n = nil, w.count() // w.n's address depends on w, which the statement assigns
	ws[0].n = ws[0].count()
	var (
		global = w.count() + global // global is read before the statement declares a new one
	)
	_ = global
	return x + y
}

func Init(w *worker, c chan int) int {
	if x := <-c + w.n; x > 0 { // w.n is read after the receive, where the condition is evaluated
		return x
	}
	if w.r = w.start(); w.r != nil {
		return 1
	}
	return 0
}

func Conditional(w *worker, ok func() bool) bool {
	b := w.n > 0 && ok() // w.n is read before ok, which may not run
	b = ok() || w.n > 0  // w.n is read only sometimes: not instrumented
	return b
}

func NoCall(w *worker) {
	w.n = w.n + 1 // no call: before the statement, as any access
	w.n++
}
