//go:build !go1.24

package rt

import "runtime"

// GC replaces runtime.GC. Before Go 1.24 the model keeps alive the memory
// it refers to until the iteration ends (sched.CollectGarbage).
func GC(s Site) {
	if g := cur(); g != nil {
		g.CollectGarbage()
		return
	}
	runtime.GC()
}

// SetFinalizer replaces runtime.SetFinalizer; before Go 1.24 the
// finalizer runs as natively, on the runtime's goroutine.
func SetFinalizer(obj, finalizer any, s Site) { runtime.SetFinalizer(obj, finalizer) }
