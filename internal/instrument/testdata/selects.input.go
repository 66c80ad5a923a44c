package selects

import "fmt"

type Flag bool

func chans() (chan int, chan int) { return make(chan int), make(chan int) }

func value() int { return 42 }

func Select(a, b chan int, done <-chan struct{}, flags chan Flag, m map[int]int, x, y int) int {
	select {
	case v := <-a:
		fmt.Println(v)
	case v, ok := <-b:
		fmt.Println(v, ok)
	case b <- value():
	case <-done:
		return 0
	case flags <- x == y:
	case flags <- true:
	default:
		fmt.Println("nothing ready")
	}

	var v int
	var ok bool
	select {
	case v = <-a:
	case v, ok = <-b:
	case m[v], ok = <-a:
	}
	fmt.Println(v, ok)

loop:
	for {
		select {
		case <-done:
			break loop
		case a <- 1:
			continue loop
		}
	}

	c1, _ := chans()
	select {
	case n := <-func() chan int { c, _ := chans(); return c }():
		select {
		case c1 <- n:
		default:
		}
	}

sel:
	select {
	case <-a:
		break sel
	case <-b:
	}

	// A select whose cases all return is a terminating statement.
	select {
	case v := <-a:
		return v
	case v := <-b:
		return v
	}
}

func Forever() {
	select {}
}
