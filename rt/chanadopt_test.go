package rt_test

import (
	"fmt"
	"reflect"
	"testing"

	"interleave.dev/rt"
)

// A channel closed, or filled, before the exploration (by package
// initialization) is seen in that state by the program, as natively: a
// receive from it does not block for good.

var (
	closedBefore = func() chan int { c := make(chan int); close(c); return c }()
	filledBefore = func() chan int { c := make(chan int, 3); c <- 1; c <- 2; return c }()
)

func TestChannelStateFromBefore(t *testing.T) {
	expect(t, outcomes(t, rt.Options{}, func() string {
		v, ok := rt.Recv2(closedBefore, 0)
		n := rt.Len(filledBefore, 0)
		a := rt.Recv(filledBefore, 0)
		b, _ := rt.ReflectRecv(reflect.ValueOf(filledBefore), 0)
		return fmt.Sprint(v, ok, n, a, b)
	}), "0 false 2 1 2")
	// The values are back in the channel for the next iteration, and
	// for native code.
	if len(filledBefore) != 2 || <-filledBefore != 1 || <-filledBefore != 2 {
		t.Errorf("the channel filled before the exploration lost its values")
	}
	filledBefore <- 1
	filledBefore <- 2
}
