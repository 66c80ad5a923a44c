//line testdata/rangelegacy.go:1
//go:build go1.21

// Before Go 1.22 a range variable is shared by all iterations; the
// rewrite keeps it so.
package rangelegacy; import __rt "interleave.dev/rt"

import "fmt"

func Range(c chan int) {
	var fs []func()
	for __rtCh1, v := c, *new(int); ; { var __rtOk2 bool; v, __rtOk2 = __rt.Recv2[int](__rtCh1, __rtSites_5115e78b+0); if !__rtOk2 { break }; {
		fs = append(fs, func() { __rt.Read(&v, __rtSites_5115e78b+1); fmt.Println(v) })
	}}
	for _, f := range fs {
		f()
	}
}

var __rtSites_5115e78b = __rt.RegisterFile("testdata/rangelegacy.go", 11, 2, 12, 40)
