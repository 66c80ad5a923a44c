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
	select { // the target of a goto: the label stays on the block
	case <-c:
		i++
		if i < 2 {
			goto again
		}
	}

	f := sync.OnceValue[int] // an explicitly instantiated function value
	_ = f
	g := (*locked).Lock // a method expression through an embedded field: the struct declares Lock
	_ = g
}
