// Timers, tickers and contexts with short real durations.
package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

func main() {
	start := time.Now()
	time.Sleep(time.Millisecond)
	<-time.After(time.Millisecond)
	t := time.NewTimer(time.Hour)
	fmt.Println("stopped", t.Stop())
	tk := time.NewTicker(time.Millisecond)
	<-tk.C
	tk.Stop()
	fired := make(chan bool)
	time.AfterFunc(time.Millisecond, func() { fired <- true })
	fmt.Println("fired", <-fired)
	fmt.Println("elapsed", time.Since(start) > 0)

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(time.Millisecond)
		cancel()
	}()
	<-ctx.Done()
	fmt.Println("ctx", ctx.Err())

	tctx, tcancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer tcancel()
	select {
	case <-tctx.Done():
		fmt.Println("timeout", tctx.Err())
	case <-time.After(time.Minute):
		fmt.Println("too slow")
	}
	cctx, ccancel := context.WithCancelCause(context.Background())
	ccancel(errors.New("because"))
	fmt.Println("cause", context.Cause(cctx))
}
