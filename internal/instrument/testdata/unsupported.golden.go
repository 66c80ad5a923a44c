// Constructs left as they are, each with a warning.
package unsupported

import (
	"sync"
	. "time"
)

type locked struct{ sync.Mutex }

func Native(c chan int, n []int) {
	Sleep(Millisecond) // through a dot import

	i := 0
again:
	select { // the target of a goto: the label cannot move
	case <-c:
		i++
		if i < 2 {
			goto again
		}
	}

	f := sync.OnceValue[int] // an explicitly instantiated function value
	_ = f
	g := (*locked).Lock // a method expression through an embedded field
	_ = g

	n[idx()] = 1 // the index calls a function
}

func idx() int { return 0 }

// Warnings:
//	testdata/unsupported.go:12:2: time.Sleep called through a dot import is not instrumented
//	testdata/unsupported.go:16:2: select left native: its label is the target of a goto
//	testdata/unsupported.go:24:7: instantiated function value sync.OnceValue left native
//	testdata/unsupported.go:26:7: promoted method expression (*sync.Mutex).Lock left native
//	testdata/unsupported.go:29:2: access to n[idx()] not instrumented: its address depends on a call, or on a name declared in the statement
