package rt

import "runtime"

// Go starts f in a new goroutine: it replaces the statement "go f(args)".
// The instrumenter evaluates the function value and its arguments before
// the call, as the go statement does, and passes a closure over them.
func Go(f func(), s Site) {
	go f()
}

// Gosched replaces runtime.Gosched: a yield.
func Gosched(s Site) {
	runtime.Gosched()
}

// Goexit replaces runtime.Goexit.
func Goexit(s Site) {
	runtime.Goexit()
}
