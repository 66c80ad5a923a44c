package fidelity

import (
	"reflect"
	"testing"
)

func TestReflectChanLen(t *testing.T) {
	c := make(chan int, 3)
	c <- 1
	c <- 2
	v := reflect.ValueOf(c)
	if v.Len() != 2 || v.Cap() != 3 {
		t.Fatalf("Len %d, Cap %d", v.Len(), v.Cap())
	}
	v.Send(reflect.ValueOf(3))
	if x, ok := v.Recv(); !ok || x.Int() != 1 {
		t.Fatalf("Recv %v, %v", x, ok)
	}
	if !v.TrySend(reflect.ValueOf(4)) || v.TrySend(reflect.ValueOf(5)) {
		t.Fatal("TrySend")
	}
	if got := <-c; got != 2 {
		t.Fatalf("received %d", got)
	}
	chosen, x, ok := reflect.Select([]reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: v},
		{Dir: reflect.SelectDefault},
	})
	if chosen != 0 || !ok || x.Int() != 3 {
		t.Fatalf("Select %d %v %v", chosen, x, ok)
	}
	v.Close()
	if x, ok := v.TryRecv(); !ok || x.Int() != 4 {
		t.Fatalf("TryRecv %v, %v", x, ok)
	}
	if _, ok := <-c; ok {
		t.Fatal("open after Close")
	}
}

// A goroutine blocked in a reflect receive gets a plain send's value.
func TestReflectRecvBlocks(t *testing.T) {
	c := make(chan string)
	go func() { c <- "x" }()
	x, ok := reflect.ValueOf(c).Recv()
	if !ok || x.String() != "x" {
		t.Fatalf("Recv %v, %v", x, ok)
	}
}
