package rangechan

import "fmt"

type item struct{ n int }

func Range(c chan int, items chan item) {
	for v := range c {
		fmt.Println(v)
	}
	for range c {
	}
	var last int
	for last = range c {
	}
	fmt.Println(last)
outer:
	for it := range items {
		it := it.n // redeclared in the body
		for v := range c {
			if v == it {
				continue outer
			}
			if v < 0 {
				break outer
			}
		}
	}
}

func Drain[T any](c <-chan T) (n int) {
	for _ = range c {
		n++
	}
	return n
}
