//go:build go1.21

// Before Go 1.22 a range variable is shared by all iterations; the
// rewrite keeps it so.
package rangelegacy

import "fmt"

func Range(c chan int) {
	var fs []func()
	for v := range c {
		fs = append(fs, func() { fmt.Println(v) })
	}
	for _, f := range fs {
		f()
	}
}

type callbackCh chan func()

// A loop variable may shadow the element type's name.
func Shadowing(queue chan callbackCh) {
	for callbackCh := range queue {
		f := <-callbackCh
		f()
	}
}
