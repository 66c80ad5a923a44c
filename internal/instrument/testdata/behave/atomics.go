// Atomic functions and typed values shared by many goroutines.
package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type config struct{ name string }

var hits int64

func main() {
	var wg sync.WaitGroup
	var n atomic.Int32
	var flag atomic.Bool
	var cfg atomic.Pointer[config]
	var val atomic.Value
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&hits, 2)
			n.Add(1)
			flag.CompareAndSwap(false, true)
		}()
	}
	wg.Wait()
	cfg.Store(&config{name: "prod"})
	val.Store("v1")
	old := val.Swap("v2")
	fmt.Println(atomic.LoadInt64(&hits), n.Load(), flag.Load(), cfg.Load().name, old, val.Load())
	var u uint32
	atomic.StoreUint32(&u, 3)
	swapped := atomic.CompareAndSwapUint32(&u, 3, 4)
	fmt.Println(u, swapped, atomic.OrUint32(&u, 1), atomic.LoadUint32(&u))
}
