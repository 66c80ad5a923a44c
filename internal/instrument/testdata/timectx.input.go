package timectx

import (
	"context"
	"errors"
	"runtime"
	"time"
)

func Time(d time.Duration) time.Duration {
	start := time.Now()
	time.Sleep(d)
	<-time.After(d)
	t := time.NewTimer(d)
	if !t.Stop() {
		<-t.C
	}
	t.Reset(d)
	tk := time.NewTicker(d)
	tk.Reset(2 * d)
	tk.Stop()
	_ = time.Tick(d)
	af := time.AfterFunc(d, func() {})
	af.Stop()
	_ = time.Until(start)
	now := time.Now
	_ = now()
	return time.Since(start)
}

func Context(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	ctx2, cancel2 := context.WithTimeout(ctx, time.Second)
	defer cancel2()
	ctx3, cancel3 := context.WithDeadline(ctx2, time.Now().Add(time.Second))
	defer cancel3()
	ctx4, cancel4 := context.WithCancelCause(ctx3)
	cancel4(errors.New("done"))
	ctx5, cancel5 := context.WithTimeoutCause(ctx4, time.Second, errors.New("slow"))
	defer cancel5()
	ctx6, cancel6 := context.WithDeadlineCause(ctx5, time.Now(), errors.New("late"))
	defer cancel6()
	stop := context.AfterFunc(ctx6, func() {})
	defer stop()
	_ = context.WithoutCancel(ctx6)
	select {
	case <-ctx6.Done():
	case <-time.After(time.Millisecond):
	}
	return context.Cause(ctx6)
}

func Yield() {
	runtime.Gosched()
	defer runtime.Goexit()
}
