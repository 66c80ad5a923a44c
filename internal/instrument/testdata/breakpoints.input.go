package p

import "sync"

var mu sync.Mutex
var n int

func check() int {
	mu.Lock()
	v := n
	mu.Unlock()
	//interleave:breakpoint checked acted
	return v
}

func act(v int) {
	//interleave:breakpoint acted checked
	mu.Lock()
	n = v + 1
	mu.Unlock()
	switch v {
	case 0:
		//interleave:breakpoint zero
		n++
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
