package channels

import (
	"time"
)

type Events chan string

type Pair struct{ A, B int }

func sum(a, b int) int { return a + b }

func Channels(n int64) {
	c := make(chan int, 10)
	d := make(chan int)
	var e Events = make(Events, n)
	var ro <-chan time.Time = make(chan time.Time, 1)
	ps := make(chan Pair, 1)

	c <- 1
	d <- sum(<-c, 2)
	e <- "x"
	ps <- Pair{A: 1}

	v := <-c
	v, ok := <-c
	w, ok := <-d
	v, ok = <-c
	var x, ok2 = <-c
	<-d
	if y := <-c; y > 0 {
		_ = y
	}
	_ = sum(<-c, <-d) + len(c) + cap(c)
	_, _, _, _, _ = v, w, ok, x, ok2
	_ = (<-ro).Unix()
	close(c)
	close(e)
}

func Directional(in <-chan int, out chan<- int) {
	for {
		v, ok := <-in
		if !ok {
			close(out)
			return
		}
		out <- v
	}
}

func Generic[T any](c chan T, v T) T {
	c <- v
	return <-c
}

func Block() {
	select {}
}
