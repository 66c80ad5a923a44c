package rt_test

import (
	"sync"
	"testing"
	"time"

	"interleave.dev/rt"
)

// Happens-before through channels follows the Go memory model exactly:
// a send is ordered before the receive of its value, the k-th receive
// before the (k+C)-th send completes, a close before a receive that sees
// it, and nothing else.

func raceOf(t *testing.T, body func()) string {
	t.Helper()
	// Idle timers: a sleeping goroutine wakes only when nothing else can
	// run, so sleeps order the goroutines without any happens-before.
	rep, err := rt.Explore(t.Name(), rt.Options{Strategy: "dfs", Timers: "idle", Schedules: 5000, ScheduleDir: "-"}, body)
	if err != nil {
		t.Fatal(err)
	}
	return rep.Kind
}

func TestHBTwoSendersDoNotSynchronize(t *testing.T) {
	// Two sends on a buffered channel order nothing between the senders.
	if k := raceOf(t, func() {
		c := rt.MakeChan[int](10, 0)
		x := 0
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Write(&x, 0); x = 1; rt.Send(c, 1, 0) }, 0)
		rt.WGGo(&wg, func() { rt.Sleep(time.Millisecond, 0); rt.Send(c, 2, 0); rt.Write(&x, 0); x = 2 }, 0)
		rt.WGWait(&wg, 0)
	}); k != "data race" {
		t.Errorf("got %q, want a data race", k)
	}
}

func TestHBSendBeforeReceive(t *testing.T) {
	if k := raceOf(t, func() {
		c := rt.MakeChan[int](1, 0)
		x := 0
		rt.Go(func() { rt.Write(&x, 0); x = 1; rt.Send(c, 1, 0) }, 0)
		rt.Recv(c, 0)
		rt.Read(&x, 0)
		_ = x
	}); k != "" {
		t.Errorf("got %q, want nothing", k)
	}
}

func TestHBReceiveBeforeSendCapacityLater(t *testing.T) {
	// A channel of capacity 1 as a mutex: the k-th receive (unlock) is
	// ordered before the (k+1)-th send (lock) completes.
	if k := raceOf(t, func() {
		sem := rt.MakeChan[struct{}](1, 0)
		x := 0
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			rt.WGGo(&wg, func() {
				rt.Send(sem, struct{}{}, 0)
				rt.Write(&x, 0)
				x++
				rt.Recv(sem, 0)
			}, 0)
		}
		rt.WGWait(&wg, 0)
	}); k != "" {
		t.Errorf("got %q, want nothing", k)
	}
}

func TestHBTwoReceiversDoNotSynchronize(t *testing.T) {
	if k := raceOf(t, func() {
		c := rt.MakeChan[int](2, 0)
		rt.Send(c, 1, 0)
		rt.Send(c, 2, 0)
		x := 0
		var wg sync.WaitGroup
		rt.WGGo(&wg, func() { rt.Write(&x, 0); x = 1; rt.Recv(c, 0) }, 0)
		rt.WGGo(&wg, func() { rt.Sleep(time.Millisecond, 0); rt.Recv(c, 0); rt.Write(&x, 0); x = 2 }, 0)
		rt.WGWait(&wg, 0)
	}); k != "data race" {
		t.Errorf("got %q, want a data race", k)
	}
}

func TestHBCloseBeforeReceiveThatSeesIt(t *testing.T) {
	if k := raceOf(t, func() {
		done := rt.MakeChan[struct{}](0, 0)
		x := 0
		rt.Go(func() { rt.Write(&x, 0); x = 1; rt.Close(done, 0) }, 0)
		rt.Recv(done, 0)
		rt.Read(&x, 0)
		_ = x
	}); k != "" {
		t.Errorf("got %q, want nothing", k)
	}
}

func TestHBSendToWaitingReceiverOfBufferedChannel(t *testing.T) {
	// The receiver waits on the empty channel before the value comes (the
	// sender sleeps first): the value goes straight to it. On a buffered
	// channel only the send is still ordered before the receive, as
	// through the buffer: the receiver's write before its receive races
	// with the sender's read after its send (go test -race reports it).
	// On an unbuffered one the receive is ordered before the send
	// completes too: no race.
	for _, c := range []struct {
		capacity int
		want     string
	}{{3, "data race"}, {0, ""}} {
		if k := raceOf(t, func() {
			ch := rt.MakeChan[int](c.capacity, 0)
			x := 0
			var wg sync.WaitGroup
			rt.WGGo(&wg, func() { rt.Sleep(time.Millisecond, 0); rt.Send(ch, 1, 0); rt.Read(&x, 0); _ = x }, 0)
			rt.WGGo(&wg, func() { rt.Write(&x, 0); x = 1; rt.Recv(ch, 0) }, 0)
			rt.WGWait(&wg, 0)
		}); k != c.want {
			t.Errorf("capacity %d: got %q, want %q", c.capacity, k, c.want)
		}
	}
}
