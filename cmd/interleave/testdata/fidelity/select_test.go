package fidelity

import (
	"context"
	"testing"
	"time"
)

// After a select returns through one case, its other channels are
// closed, or their timer fires: the goroutine's next select must not be
// woken by that.
func TestSelectThenCloseOthers(t *testing.T) {
	a, b, c := make(chan int), make(chan int), make(chan int)
	go func() { c <- 1 }()
	select {
	case <-a:
		t.Fatal("a")
	case <-b:
		t.Fatal("b")
	case <-c:
	}
	go func() { close(a); close(b) }()
	fresh := make(chan int)
	select {
	case v, ok := <-fresh:
		t.Fatalf("received %d, %v from a channel nobody sends on", v, ok)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestSelectThenTimerFires(t *testing.T) {
	a, b := make(chan int), make(chan int, 1)
	go func() { b <- 1 }()
	select {
	case <-a:
		t.Fatal("a")
	case <-time.After(10 * time.Millisecond):
		// Possible natively too (a slow machine); nothing to check then.
		return
	case <-a:
		t.Fatal("a")
	case <-b:
	}
	start := time.Now()
	select {
	case <-a:
		t.Fatal("a")
	case <-time.After(100 * time.Millisecond):
		if d := time.Since(start); d < 100*time.Millisecond {
			t.Fatalf("timeout after %v", d)
		}
	}
}

func TestSelectThenCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan int)
	go func() { ready <- 1 }()
	select {
	case <-ctx.Done():
		t.Fatal("done")
	case <-ready:
	}
	go cancel()
	fresh := make(chan int)
	select {
	case v, ok := <-fresh:
		t.Fatalf("received %d, %v from a channel nobody sends on", v, ok)
	case <-time.After(50 * time.Millisecond):
	}
}
