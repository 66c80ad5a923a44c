// Select in every form: receive with and without ok, send, default,
// labeled break, nested selects, and a select in a terminating position.
package main

import "fmt"

func first(a, b chan int) int {
	select {
	case v := <-a:
		return v
	case v := <-b:
		return -v
	}
}

func main() {
	a := make(chan int)
	b := make(chan int, 1)
	quit := make(chan bool)
	go func() {
		for i := 0; i < 5; i++ {
			a <- i
		}
		close(a)
	}()
	total := 0
	received := 0
loop:
	for {
		select {
		case v, ok := <-a:
			if !ok {
				break loop
			}
			total += v
			received++
		case quit <- true:
			fmt.Println("unexpected")
		}
	}
	fmt.Println("total", total, "received", received)

	select {
	case b <- 7:
		fmt.Println("sent to b")
	default:
		fmt.Println("b full")
	}
	select {
	case b <- 8:
		fmt.Println("sent to b again")
	default:
		fmt.Println("b full")
	}
	var x int
	select {
	case x = <-b:
	}
	fmt.Println("x", x)

	b <- 3
	fmt.Println("first", first(make(chan int), b))

	var nilc chan int
	select {
	case <-nilc:
		fmt.Println("nil channel ready?")
	default:
		fmt.Println("nil channel never ready")
	}

	c := make(chan int, 1)
	c <- 1
	select {
	case v := <-c:
		select {
		case c <- v + 1:
		default:
		}
	}
	fmt.Println("c", <-c)
}
