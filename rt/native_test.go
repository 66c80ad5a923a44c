package rt_test

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"interleave.dev/rt"
	"interleave.dev/rt/wire"
)

func TestParkedGoroutinesRunWhileTheHolderBlocksNatively(t *testing.T) {
	// The test goroutine waits natively (a channel the tool does not
	// model, as a socket is) for a controlled goroutine that the schedule
	// left parked: that goroutine must run meanwhile, though no goroutine
	// was ever adopted.
	rep, err := rt.Explore("NativePeer", rt.Options{Schedules: 30, StuckAfter: 3 * time.Second, ScheduleDir: "-"}, func() {
		c := make(chan int) // native
		rt.Go(func() { c <- 1 }, 0)
		if <-c != 1 {
			panic("wrong value")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || rep.Schedules != 30 {
		t.Fatalf("got %q after %d schedules:\n%s", rep.Kind, rep.Schedules, rep.Text)
	}
}

func TestLoopbackPeerMakesProgress(t *testing.T) {
	// A server goroutine and a client over a real TCP connection on the
	// loopback interface, both controlled: each waits natively for the
	// other in turn.
	rep, err := rt.Explore("Loopback", rt.Options{Schedules: 20, StuckAfter: 3 * time.Second, ScheduleDir: "-"}, func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		defer ln.Close()
		rt.Go(func() {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Write([]byte(strings.ToUpper(line)))
		}, 0)
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			panic(err)
		}
		defer c.Close()
		c.Write([]byte("ping\n"))
		if line, _ := bufio.NewReader(c).ReadString('\n'); line != "PING\n" {
			panic("got " + line)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || rep.Schedules != 20 {
		t.Fatalf("got %q after %d schedules:\n%s", rep.Kind, rep.Schedules, rep.Text)
	}
}

func stuckEarlier(block chan struct{}) { <-block }
func stuckNow(block chan struct{})     { <-block }

func TestStuckNamesTheGoroutineOfThisTest(t *testing.T) {
	// A goroutine abandoned stuck by an earlier exploration is still
	// blocked where it was left; the report of a later one names its own.
	block := make(chan struct{})
	defer close(block)
	for _, body := range []func(chan struct{}){stuckEarlier, stuckNow} {
		rep, err := rt.Explore("Stuck", rt.Options{StuckAfter: 200 * time.Millisecond, ScheduleDir: "-"}, func() { body(block) })
		if err != nil {
			t.Fatal(err)
		}
		if rep.Kind != "stuck" {
			t.Fatalf("got %q:\n%s", rep.Kind, rep.Text)
		}
	}
	// Nobody holds the schedule: the test goroutine is out, and so was
	// the goroutine of the earlier exploration.
	rep, _ := rt.Explore("Stuck", rt.Options{StuckAfter: 200 * time.Millisecond, ScheduleDir: "-"}, func() { stuckNow(block) })
	if !strings.Contains(rep.Message, "rt_test.stuckNow") || strings.Contains(rep.Text, "stuckEarlier") {
		t.Errorf("the report names another test's goroutine:\n%s\n%s", rep.Message, rep.Text)
	}
}

func TestReplayDivergingWhereAGoroutineExits(t *testing.T) {
	// The choice the schedule does not have comes at the exit of
	// goroutine 2 (the test goroutine goes on after its first go
	// statement, goroutine 2 runs after the second), which has no
	// operation left to park in: the replay says it diverged.
	body := func() {
		for i := 0; i < 2; i++ {
			rt.Go(func() {}, 0)
		}
		rt.Gosched(0)
	}
	s := &wire.Schedule{Version: 1, Test: "Exit", Strategy: "random", EventHash: "1", Choices: []int{1, 2, 99}}
	rep, err := rt.Explore("Exit", rt.Options{Strategy: "replay", Replay: s, ScheduleDir: "-"}, body)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Diverged == "" || rep.Kind != "" {
		t.Fatalf("got %q, diverged %q:\n%s", rep.Kind, rep.Diverged, rep.Text)
	}
}

func TestTimeoutWaitsForAGoroutineAway(t *testing.T) {
	// Goroutine 2 waits natively for an answer that comes 30ms later in
	// real time (a peer over a socket); the test goroutine waits for it in
	// the model, with a one-second timeout. Nothing controlled can run
	// meanwhile, but the timeout must not fire while goroutine 2 may still
	// come back: natively it never does.
	timeouts := 0
	rep, err := rt.Explore("Away", rt.Options{Schedules: 5, StuckAfter: 3 * time.Second, ScheduleDir: "-"}, func() {
		answer := make(chan int) // native
		go func() {
			time.Sleep(30 * time.Millisecond)
			answer <- 1
		}()
		res := rt.MakeChan[int](1, 0)
		rt.Go(func() { rt.Send(res, <-answer, 0) }, 0)
		sel := rt.SelectStart(0)
		rt.SelectRecv(sel, (<-chan int)(res))
		rt.SelectRecv(sel, rt.After(time.Second, 0))
		if sel.Do(false) != 0 {
			timeouts++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" || timeouts != 0 {
		t.Fatalf("got %q, %d timeouts in %d schedules:\n%s", rep.Kind, timeouts, rep.Schedules, rep.Text)
	}
}

func TestDeadlineOfARealConnectionIsOnTheWallClock(t *testing.T) {
	// The virtual clock lags the wall clock by the 300ms the goroutine
	// spent natively; a read deadline 200ms ahead of virtual now must
	// still be ahead on the socket, whose peer has answered.
	rep, err := rt.Explore("Deadline", rt.Options{Schedules: 3, StuckAfter: 5 * time.Second, ScheduleDir: "-"}, func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		defer ln.Close()
		go func() { // native: the peer
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			time.Sleep(50 * time.Millisecond)
			c.Write([]byte("late"))
			time.Sleep(50 * time.Millisecond)
		}()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			panic(err)
		}
		defer c.Close()
		time.Sleep(300 * time.Millisecond) // native: the virtual clock stays
		if err := rt.SetReadDeadline(c, rt.Now(0).Add(200*time.Millisecond)); err != nil {
			panic(err)
		}
		buf := make([]byte, 4)
		if _, err := c.Read(buf); err != nil {
			panic(err)
		}
		// The runtime's pipe keeps virtual time: a deadline in the
		// virtual past has passed.
		a, _ := rt.NetPipe(0)
		rt.SetReadDeadline(a, rt.Now(0).Add(-time.Millisecond))
		if _, err := a.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
			panic(fmt.Sprintf("read on a pipe past its deadline: %v", err))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "" {
		t.Fatalf("got %q:\n%s", rep.Kind, rep.Text)
	}
}
