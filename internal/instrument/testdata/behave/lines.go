// Line numbers seen at run time (stack traces, panics, runtime.Caller)
// are the original ones: the program prints its own lines.
package main

import (
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

func here() string {
	_, file, line, _ := runtime.Caller(1)
	return fmt.Sprintf("%s:%d", filepath.Base(file), line)
}

var shared int

func main() {
	fmt.Println(here())
	c := make(chan int, 1)
	d := make(chan int, 1)
	c <- 1
	select {
	case v := <-c:
		fmt.Println(here(), v)
	case <-d:
		fmt.Println(here())
	}
	d <- 2
	select {
	case v := <-c:
		fmt.Println(here(), v)
	case v, ok := <-
		d:
		fmt.Println(here(), v, ok)
	}
	fmt.Println(here())
	time.Sleep(
		time.Microsecond,
	)
	fmt.Println(here())
	close(c)
	for range c {
		fmt.Println(here())
	}
	fmt.Println(here())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		shared++
		fmt.Println(here())
	}()
	wg.Wait()
	shared++
	fmt.Println(here(), shared)
	defer func() {
		r := recover()
		for _, l := range strings.Split(string(debug.Stack()), "\n") {
			if strings.Contains(l, "lines.go:") && !strings.Contains(l, "lines.go:6") {
				fmt.Println("stack:", filepath.Base(strings.Fields(l)[0]))
			}
		}
		fmt.Println("recovered", r)
	}()
	var m map[string]int
	m["x"] = 1
}
