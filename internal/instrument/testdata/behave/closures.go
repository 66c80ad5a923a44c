// Goroutine arguments are evaluated before the goroutine starts;
// closures share captured variables; method values bind their receiver.
package main

import (
	"fmt"
	"sync"
)

var order []string

func trace(s string) string {
	order = append(order, s)
	return s
}

type greeter struct{ name string }

func (g greeter) greet(out chan<- string, greeting string) {
	out <- greeting + " " + g.name
}

func main() {
	out := make(chan string)
	g := greeter{name: "ann"}
	go g.greet(out, trace("hello"))
	g.name = "bob" // the method value was bound with "ann"
	fmt.Println(<-out)

	fs := []func(chan<- string, string){func(c chan<- string, s string) { c <- "first " + s }}
	i := 0
	go fs[i](out, trace("x"))
	i++
	fmt.Println(<-out, i)

	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for k := 1; k <= 4; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			mu.Lock()
			total += k
			mu.Unlock()
		}(k)
	}
	wg.Wait()
	fmt.Println("total", total)

	shared := 0
	done := make(chan bool)
	go func() {
		shared = 41
		done <- true
	}()
	<-done
	shared++
	fmt.Println("shared", shared, order)

	results := make([]int, 3)
	for j := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[j] = j * j
		}()
	}
	wg.Wait()
	fmt.Println(results)
}
