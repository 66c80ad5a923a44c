// Package gcwait has a test whose runtime.GC waits, natively, for a
// cleanup the runtime cannot hand over yet: the runtime's cleanup
// goroutine is busy with one registered before the exploration.
package gcwait

import (
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

var busy = make(chan bool)

func TestMain(m *testing.M) {
	func() {
		p := new([64]byte)
		runtime.AddCleanup(p, func(int) {
			close(busy)
			time.Sleep(3 * time.Second)
		}, 0)
	}()
	runtime.GC()
	<-busy
	os.Exit(m.Run())
}

func TestGCWhileTheRuntimeIsBusy(t *testing.T) {
	done := make(chan bool)
	go func() {
		for range 3 {
			runtime.Gosched()
		}
		done <- true
	}()
	var cleaned atomic.Bool
	func() {
		p := new([64]byte)
		runtime.AddCleanup(p, func(int) { cleaned.Store(true) }, 0)
	}()
	runtime.GC()
	<-done
}
