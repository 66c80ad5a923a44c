package rt

import "runtime"

// Go starts f in a new goroutine: it replaces the statement "go f(args)".
// The instrumenter evaluates the function value and its arguments before
// the call, as the go statement does, and passes a closure over them.
func Go(f func(), s Site) {
	if g := cur(); g != nil {
		g.Go(f, uint32(s))
		return
	}
	go f()
}

// Gosched replaces runtime.Gosched: a yield.
func Gosched(s Site) {
	if g := cur(); g != nil {
		g.Yield(uint32(s))
		return
	}
	runtime.Gosched()
}

// Goexit replaces runtime.Goexit.
func Goexit(s Site) {
	if g := cur(); g != nil {
		g.Yield(uint32(s))
	}
	runtime.Goexit()
}
