// Range over channels with labeled break and continue, nested.
package main

import "fmt"

func gen(n int) chan int {
	c := make(chan int)
	go func() {
		for i := 0; i < n; i++ {
			c <- i
		}
		close(c)
	}()
	return c
}

func main() {
	var pairs []string
outer:
	for a := range gen(4) {
		inner := gen(4)
		for b := range inner {
			if b > a {
				for range inner {
				}
				continue outer
			}
			if a == 3 && b == 2 {
				for range inner {
				}
				break outer
			}
			pairs = append(pairs, fmt.Sprint(a, b))
		}
	}
	fmt.Println(pairs)

	var last int
	for last = range gen(5) {
	}
	fmt.Println("last", last)

	n := 0
	for range gen(3) {
		n++
	}
	fmt.Println("n", n)
}
