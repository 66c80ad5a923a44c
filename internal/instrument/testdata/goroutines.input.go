package goroutines

import (
	"fmt"
	"sync"
)

type worker struct{ id int }

func (w *worker) run(n int) { fmt.Println(w.id, n) }

func work(a, b int) { fmt.Println(a + b) }

func generic[T any](v T) { fmt.Println(v) }

func variadic(prefix string, xs ...int) { fmt.Println(prefix, xs) }

func next() int { return 1 }

func Spawn(w *worker, fs []func(int), xs []int) {
	go work(1, next())
	go w.run(next())
	go func() {
		fmt.Println("literal")
	}()
	go func(x int) {
		fmt.Println(x)
	}(next())
	f := fs[0]
	go f(2)
	go fs[next()](3)
	go generic(next())
	go generic[string]("s")
	go variadic("p", 1, next())
	go variadic("p", xs...)
	go println(next())

	var wg sync.WaitGroup
	go wg.Wait()
	c := make(chan int)
	go close(c)
}

type ID int64

func takeID(id ID) {}

func Untyped(a, b int) {
	go takeID(1 << a)
	go fmt.Println(a == b)
}

func pair() (int, int) { return 1, 2 }

func MultiValue(fs []func(int, int)) {
	go work(pair())
	go fs[0](pair())
}
