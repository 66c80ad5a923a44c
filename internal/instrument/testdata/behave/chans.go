// Producers and consumers over buffered and unbuffered channels.
package main

import "fmt"

type result struct {
	id, square int
}

func main() {
	jobs := make(chan int, 3)
	results := make(chan result)
	done := make(chan struct{})
	for w := 0; w < 3; w++ {
		go func() {
			for j := range jobs {
				results <- result{j, j * j}
			}
			done <- struct{}{}
		}()
	}
	go func() {
		for i := 1; i <= 9; i++ {
			jobs <- i
		}
		close(jobs)
	}()
	go func() {
		for i := 0; i < 3; i++ {
			<-done
		}
		close(results)
	}()
	sum := 0
	count := 0
	for {
		r, ok := <-results
		if !ok {
			break
		}
		sum += r.square
		count++
	}
	fmt.Println("count", count, "sum", sum)

	buf := make(chan string, 4)
	buf <- "a"
	buf <- "b"
	fmt.Println("len", len(buf), "cap", cap(buf))
	fmt.Println(<-buf + <-buf)
	close(buf)
	v, ok := <-buf
	fmt.Printf("%q %v\n", v, ok)
}
