//line testdata/breakpoints.go:1
package p; import __rt "interleave.dev/rt"

import "sync"

var mu sync.Mutex
var n int

func check() int {
	__rt.Lock(&mu, __rtSites_d3650791+0)
	__rt.Read(&n, __rtSites_d3650791+4); v := n
	__rt.Unlock(&mu, __rtSites_d3650791+1)
	__rt.Breakpoint("checked", "acted", __rtSites_d3650791+7); //interleave:breakpoint checked acted
	return v
}

func act(v int) {
	__rt.Breakpoint("acted", "checked", __rtSites_d3650791+8); //interleave:breakpoint acted checked
	__rt.Lock(&mu, __rtSites_d3650791+2)
	__rt.Write(&n, __rtSites_d3650791+5); n = v + 1
	__rt.Unlock(&mu, __rtSites_d3650791+3)
	switch v {
	case 0:
		__rt.Breakpoint("zero", "", __rtSites_d3650791+9); //interleave:breakpoint zero
		__rt.Update(&n, __rtSites_d3650791+6); n++
	}
}

//interleave:breakpoint top
var x = func() int {
	return 1 //interleave:breakpoint inside
}()

func bad() {
	//interleave:breakpoint
	//interleave:breakpoints are not this directive
}

var __rtSites_d3650791 = __rt.RegisterFile("testdata/breakpoints.go", "l*mu\nl*mu\nl*mu\nl*mu\nv*n\nv*n\nv*n", 9, 2, 11, 2, 18, 2, 20, 2, 10, 7, 19, 2, 24, 3, 12, 2, 17, 2, 23, 3)

// Warnings:
//	testdata/breakpoints.go:28:1: breakpoint directive left alone: it is not on a line of its own between two statements of a function body
//	testdata/breakpoints.go:30:11: breakpoint directive left alone: it is not on a line of its own between two statements of a function body
//	testdata/breakpoints.go:34:2: breakpoint directive left alone: want //interleave:breakpoint NAME [WAIT]
