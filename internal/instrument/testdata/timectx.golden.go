//line testdata/timectx.go:1
package timectx; import __rt "interleave.dev/rt"

import (
	"context"
	"errors"
	_ "runtime"
	"time"
)

func Time(d time.Duration) time.Duration {
	start := __rt.Now(__rtSites_21744613+0)
	__rt.Sleep(d, __rtSites_21744613+1)
	__rt.Recv[time.Time](__rt.After(d, __rtSites_21744613+3), __rtSites_21744613+2)
	t := __rt.NewTimer(d, __rtSites_21744613+4)
	if !__rt.TimerStop(t, __rtSites_21744613+5) {
		__rt.Read(&t.C, __rtSites_21744613+32); __rt.Recv[time.Time](t.C, __rtSites_21744613+6)
	}
	__rt.TimerReset(t, d, __rtSites_21744613+7)
	tk := __rt.NewTicker(d, __rtSites_21744613+8)
	__rt.TickerReset(tk, 2 * d, __rtSites_21744613+9)
	__rt.TickerStop(tk, __rtSites_21744613+10)
	_ = __rt.Tick(d, __rtSites_21744613+11)
	af := __rt.AfterFunc(d, func() {}, __rtSites_21744613+12)
	__rt.TimerStop(af, __rtSites_21744613+13)
	_ = __rt.Until(start, __rtSites_21744613+14)
	now := func() time.Time { return __rt.Now(__rtSites_21744613+15) }
	_ = now()
	return __rt.Since(start, __rtSites_21744613+16)
}

func Context(parent context.Context) error {
	ctx, cancel := __rt.WithCancel(parent, __rtSites_21744613+17)
	defer cancel()
	ctx2, cancel2 := __rt.WithTimeout(ctx, time.Second, __rtSites_21744613+18)
	defer cancel2()
	ctx3, cancel3 := __rt.WithDeadline(ctx2, __rt.Now(__rtSites_21744613+20).Add(time.Second), __rtSites_21744613+19)
	defer cancel3()
	ctx4, cancel4 := __rt.WithCancelCause(ctx3, __rtSites_21744613+21)
	cancel4(errors.New("done"))
	ctx5, cancel5 := __rt.WithTimeoutCause(ctx4, time.Second, errors.New("slow"), __rtSites_21744613+22)
	defer cancel5()
	ctx6, cancel6 := __rt.WithDeadlineCause(ctx5, __rt.Now(__rtSites_21744613+24), errors.New("late"), __rtSites_21744613+23)
	defer cancel6()
	stop := __rt.ContextAfterFunc(ctx6, func() {}, __rtSites_21744613+25)
	defer stop()
	_ = __rt.WithoutCancel(ctx6, __rtSites_21744613+26)
	__rt.ReadRecv(ctx6, "Done", __rtSites_21744613+33); { __rtC2, __rtC3 := ctx6.Done(), __rt.After(time.Millisecond, __rtSites_21744613+28); __rtSel1 := __rt.SelectStart(__rtSites_21744613+27); __rt.SelectRecv[struct{}](__rtSel1, __rtC2); __rt.SelectRecv[time.Time](__rtSel1, __rtC3); switch __rtSel1.Do(false) {
	case 0:
	default:
	}}
	return __rt.Cause(ctx6, __rtSites_21744613+29)
}

func Yield() {
	__rt.Gosched(__rtSites_21744613+30)
	defer __rt.Goexit(__rtSites_21744613+31)
}

var __rtSites_21744613 = __rt.RegisterFile("testdata/timectx.go", "\n\nc*time.After(d)\n\n\n\nc*t.C\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nc<ctx6.Done()\tc<time.After(time.Millisecond)\n\n\n\n\nv*t.C\nv*ctx6", 11, 11, 12, 2, 13, 2, 13, 4, 14, 7, 15, 6, 16, 3, 18, 2, 19, 8, 20, 2, 21, 2, 22, 6, 23, 8, 24, 2, 25, 6, 26, 9, 28, 9, 32, 17, 34, 19, 36, 19, 36, 46, 38, 19, 40, 19, 42, 19, 42, 51, 44, 10, 46, 6, 47, 2, 49, 9, 51, 9, 55, 2, 56, 8, 16, 5, 48, 14)
