//line testdata/rangechan.go:1
package rangechan; import __rt "interleave.dev/rt"

import "fmt"

type item struct{ n int }

func Range(c chan int, items chan item) {
	for __rtCh1 := c; ; { v, __rtOk2 := __rt.Recv2[int](__rtCh1, __rtSites_6196ea0a+0); if !__rtOk2 { break }; {
		fmt.Println(v)
	}}
	for __rtCh3 := c; ; { _, __rtOk4 := __rt.Recv2[int](__rtCh3, __rtSites_6196ea0a+1); if !__rtOk4 { break }; {
	}}
	var last int
	for __rtCh5 := c; ; { __rtV7, __rtOk6 := __rt.Recv2[int](__rtCh5, __rtSites_6196ea0a+2); if !__rtOk6 { break }; last = __rtV7; {
	}}
	fmt.Println(last)
outer:
	for __rtCh8 := items; ; { it, __rtOk9 := __rt.Recv2[item](__rtCh8, __rtSites_6196ea0a+3); if !__rtOk9 { break }; {
		it := it.n // redeclared in the body
		for __rtCh10 := c; ; { v, __rtOk11 := __rt.Recv2[int](__rtCh10, __rtSites_6196ea0a+4); if !__rtOk11 { break }; {
			if v == it {
				continue outer
			}
			if v < 0 {
				break outer
			}
		}}
	}}
}

func Drain[T any](c <-chan T) (n int) {
	for __rtCh12 := c; ; { _, __rtOk13 := __rt.Recv2[T](__rtCh12, __rtSites_6196ea0a+5); if !__rtOk13 { break }; {
		n++
	}}
	return n
}

var __rtSites_6196ea0a = __rt.RegisterFile("testdata/rangechan.go", "c*c\nc*c\nc*c\nc*items\nc*c\nc*c", 8, 2, 11, 2, 14, 2, 18, 2, 20, 3, 32, 2)
