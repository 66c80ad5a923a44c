//line testdata/rangelegacy.go:1
//go:build go1.21

// Before Go 1.22 a range variable is shared by all iterations; the
// rewrite keeps it so.
package rangelegacy; import __rt "interleave.dev/rt"

import "fmt"

func Range(c chan int) {
	var fs []func()
	for __rtRecv3, __rtCh1, v := __rt.Recv2[int], c, *new(int); ; { var __rtOk2 bool; v, __rtOk2 = __rtRecv3(__rtCh1, __rtSites_5115e78b+1); if !__rtOk2 { break }; { __rt.Wrote(&v, __rtSites_5115e78b+5); 
		__rt.Append(fs, 1, __rtSites_5115e78b+6); fs = append(fs, func() { __rt.Read(&v, __rtSites_5115e78b+7); fmt.Println(v) })
	}}
	for __rtK7, f := range fs { __rt.Read(&fs[__rtK7], __rtSites_5115e78b+8);
		f()
	}
}

type callbackCh chan func()

// A loop variable may shadow the element type's name.
func Shadowing(queue chan callbackCh) {
	for __rtRecv6, __rtCh4, callbackCh := __rt.Recv2[callbackCh], queue, *new(callbackCh); ; { var __rtOk5 bool; callbackCh, __rtOk5 = __rtRecv6(__rtCh4, __rtSites_5115e78b+3); if !__rtOk5 { break }; {
		f := __rt.Recv[func()](callbackCh, __rtSites_5115e78b+4)
		f()
	}}
}

var __rtSites_5115e78b = __rt.RegisterFile("testdata/rangelegacy.go", "c*c\nc*c\nc*queue\nc*queue\nc*callbackCh\nv*v\nv*fs\nv*v\nv*fs", 11, 2, 11, 2, 23, 2, 23, 2, 24, 8, 11, 6, 12, 8, 12, 40, 14, 2)
